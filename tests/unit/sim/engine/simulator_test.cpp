#include "policy/hiring/never/never_policy.hpp"
#include "policy/policy_registry.hpp"
#include "sim/report/sim_metrics.hpp"
#include "sim/engine/simulator.hpp"

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/sim_fixtures.hpp"

using namespace burst;
using namespace burst::test;

namespace {

// A policy whose decisions the test writes, recording what it was shown.
class ScriptedPolicy final : public Policy {
public:
    std::function<Decision(const ClusterState&, Time)> script;
    // Actions taken at the decision at their time, after the script's.
    std::vector<std::pair<Time, ActionKind>> at;
    std::vector<JobEnd> ends;
    std::string_view name() const override { return "scripted"; }
    Decision decide(const ClusterState& state, const Clock& clock) override
    {
        Decision d = script ? script(state, clock.now()) : Decision{};
        for (const auto& [time, what] : at)
            if (time == clock.now())
                d.add(what, "test");
        return d;
    }
    void observe(const JobEnd& end) override { ends.push_back(end); }
};

// Every job here is u1's, in account acct.
TraceJob job(JobId id, Time submit, std::uint32_t cpus, Seconds runtime, Seconds limit = 0)
{
    return submitted_by("u1", "acct", trace_job(id, submit, cpus, runtime, limit));
}

// Up to two 2-core nodes booting in 30 s, billed per second (at 3.6 per
// hour, 0.001 per instance-second).
NodeGroup cloud(double price_per_hour = 3.6)
{
    return cloud_group("g", 2, price_per_hour, 30, 2, 0);
}

SimConfig site(std::uint32_t cores)
{
    SimConfig c = local_site(cores, 2, 10);
    c.suspend_time = 100;
    return c;
}

} // namespace

TEST_GROUP(Simulator){};

TEST(Simulator, RunsFcfsWithEasyBackfill)
{
    PolicyParams none;
    NeverPolicy never(none);
    SimResult r = simulate(site(4),
                           {job(1, 0, 2, 100, 100), job(2, 1, 4, 10, 10), job(3, 2, 2, 50, 50),
                            job(4, 3, 2, 200, 200)},
                           never);
    LONGS_EQUAL(4, r.jobs.size());
    DOUBLES_EQUAL(0, outcome(r, 1).start, 0);
    DOUBLES_EQUAL(100, outcome(r, 2).start, 0); // head waits for job 1
    DOUBLES_EQUAL(2, outcome(r, 3).start, 0);   // ends before the reservation: backfilled
    DOUBLES_EQUAL(110, outcome(r, 4).start, 0); // would delay the head: not backfilled
    DOUBLES_EQUAL(0, r.cloud_cost, 0);
}

// Slurm's spare cores at the head's reservation are those left over once
// every job ending by then has freed its cores, not only the first ones.
TEST(Simulator, BackfillCountsEveryJobEndingAtTheHeadsReservation)
{
    PolicyParams none;
    NeverPolicy never(none);
    SimResult r = simulate(site(5),
                           {job(1, 0, 2, 100, 100), job(2, 0, 2, 100, 100), job(3, 1, 3, 50, 50),
                            job(4, 2, 1, 1000, 1000)},
                           never);
    DOUBLES_EQUAL(100, outcome(r, 3).start, 0); // the head waits for 3 cores
    DOUBLES_EQUAL(2, outcome(r, 4).start, 0);   // 5 - 3 cores are spare then: backfilled
}

TEST(Simulator, TheTraceRuntimeIsTheEstimateWithoutALimitAndRuntimesStopAtTheLimit)
{
    PolicyParams none;
    NeverPolicy never(none);
    SimResult r = simulate(site(4), {job(1, 0, 2, 100), job(2, 1, 4, 10), job(3, 2, 2, 80, 50)}, never);
    DOUBLES_EQUAL(2, outcome(r, 3).start, 0);
    DOUBLES_EQUAL(52, outcome(r, 3).end, 0);
    LONGS_EQUAL(1, r.runtimes_capped);
}

TEST(Simulator, AlwaysBootsACloudNodeForARoutedJobAndBillsUntilSuspend)
{
    SimConfig c = site(2);
    c.groups = {cloud()};
    auto always = make_policy("always", PolicyParams{});
    SimResult r = simulate(c, {job(1, 0, 2, 1000), job(2, 0, 2, 100)}, *always);
    DOUBLES_EQUAL(0, outcome(r, 1).start, 0);
    LONGS_EQUAL(-1, outcome(r, 1).group);
    LONGS_EQUAL(0, outcome(r, 2).group);
    DOUBLES_EQUAL(30, outcome(r, 2).start, 1e-9); // routed at t=0, node boots 30 s
    DOUBLES_EQUAL(130, outcome(r, 2).end, 1e-9);
    LONGS_EQUAL(1, r.instances_launched);
    DOUBLES_EQUAL(0.23, r.cloud_cost, 1e-9); // launched 0, idle at 130, suspended at 230
    DOUBLES_EQUAL(0.1, r.account_cost.at("acct"), 1e-9);
    SimMetrics m = compute_metrics(r, 2.0);
    DOUBLES_EQUAL(0.13, m.account_cost.at(""), 1e-9);
    DOUBLES_EQUAL(200, m.cloud_core_seconds, 1e-9);
}

// Nodes never powered up make no difference: not to the jobs, the bill or
// the instances.
TEST(Simulator, AQuotaNeverReachedReplaysAsNoQuota)
{
    const std::vector<TraceJob> trace = {job(1, 0, 2, 1000), job(2, 0, 2, 500), job(3, 0, 2, 300),
                                         job(4, 0, 2, 500), job(5, 0, 2, 400), job(6, 900, 2, 10)};
    auto replay = [&](std::uint32_t max_count) {
        SimConfig c = site(2);
        c.groups = {cloud()};
        c.groups[0].max_count = max_count;
        auto always = make_policy("always", PolicyParams{});
        return simulate(c, trace, *always);
    };
    const SimResult just_enough = replay(4), high = replay(100000), unlimited = replay(0);
    for (const SimResult* r : {&high, &unlimited}) {
        for (const auto& job : just_enough.jobs) {
            DOUBLES_EQUAL(job.start, outcome(*r, job.id).start, 0);
            DOUBLES_EQUAL(job.end, outcome(*r, job.id).end, 0);
            LONGS_EQUAL(job.group, outcome(*r, job.id).group);
        }
        LONGS_EQUAL(just_enough.instances_launched, r->instances_launched);
        DOUBLES_EQUAL(just_enough.cloud_cost, r->cloud_cost, 0);
        DOUBLES_EQUAL(just_enough.idle_core_seconds, r->idle_core_seconds, 0);
    }
    CHECK(just_enough.instances_launched > 4); // jobs 2-5 on four nodes at once, job 6 on another later
}

TEST(Simulator, AJobOnBootingNodesStartsWhenTheyAreUpAsSlurmResetsIt)
{
    // `always`, noting how each decision sees job 2 once it is allocated.
    class Watching final : public Policy {
    public:
        std::unique_ptr<Policy> always = make_policy("always", PolicyParams{});
        std::vector<std::pair<PendingReason, Time>> seen; // reason, start_time
        std::string_view name() const override { return "watching"; }
        Decision decide(const ClusterState& state, const Clock& clock) override
        {
            for (const auto& j : state.snapshot.jobs)
                if (j.id == 2 && j.state == JobState::Running)
                    seen.emplace_back(j.reason, j.start_time);
            return always->decide(state, clock);
        }
        void observe(const JobEnd& end) override { always->observe(end); }
    } watching;
    SimConfig c = site(2);
    c.groups = {cloud()};
    SimResult r = simulate(c, {job(1, 100, 2, 1000), job(2, 100, 2, 100)}, watching);
    const Time up = outcome(r, 2).start;
    CHECK(!watching.seen.empty());
    CHECK(watching.seen.front().first == PendingReason("Configuring"));
    CHECK(watching.seen.front().second < up); // allocated while the node boots
    CHECK(watching.seen.back().first == PendingReason("None"));
    DOUBLES_EQUAL(up, watching.seen.back().second, 0);
}

TEST(Simulator, SplitsTheWasteIntoBootIdleAndFreeCoresOfBusyNodes)
{
    SimConfig c = site(2);
    c.groups = {cloud()};
    auto always = make_policy("always", PolicyParams{});
    // Job 2 boots the node (0-30 s) and runs on one of its two cores until
    // 130; the node idles until job 3 takes it at 180 and again from 230
    // until SuspendTime powers it down at 330.
    SimResult r = simulate(c, {job(1, 0, 2, 1000), job(2, 0, 1, 100), job(3, 180, 1, 50)}, *always);
    DOUBLES_EQUAL(180, outcome(r, 3).start, 1e-9);
    LONGS_EQUAL(1, r.instances_launched);
    DOUBLES_EQUAL(2 * (50 + 100), r.idle_core_seconds, 1e-9);
    DOUBLES_EQUAL(2 * 100, r.idle_before_down_core_seconds, 1e-9);
    SimMetrics m = compute_metrics(r, 1);
    DOUBLES_EQUAL(2 * 330 - 150, m.waste_core_seconds, 1e-9);
    DOUBLES_EQUAL(2 * 30, m.waste_boot_core_seconds, 1e-9);
    DOUBLES_EQUAL(300, m.waste_idle_core_seconds, 1e-9);
    DOUBLES_EQUAL(200, m.waste_idle_tail_core_seconds, 1e-9);
    DOUBLES_EQUAL(150, m.waste_partial_core_seconds, 1e-9); // one free core while jobs 2 and 3 ran
}

TEST(Simulator, BillsStartedHoursAndSpeedsUpOnFasterNodes)
{
    SimConfig c = site(2);
    c.groups = {cloud()};
    c.groups[0].billing = Billing::PerHour;
    c.groups[0].speed = 2;
    auto always = make_policy("always", PolicyParams{});
    SimResult r = simulate(c, {job(1, 0, 2, 1000), job(2, 0, 2, 100)}, *always);
    DOUBLES_EQUAL(80, outcome(r, 2).end, 1e-9); // 30 s boot + 100 s / 2
    DOUBLES_EQUAL(3.6, r.cloud_cost, 1e-9);
}

TEST(Simulator, SlowerNodesStretchARunButSlurmStillEndsItAtItsLimit)
{
    SimConfig c = site(2);
    c.groups = {cloud()};
    c.groups[0].speed = 0.5;
    auto always = make_policy("always", PolicyParams{});
    SimResult r = simulate(c, {job(1, 0, 2, 1000), job(2, 0, 2, 100, 120), job(3, 0, 2, 50, 120)}, *always);
    DOUBLES_EQUAL(30 + 120, outcome(r, 2).end, 1e-9); // 100 s / 0.5, cut at 120 s
    DOUBLES_EQUAL(30 + 100, outcome(r, 3).end, 1e-9); // 50 s / 0.5: within its limit
    LONGS_EQUAL(1, r.cloud_runs_cut);
    LONGS_EQUAL(0, r.runtimes_capped); // the trace's runtimes are within their limits
}

TEST(Simulator, HiredNodesPowerDownAfterSuspendTimeWhenUnused)
{
    SimConfig c = site(2);
    c.groups = {cloud()};
    ScriptedPolicy p;
    bool hired = false;
    p.script = [&](const ClusterState&, Time) {
        Decision d;
        if (!hired)
            d.add(HireNodes{"g", 3}, "test");
        hired = true;
        return d;
    };
    SimResult r = simulate(c, {job(1, 0, 1, 1000)}, p);
    LONGS_EQUAL(2, r.instances_launched);
    LONGS_EQUAL(1, r.hire_shortfall); // the group has two nodes
    DOUBLES_EQUAL(2 * 0.13, r.cloud_cost, 1e-9); // each up 30 s boot + 100 s idle
}

TEST(Simulator, ReleasingABusyNodeDrainsItAndPowersItDownWhenItsJobEnds)
{
    SimConfig c = site(2);
    c.groups = {cloud()};
    c.groups[0].max_count = 1;
    c.groups[0].cpus = 4; // job 2 leaves 2 cores that job 3 could use
    ScriptedPolicy p;
    p.at = {{0, RouteToCloud{2, "g"}}, {40, ReleaseNodes{{"g-1"}}}, {50, RouteToCloud{3, "g"}}};
    SimResult r = simulate(c, {job(1, 0, 2, 1000), job(2, 0, 2, 100), job(3, 50, 2, 10)}, p);
    DOUBLES_EQUAL(130, outcome(r, 2).end, 1e-9);
    // Nothing new lands on the draining node: job 3 waits until it is down
    // at 130 (not 230) and Slurm resumes it again (up 160, idle 170, down 270).
    LONGS_EQUAL(0, outcome(r, 3).group);
    DOUBLES_EQUAL(160, outcome(r, 3).start, 1e-9);
    LONGS_EQUAL(2, r.instances_launched);
    DOUBLES_EQUAL(0.13 + 0.14, r.cloud_cost, 1e-9);
}

TEST(Simulator, AGroupRunsItsRoutedJobsInPriorityOrderNotRoutingOrder)
{
    // Jobs 4 and 5 wait for the group's one node, busy with job 2 until
    // 130, behind job 3 at the local queue's head; job 4, submitted first,
    // is routed after job 5.  Slurm schedules the partition by priority,
    // which under FCFS is submission order.
    SimConfig c = site(2);
    c.groups = {cloud()};
    c.groups[0].max_count = 1;
    ScriptedPolicy p;
    p.at = {{0, RouteToCloud{2, "g"}}, {10, RouteToCloud{5, "g"}}, {20, RouteToCloud{4, "g"}}};
    SimResult r = simulate(
        c, {job(1, 0, 2, 1000), job(2, 0, 2, 100), job(3, 0, 2, 10), job(4, 0, 2, 10), job(5, 0, 2, 10)}, p);
    DOUBLES_EQUAL(130, outcome(r, 2).end, 1e-9);
    DOUBLES_EQUAL(130, outcome(r, 4).start, 1e-9);
    DOUBLES_EQUAL(140, outcome(r, 5).start, 1e-9);
}

TEST(Simulator, ShowsPoliciesTheSiteAndReportsFinishedJobs)
{
    SimConfig c = site(4);
    c.groups = {cloud()};
    ScriptedPolicy p;
    std::size_t pending_seen = 0, nodes_seen = 0;
    p.script = [&](const ClusterState& s, Time now) {
        if (now == 0) {
            for (const auto& j : s.snapshot.jobs)
                pending_seen += j.pending();
            nodes_seen = s.snapshot.nodes.size();
        }
        return Decision{};
    };
    simulate(c, {job(1, 0, 4, 50), job(2, 0, 2, 10)}, p);
    LONGS_EQUAL(1, pending_seen); // job 2 waits behind job 1
    LONGS_EQUAL(2, nodes_seen);   // two local nodes of 2 cores; no cloud node was ever powered up
    LONGS_EQUAL(2, p.ends.size());
    STRCMP_EQUAL("acct/x", p.ends[0].category.text().c_str());
    DOUBLES_EQUAL(50, p.ends[0].elapsed, 0);
}

TEST(Simulator, RejectsActionsOnUnknownOrFinishedThings)
{
    SimConfig c = site(2);
    c.groups = {cloud()};
    ScriptedPolicy p;
    p.script = [&](const ClusterState&, Time) {
        Decision d;
        d.add(RouteToCloud{99, "g"}, "no such job");
        d.add(RouteToCloud{1, "nowhere"}, "no such group");
        d.add(ReleaseNodes{{"g-9"}}, "no such node");
        return d;
    };
    SimResult r = simulate(c, {job(1, 0, 2, 10)}, p);
    CHECK(r.actions_rejected >= 3);
    LONGS_EQUAL(0, r.actions_applied);
}

TEST(Simulator, IsDeterministicForASeed)
{
    SimConfig c = site(2);
    c.groups = {cloud()};
    c.boot_jitter = 0.5;
    auto run = [&](std::uint64_t seed) {
        c.seed = seed;
        auto always = make_policy("always", PolicyParams{});
        return simulate(c, {job(1, 0, 2, 1000), job(2, 0, 2, 100), job(3, 5, 2, 100)}, *always);
    };
    SimResult a = run(7), b = run(7), other = run(8);
    DOUBLES_EQUAL(outcome(a, 2).start, outcome(b, 2).start, 0);
    DOUBLES_EQUAL(a.cloud_cost, b.cloud_cost, 0);
    CHECK(outcome(a, 2).start != outcome(other, 2).start);
    CHECK(outcome(a, 2).start >= 15 && outcome(a, 2).start <= 45);
}

TEST(Simulator, RejectsUnusableSitesAndTraces)
{
    PolicyParams none;
    NeverPolicy never(none);
    CHECK_THROWS(SimConfigError, simulate(site(0), {job(1, 0, 1, 1)}, never));
    CHECK_THROWS(SimConfigError, simulate(site(2), {job(1, 0, 1, 1), job(1, 2, 1, 1)}, never));
    SimConfig c = site(2);
    c.groups = {cloud()};
    c.groups[0].cpus = 0;
    CHECK_THROWS(SimConfigError, simulate(c, {job(1, 0, 1, 1)}, never));
    SimResult r = simulate(site(2), {job(1, 0, 4, 1), job(2, 0, 1, 1)}, never);
    LONGS_EQUAL(1, r.jobs_too_wide);
    LONGS_EQUAL(1, r.jobs.size());
}

namespace {

// 2 local cores kept busy, a stream of 2-core jobs the always policy sends to
// a spot group of `rate` interruptions per instance-hour.
SimResult spot_run(double rate, std::uint64_t seed, std::uint32_t jobs = 150, const char* policy = "always",
                   std::uint32_t max_nodes = 4)
{
    SimConfig c = site(2);
    c.groups = {cloud()};
    c.groups[0].max_count = max_nodes;
    c.groups[0].spot = true;
    c.groups[0].interruptions_per_hour = rate;
    c.suspend_time = 60;
    c.seed = seed;
    std::vector<TraceJob> trace{job(1, 0, 2, 1e6)};
    for (std::uint32_t i = 0; i < jobs; ++i)
        trace.push_back(job(JobId(i + 2), 60.0 * i, 2, 600));
    auto chosen = make_policy(policy, PolicyParams{});
    return simulate(c, trace, *chosen);
}

} // namespace

TEST(Simulator, SpotInterruptionsFollowTheirRatePerInstanceHour)
{
    SimResult r = spot_run(2.0, 3);
    const double expected = 2.0 * r.instance_seconds / 3600;
    CHECK(expected > 50);
    CHECK_TRUE_TEXT(std::abs(double(r.interruptions) - expected) < 4 * std::sqrt(expected),
                    ("interruptions " + std::to_string(r.interruptions) + ", expected " + std::to_string(expected))
                        .c_str());
    CHECK(r.requeued_jobs > 0 && r.requeued_jobs <= r.interruptions);
    CHECK(r.lost_core_seconds > 0);
}

TEST(Simulator, AnInterruptedJobIsRequeuedLosesItsProgressAndStillCompletes)
{
    SimResult r = spot_run(2.0, 3);
    SimResult calm = spot_run(0, 3);
    LONGS_EQUAL(151, r.jobs.size()); // every job finished
    LONGS_EQUAL(0, calm.interruptions);
    DOUBLES_EQUAL(0, calm.lost_core_seconds, 0);
    // Whatever happened before, the run that counts starts over: full runtime.
    std::size_t delayed = 0;
    for (const auto& o : r.jobs) {
        if (o.id == 1)
            continue;
        LONGS_EQUAL(0, o.group);
        DOUBLES_EQUAL(600, o.end - o.start, 1e-6);
        delayed += o.start > outcome(calm, o.id).start + 1e-6;
    }
    CHECK(delayed > 0);
    // Lost work is powered, paid-for time no job kept: it is waste.
    SimMetrics m = compute_metrics(r, 1.0), mc = compute_metrics(calm, 1.0);
    LONGS_EQUAL(r.interruptions, m.interruptions);
    DOUBLES_EQUAL(r.lost_core_seconds, m.lost_core_seconds, 0);
    CHECK(m.waste_core_seconds >= r.lost_core_seconds);
    CHECK(m.cloud_cost > mc.cloud_cost);
    CHECK(m.mean_wait > mc.mean_wait);
    CHECK(r.account_cost.at("acct") > calm.account_cost.at("acct"));
}

// At 20 interruptions per instance-hour, about half the 120-s boots are
// interrupted: the node goes down, and its boot's end must not bring it
// back (threshold keeps spare nodes, so a downed one is not resumed first).
TEST(Simulator, ANodeInterruptedWhileBootingStaysDown)
{
    SimResult r = spot_run(20.0, 5, 150, "threshold", 10);
    std::size_t down_while_booting = 0;
    std::map<std::pair<int, Time>, std::size_t> launches;
    for (const InstanceSpan& span : r.instances) {
        CHECK(span.ready <= span.down);
        down_while_booting += span.ready == span.down;
        ++launches[{span.group, span.launched}];
    }
    CHECK(down_while_booting > 10);
    // Each launch is billed once: a stale boot end no longer powered a
    // downed node up, to be powered down (and billed) a second time.
    double billed = 0;
    for (const InstanceSpan& span : r.instances)
        billed += (span.billed_until - span.launched) * span.price_per_hour / 3600;
    DOUBLES_EQUAL(billed, r.cloud_cost, 1e-6);
    LONGS_EQUAL(r.instances_launched, r.instances.size());
    // Supply never exceeds the local cores and every cloud node up.
    const SimMetrics m = compute_metrics(r, 1.0);
    CHECK(m.a_over >= 0 && m.a_over <= 1);
    CHECK(m.a_under >= 0 && m.a_under <= 1);
    LONGS_EQUAL(151, r.jobs.size());
}

TEST(Simulator, SpotInterruptionsAreDeterministicForASeed)
{
    SimResult a = spot_run(2.0, 11, 60), b = spot_run(2.0, 11, 60), other = spot_run(2.0, 12, 60);
    LONGS_EQUAL(a.interruptions, b.interruptions);
    DOUBLES_EQUAL(a.lost_core_seconds, b.lost_core_seconds, 0);
    DOUBLES_EQUAL(a.cloud_cost, b.cloud_cost, 0);
    for (std::size_t i = 0; i < a.jobs.size(); ++i)
        DOUBLES_EQUAL(a.jobs[i].end, b.jobs[i].end, 0);
    CHECK(a.lost_core_seconds != other.lost_core_seconds);
}

TEST(Simulator, InterruptionsLeaveBootTimesAlone)
{
    // Boot jitter draws come from their own stream: the first cloud job
    // starts at the same time with or without interruptions.
    SimConfig c = site(2);
    c.groups = {cloud()};
    c.boot_jitter = 0.5;
    auto first_start = [&](double rate) {
        c.groups[0].spot = rate > 0;
        c.groups[0].interruptions_per_hour = rate;
        auto always = make_policy("always", PolicyParams{});
        return outcome(simulate(c, {job(1, 0, 2, 1000), job(2, 0, 2, 100)}, *always), 2).start;
    };
    DOUBLES_EQUAL(first_start(0), first_start(0.001), 0);
}

// A group's own jitter spreads its boots; a group without one boots as
// --boot-jitter says (here: exactly its boot time).
TEST(Simulator, AGroupsOwnBootJitterSpreadsItsBoots)
{
    SimConfig c = site(2);
    c.boot_jitter = 0;
    // The cheaper group first, one node: batches of three jobs spill over,
    // and every node powers down before the next batch.
    c.groups = {cloud_group("spread", 2, 3.0, 100, 1, 0), cloud_group("steady", 2, 3.6, 100, 20, 0)};
    c.group_boot_jitter["spread"] = 0.5;
    std::vector<TraceJob> trace{job(1, 0, 2, 1e6)};
    for (JobId id = 2; id < 80; ++id)
        trace.push_back(job(id, Time(id / 3) * 600, 2, 100));
    auto always = make_policy("always", PolicyParams{});
    SimResult r = simulate(c, trace, *always);
    double steady_min = 1e9, steady_max = 0, spread_min = 1e9, spread_max = 0;
    for (const InstanceSpan& span : r.instances) {
        const Seconds boot = span.ready - span.launched;
        double& low = span.group == 0 ? spread_min : steady_min;
        double& high = span.group == 0 ? spread_max : steady_max;
        low = std::min(low, boot);
        high = std::max(high, boot);
    }
    CHECK(steady_max > 0 && spread_max > 0); // both groups were used
    DOUBLES_EQUAL(100, steady_min, 1e-9);
    DOUBLES_EQUAL(100, steady_max, 1e-9);
    CHECK(spread_min >= 50 && spread_max <= 150);
    CHECK(spread_max - spread_min > 30);
    c.group_boot_jitter["spread"] = 1;
    CHECK_THROWS(SimConfigError, simulate(c, trace, *always));
}

TEST(Simulator, InterruptionsNeedASpotGroupAndASaneRate)
{
    PolicyParams none;
    NeverPolicy never(none);
    SimConfig c = site(2);
    c.groups = {cloud()};
    c.groups[0].interruptions_per_hour = 1; // not spot
    CHECK_THROWS(SimConfigError, simulate(c, {job(1, 0, 1, 1)}, never));
    c.groups[0].spot = true;
    c.groups[0].interruptions_per_hour = -1;
    CHECK_THROWS(SimConfigError, simulate(c, {job(1, 0, 1, 1)}, never));
}

// A job held until later than its submission (sacct's Eligible: --begin,
// a hold) is pending with reason BeginTime until then, no demand to a
// policy, its wait counts from its release, and it keeps its submission's
// place under FCFS: released at 150 while job 3, submitted at 20 and
// waiting, it starts first when job 1's cores free at 200.
TEST(Simulator, AJobHeldPastItsSubmissionIsNoDemandUntilReleasedAndKeepsItsPlace)
{
    TraceJob held = job(2, 10, 4, 50, 50);
    held.eligible = 150;
    ScriptedPolicy seen;
    std::vector<std::pair<Time, std::string>> reasons;
    seen.script = [&](const ClusterState& s, Time now) {
        for (const auto& j : s.snapshot.jobs)
            if (j.id == 2 && (now == 100 || now == 160))
                reasons.emplace_back(now, std::string(j.blocked() ? "blocked" : "demand"));
        return Decision{};
    };
    SimResult r = simulate(site(4), {job(1, 0, 4, 200, 200), held, job(3, 20, 4, 10, 10)}, seen);
    CHECK((reasons == std::vector<std::pair<Time, std::string>>{{100, "blocked"}, {160, "demand"}}));
    DOUBLES_EQUAL(200, outcome(r, 2).start, 0);
    DOUBLES_EQUAL(150, outcome(r, 2).eligible, 0);
    DOUBLES_EQUAL(10, outcome(r, 2).submit, 0);
    DOUBLES_EQUAL(250, outcome(r, 3).start, 0);
}

// Two batch jobs fill the 2 cores for 1000 s; an interactive job comes at
// 50 s.  Without Interactive= it waits for the first of them to end; with
// one core kept it preempts the hold at once, and the hold queued again at
// the next cycle takes the next core to come free.
TEST(Simulator, InteractiveHoldsStartAnInteractiveJobAtOnce)
{
    TraceJob session = job(3, 50, 1, 100, 100);
    session.interactive = true;
    const std::vector<TraceJob> trace{job(1, 0, 1, 1000, 1000), job(2, 1, 1, 1000, 1000), session};
    PolicyParams none;
    NeverPolicy never(none);
    SimResult without = simulate(site(2), trace, never);
    DOUBLES_EQUAL(1000, outcome(without, 3).start, 0);
    DOUBLES_EQUAL(1, outcome(without, 2).start, 0);
    DOUBLES_EQUAL(0, without.held_core_seconds, 0);

    SimConfig reserve = site(2);
    reserve.interactive_cores = 1;
    SimResult with = simulate(reserve, trace, never);
    DOUBLES_EQUAL(50, outcome(with, 3).start, 0);
    CHECK(outcome(with, 3).interactive);
    CHECK(!outcome(with, 2).interactive);
    DOUBLES_EQUAL(1000, outcome(with, 2).start, 0); // the held core was not its to take
    // Held 0-50 s, then from job 3's end (150 s) to the last end (2000 s).
    DOUBLES_EQUAL(50 + 1850, with.held_core_seconds, 1e-9);
}
