#include "sim/objective_bound.hpp"

#include "sim/clairvoyant_reference.hpp"
#include "sim/sim_metrics.hpp"

#include <random>

#include "sim_fixtures.hpp"

using namespace burst;
using namespace burst::test;

namespace {

// Prices on a grid fine enough for jobs of 100 s.
ObjectiveBoundOptions fine()
{
    ObjectiveBoundOptions o;
    o.bucket = 50;
    o.iterations = 1000;
    return o;
}

// J(λ) of a replay of `trace` by `policy` (its λ, where it takes one).
double objective_of(const std::string& policy, const SimConfig& config, const std::vector<TraceJob>& trace,
                    double lambda)
{
    PolicyParams params;
    if (policy == "forecast")
        params.set("lambda", std::to_string(lambda));
    auto p = make_policy(policy, params);
    return objective_at(compute_metrics(simulate(config, trace, *p), lambda), lambda);
}

} // namespace

TEST_GROUP(ObjectiveBound){};

TEST(ObjectiveBound, ZeroWhenEveryJobCanStartAtOnceLocally)
{
    SimConfig config = local_site(4, 4, 60);
    config.groups = {cloud_group("aws", 4, 0.4, 100, 2, 0)};
    const auto bound = objective_bound(config, {trace_job(1, 0, 2, 100), trace_job(2, 0, 2, 100)}, 1.0, 1.0, fine());
    CHECK(bound.has_value());
    DOUBLES_EQUAL(0, bound->value, 1e-9);
}

TEST(ObjectiveBound, ReachesTheHandOptimumWhereOneJobMustWaitOrBurst)
{
    // One local core, two 1-core jobs of 100 s at 0.  Cloud at 36 per
    // core-hour (0.01 per core·s): bursting one costs 1; one waiting 100 s
    // costs λ × 100 / 3600.
    SimConfig config = local_site(1, 1, 60);
    config.groups = {cloud_group("aws", 1, 36, 100, 1, 0)};
    const std::vector<TraceJob> trace = {trace_job(1, 0, 1, 100), trace_job(2, 0, 1, 100)};
    // λ = 18: waiting costs 0.5, less than the cloud.
    const auto waits = objective_bound(config, trace, 18, 0.5, fine());
    CHECK(waits.has_value());
    CHECK(waits->value <= 0.5 + 1e-9);
    DOUBLES_EQUAL(0.5, waits->value, 0.01);
    // λ = 72: waiting costs 2, the cloud 1.
    const auto bursts = objective_bound(config, trace, 72, 1.0, fine());
    CHECK(bursts->value <= 1.0 + 1e-9);
    DOUBLES_EQUAL(1.0, bursts->value, 0.02);
}

TEST(ObjectiveBound, CountsTheCloudsCapacity)
{
    // One local core, one 1-core cloud node, three 1-core jobs of 100 s at
    // 0: one of them waits 100 s whatever is hired.  λ = 72 (2 per 100 s of
    // waiting), the cloud 1 per job: optimum 1 + 2.
    SimConfig config = local_site(1, 1, 60);
    config.groups = {cloud_group("aws", 1, 36, 100, 1, 0)};
    const std::vector<TraceJob> trace = {trace_job(1, 0, 1, 100), trace_job(2, 0, 1, 100), trace_job(3, 0, 1, 100)};
    const auto bound = objective_bound(config, trace, 72, 3.0, fine());
    CHECK(bound->value <= 3.0 + 1e-9);
    DOUBLES_EQUAL(3.0, bound->value, 0.06);
    // Without the cap the third job bursts too: 2.
    config.groups[0].max_count = 3;
    DOUBLES_EQUAL(2.0, objective_bound(config, trace, 72, 2.0, fine())->value, 0.04);
}

TEST(ObjectiveBound, NeverAboveWhatAReplayAchieves)
{
    // A random congested trace: the bound, aimed at a J no schedule reaches
    // (half the best replay's, so the steps overshoot if they can), stays
    // under every replay's J.
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> gap(0, 400), runtime(60, 3000);
    std::uniform_int_distribution<std::uint32_t> cpus(1, 8);
    std::vector<TraceJob> trace;
    Time t = 0;
    for (JobId id = 1; id <= 120; ++id)
        trace.push_back(trace_job(id, t += gap(rng), cpus(rng), runtime(rng)));
    SimConfig config = local_site(16, 8, 60);
    config.groups = {cloud_group("aws", 8, 0.4, 120, 2, 60)};
    for (double lambda : {0.025, 0.25}) {
        double best = 1e300;
        for (const char* policy : {"never", "always", "forecast"})
            best = std::min(best, objective_of(policy, config, trace, lambda));
        const auto bound = objective_bound(config, trace, lambda, best / 2);
        CHECK(bound.has_value());
        CHECK(bound->value > 0);
        CHECK(bound->value <= best);
    }
}

TEST(ObjectiveBound, NoneWhenATasksWaitDependsOnItsParents)
{
    SimConfig config = local_site(4, 4, 60);
    config.groups = {cloud_group("aws", 4, 0.4, 100, 2, 0)};
    TraceJob child = trace_job(2, 0, 1, 100);
    child.parents = {1};
    CHECK_FALSE(objective_bound(config, {trace_job(1, 0, 1, 100), child}, 1.0, 1.0).has_value());
}
