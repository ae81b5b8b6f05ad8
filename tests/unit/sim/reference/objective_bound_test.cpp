#include "sim/reference/objective_bound.hpp"

#include "sim/report/sim_metrics.hpp"

#include <random>

#include "sim/sim_fixtures.hpp"

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

// The bound reached a hand-worked optimum (within `tolerance`, the steps'
// shortfall) and did not go above it.
void reaches_optimum(const std::optional<double>& bound, double optimum, double tolerance)
{
    CHECK(bound.has_value());
    CHECK(*bound <= optimum + 1e-9);
    DOUBLES_EQUAL(optimum, *bound, tolerance);
}

} // namespace

TEST_GROUP(ObjectiveBound){};

TEST(ObjectiveBound, ZeroWhenEveryJobCanStartAtOnceLocally)
{
    SimConfig config = local_site(4, 4, 60);
    config.groups = {cloud_group("aws", 4, 0.4, 100, 2, 0)};
    const auto bound = objective_bound(config, {trace_job(1, 0, 2, 100), trace_job(2, 0, 2, 100)}, 1.0, 1.0, fine());
    CHECK(bound.has_value());
    DOUBLES_EQUAL(0, *bound, 1e-9);
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
    reaches_optimum(objective_bound(config, trace, 18, 0.5, fine()), 0.5, 0.01);
    // λ = 72: waiting costs 2, the cloud 1.
    reaches_optimum(objective_bound(config, trace, 72, 1.0, fine()), 1.0, 0.02);
}

TEST(ObjectiveBound, CountsTheCloudsCapacity)
{
    // One local core, one 1-core cloud node, three 1-core jobs of 100 s at
    // 0: one of them waits 100 s whatever is hired.  λ = 72 (2 per 100 s of
    // waiting), the cloud 1 per job: optimum 1 + 2.
    SimConfig config = local_site(1, 1, 60);
    config.groups = {cloud_group("aws", 1, 36, 100, 1, 0)};
    const std::vector<TraceJob> trace = {trace_job(1, 0, 1, 100), trace_job(2, 0, 1, 100), trace_job(3, 0, 1, 100)};
    reaches_optimum(objective_bound(config, trace, 72, 3.0, fine()), 3.0, 0.06);
    // Two nodes: the third job bursts too, 2.  Named nodes count as Slurm
    // would (max 0 = as many as are named).
    config.groups[0].max_count = 2;
    DOUBLES_EQUAL(2.0, objective_bound(config, trace, 72, 2.0, fine()).value_or(-1), 0.04);
    config.groups[0].max_count = 0;
    config.groups[0].nodes = {"c1", "c2"};
    DOUBLES_EQUAL(2.0, objective_bound(config, trace, 72, 2.0, fine()).value_or(-1), 0.04);
    // One node twice as fast, 1 per job's work (72 per core-hour at speed
    // 2), waiting 4 per 100 s (λ = 144): job 2 bursts at once; job 3 is
    // better off waiting 50 s for the node than 100 s for the local core:
    // 1 + (2 + 1).  Were the node as slow as a local core, 1 + 4.
    config.groups[0].nodes.clear();
    config.groups[0].max_count = 1;
    config.groups[0].speed = 2;
    config.groups[0].price_per_hour = 72;
    DOUBLES_EQUAL(4.0, objective_bound(config, trace, 144, 4.0, fine()).value_or(-1), 0.08);
    // With a slow, dear node beside it and a fourth job: jobs 2 and 3 burst
    // at once (1 each at the cheaper price), job 4 waits 50 s for a cloud
    // core (2 + 1).  The relaxation runs every cloud job at the fastest
    // speed: at the slow node's, job 4 would wait 100 s locally instead (4).
    NodeGroup slow = cloud_group("slow", 1, 72, 100, 1, 0);
    slow.speed = 0.5;
    config.groups.push_back(slow);
    std::vector<TraceJob> four = trace;
    four.push_back(trace_job(4, 0, 1, 100));
    DOUBLES_EQUAL(5.0, objective_bound(config, four, 144, 5.0, fine()).value_or(-1), 0.1);
}

TEST(ObjectiveBound, PricesCloudWorkAtTheCheapestGroupPerCoreSecondOfLocalWork)
{
    // One local core, two 1-core jobs of 100 s at 0, waiting dear (λ = 3600:
    // 100 per 100 s).  A fast group at 0.01 per core·s of local work (72 per
    // core-hour, speed 2) and a slow one at 0.005 (9 per core-hour, speed
    // 0.5): the burst costs 0.5 there.
    SimConfig config = local_site(1, 1, 60);
    NodeGroup fast = cloud_group("fast", 1, 72, 100, 1, 0), slow = cloud_group("slow", 1, 9, 100, 1, 0);
    fast.speed = 2;
    slow.speed = 0.5;
    config.groups = {fast, slow};
    const std::vector<TraceJob> trace = {trace_job(1, 0, 1, 100), trace_job(2, 0, 1, 100)};
    reaches_optimum(objective_bound(config, trace, 3600, 0.5, fine()), 0.5, 0.01);
}

TEST(ObjectiveBound, ASlowGroupsRunStopsAtTheJobsLimit)
{
    // Two 1-core jobs of 100 s with a 120-s limit, one local core, waiting
    // dear (λ = 3600).  The only group runs at half speed for 0.01 per
    // core·s: a burst would take 200 s, but Slurm ends it at 120 s, so it
    // costs 1.2, not 2.
    SimConfig config = local_site(1, 1, 60);
    config.groups = {cloud_group("slow", 1, 36, 100, 1, 0)};
    config.groups[0].speed = 0.5;
    const std::vector<TraceJob> trace = {trace_job(1, 0, 1, 100, 120), trace_job(2, 0, 1, 100, 120)};
    reaches_optimum(objective_bound(config, trace, 3600, 1.2, fine()), 1.2, 0.02);
}

TEST(ObjectiveBound, TakesTheJobsAsTheyAreReplayed)
{
    // Killed at their 100-s limit, two jobs on one core: one waits 100 s
    // (1 at λ = 36), cheaper than bursting (2 at 72 per core-hour).
    SimConfig config = local_site(1, 1, 60);
    config.groups = {cloud_group("aws", 1, 72, 100, 1, 0)};
    const std::vector<TraceJob> limited = {trace_job(1, 0, 1, 1000, 100), trace_job(2, 0, 1, 1000, 100)};
    reaches_optimum(objective_bound(config, limited, 36, 1.0, fine()), 1.0, 0.02);
    // A job wider than the local cores is not replayed, so costs nothing.
    const auto wide = objective_bound(config, {trace_job(1, 0, 1, 100), trace_job(2, 0, 2, 100)}, 36, 10.0, fine());
    CHECK(wide.has_value());
    DOUBLES_EQUAL(0, *wide, 1e-9);
}

TEST(ObjectiveBound, NeverAboveWhatAReplayAchieves)
{
    // A random congested trace; the steps aim at half the best replay's J,
    // so they push the bound as high as they can, and it stays under every
    // replay's J.
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
        CHECK(*bound > 0);
        CHECK(*bound <= best);
    }
}

TEST(ObjectiveBound, NoneWhenATasksWaitDependsOnItsParentsOrLambdaIsNegative)
{
    SimConfig config = local_site(4, 4, 60);
    config.groups = {cloud_group("aws", 4, 0.4, 100, 2, 0)};
    TraceJob child = trace_job(2, 0, 1, 100);
    child.parents = {1};
    CHECK_FALSE(objective_bound(config, {trace_job(1, 0, 1, 100), child}, 1.0, 1.0).has_value());
    CHECK_FALSE(objective_bound(config, {trace_job(1, 0, 1, 100)}, -1.0, 1.0).has_value());
}
