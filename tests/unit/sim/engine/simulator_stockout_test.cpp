#include "policy/policy_registry.hpp"
#include "tools/burstsim/group_spec.hpp"
#include "sim/engine/simulator.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/sim_fixtures.hpp"

using namespace burst;
using namespace burst::test;

namespace {

// Passes decisions through to a real policy and keeps the hire limits it
// was shown, by decision time.
class Watching final : public Policy {
public:
    explicit Watching(std::unique_ptr<Policy> inner) : inner_(std::move(inner)) {}
    std::map<Time, std::map<std::string, std::uint32_t>> limits;
    std::string_view name() const override { return inner_->name(); }
    Decision decide(const ClusterState& state, const Clock& clock) override
    {
        limits[clock.now()] = state.hire_limits;
        return inner_->decide(state, clock);
    }
    void observe(const JobEnd& end) override { inner_->observe(end); }

private:
    std::unique_ptr<Policy> inner_;
};

// Every job here is a 2-core job of u1's, in account acct.
TraceJob job(JobId id, Time submit, Seconds runtime)
{
    return submitted_by("u1", "acct", trace_job(id, submit, 2, runtime));
}

// Up to eight 2-core nodes booting in 30 s, billed per second.
NodeGroup group(const std::string& name, double price)
{
    return cloud_group(name, 2, price, 30, 8, 0);
}

// Two local cores held by job 1 all run long, so every other job bursts: one
// 2-core job of 100 s every 30 s from t=0 to t=600 (ids 2..22).  The cheap
// group is stocked out for the first 200 s.
SimConfig site()
{
    SimConfig c = local_site(2, 2, 10);
    c.suspend_time = 100;
    c.groups = {group("cheap", 1.8), group("dear", 7.2)};
    c.shortages["cheap"].windows = {StockOutWindow{0, 200}};
    return c;
}

std::vector<TraceJob> workload()
{
    std::vector<TraceJob> t{job(1, 0, 5000)};
    for (JobId i = 2; i <= 22; ++i)
        t.push_back(job(i, Time(i - 2) * 30, 100));
    return t;
}

SimResult run_always(const SimConfig& c)
{
    Watching always(make_policy("always", PolicyParams{}));
    return simulate(c, workload(), always);
}

// Each job's outcome by id; every job of the workload must be there.
std::map<JobId, JobOutcome> finished(const SimResult& r)
{
    std::map<JobId, JobOutcome> by_id;
    for (const auto& o : r.jobs)
        by_id.emplace(o.id, o);
    LONGS_EQUAL(workload().size(), by_id.size());
    return by_id;
}

} // namespace

TEST_GROUP(SimulatorStockOut){};

TEST(SimulatorStockOut, AlwaysBacksOffTheStockedOutGroupAndReturnsAfterTheWindow)
{
    Watching watched(make_policy("always", PolicyParams{}));
    const SimResult r = simulate(site(), workload(), watched);
    const auto jobs = finished(r); // every requeued job among them
    const GroupBackoff& cheap = r.group_backoff.at(0);
    const GroupBackoff& dear = r.group_backoff.at(1);
    // t=0: CapacityErrors (3) failures in a row open the breaker, the 4th
    // launch is refused.  Probes at 60 and 180 fail inside the window (cool-
    // down 60 -> 120 -> 240); the probe at 420 launches.
    LONGS_EQUAL(3 + 1 + 1, cheap.capacity_failures);
    LONGS_EQUAL(3, cheap.refused_launches);
    LONGS_EQUAL(1, cheap.breaker_opened);
    LONGS_EQUAL(3, cheap.probes);
    DOUBLES_EQUAL(60 + 120 + 240, cheap.backed_off, 1e-9);
    LONGS_EQUAL(0, dear.capacity_failures);
    DOUBLES_EQUAL(0, dear.backed_off, 0);
    LONGS_EQUAL(5 + 3, r.launch_requeues);
    LONGS_EQUAL(0, r.requeued_jobs); // no spot interruptions

    // Policies saw the breaker through ClusterState::hire_limits.
    CHECK(watched.limits.at(0).empty());
    LONGS_EQUAL(0, watched.limits.at(10).at("cheap"));
    LONGS_EQUAL(0, watched.limits.at(50).at("cheap"));
    LONGS_EQUAL(1, watched.limits.at(60).at("cheap")); // one probe
    LONGS_EQUAL(0, watched.limits.at(70).at("cheap"));
    LONGS_EQUAL(1, watched.limits.at(420).at("cheap"));
    CHECK(watched.limits.at(430).empty()); // closed again
    CHECK_FALSE(watched.limits.at(430).count("dear"));

    // The job whose launches failed at t=0 went to the dear group at the
    // next decision; jobs during the back-off ran there; the cheap group is
    // hired again from the successful probe on.
    LONGS_EQUAL(1, jobs.at(2).group);
    DOUBLES_EQUAL(40, jobs.at(2).start, 1e-9); // routed at 10, booted 30 s
    for (JobId id = 2; id <= 15; ++id)            // submitted before 420
        LONGS_EQUAL(1, jobs.at(id).group);
    for (JobId id = 16; id <= 22; ++id) // submitted at 420 and later
        LONGS_EQUAL(0, jobs.at(id).group);
    DOUBLES_EQUAL(450, jobs.at(16).start, 1e-9);
    // Failed launches cost nothing and are not instances.
    for (const auto& span : r.instances)
        CHECK(span.group == 1 || span.launched >= 420);
}

TEST(SimulatorStockOut, RecoveryKnobsShapeTheBackOff)
{
    SimConfig c = site();
    c.groups[0].recovery.capacity_errors = 2;
    c.groups[0].recovery.cool_down = 100;
    c.groups[0].recovery.max_cool_down = 150;
    const SimResult r = run_always(c);
    finished(r);
    // Two failures open it until 100; the probe at 100 fails (cool-down
    // doubles to the 150 cap: until 250); the probe at 250 is past the window.
    LONGS_EQUAL(2 + 1, r.group_backoff.at(0).capacity_failures);
    LONGS_EQUAL(2, r.group_backoff.at(0).probes);
    DOUBLES_EQUAL(100 + 150, r.group_backoff.at(0).backed_off, 1e-9);
}

TEST(SimulatorStockOut, RandomShortagesAreDeterministicForASeed)
{
    SimConfig c = site();
    c.shortages["cheap"] = CapacityShortage{{}, 0.5};
    c.seed = 7;
    const SimResult a = run_always(c);
    const SimResult b = run_always(c);
    const auto b_jobs = finished(b);
    CHECK(a.group_backoff.at(0).capacity_failures > 0);
    LONGS_EQUAL(a.group_backoff.at(0).capacity_failures, b.group_backoff.at(0).capacity_failures);
    LONGS_EQUAL(a.launch_requeues, b.launch_requeues);
    DOUBLES_EQUAL(a.cloud_cost, b.cloud_cost, 0);
    for (const auto& [id, o] : finished(a)) {
        DOUBLES_EQUAL(o.start, b_jobs.at(id).start, 0);
        LONGS_EQUAL(o.group, b_jobs.at(id).group);
    }
    // Without shortages nothing fails and nothing backs off.
    c.shortages.clear();
    const SimResult calm = run_always(c);
    LONGS_EQUAL(0, calm.group_backoff.at(0).capacity_failures);
    LONGS_EQUAL(0, calm.launch_requeues);
    for (const auto& [id, o] : finished(calm))
        LONGS_EQUAL(id == 1 ? -1 : 0, o.group);
}

TEST(SimulatorStockOut, ShortageForAnUnknownGroupIsRejected)
{
    SimConfig c = site();
    c.shortages["nope"].rate = 0.1;
    CHECK_THROWS(SimConfigError, run_always(c));
}

TEST(SimulatorStockOut, GroupSpecReadsShortageAndRecoveryKeys)
{
    const GroupSpec s = parse_group_spec("aws,cpus=8,price=1,boot=60,max=4,stockout=600-1800;3600-3900.5,stockout_rate=0.1,"
                                         "capacity_errors=5,cool_down=30,max_cool_down=600");
    LONGS_EQUAL(2, s.shortage.windows.size());
    DOUBLES_EQUAL(600, s.shortage.windows[0].start, 0);
    DOUBLES_EQUAL(3900.5, s.shortage.windows[1].end, 0);
    DOUBLES_EQUAL(0.1, s.shortage.rate, 0);
    CHECK(s.shortage.stocked_out(600));
    CHECK_FALSE(s.shortage.stocked_out(1800));
    LONGS_EQUAL(5, s.group.recovery.capacity_errors);
    DOUBLES_EQUAL(30, s.group.recovery.cool_down, 0);
    DOUBLES_EQUAL(600, s.group.recovery.max_cool_down, 0);
    const GroupSpec plain = parse_group_spec("aws,cpus=8,price=1,boot=60,max=4");
    CHECK_FALSE(plain.shortage.any());
    LONGS_EQUAL(GroupRecovery{}.capacity_errors, plain.group.recovery.capacity_errors);
    for (const char* bad : {"stockout=1800-600", "stockout=600", "stockout=a-b", "stockout=", "stockout_rate=1.5",
                            "capacity_errors=0"})
        CHECK_THROWS(GroupSpecError, parse_group_spec(std::string("aws,cpus=8,price=1,boot=60,max=4,") + bad));
}
