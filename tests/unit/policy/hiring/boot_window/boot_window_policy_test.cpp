#include "policy/hiring/boot_window/boot_window_policy.hpp"

#include "policy/policy_test_state.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::actions;
using burst::test::StateBuilder;

namespace {

JobEnd finished(const std::string& category, Seconds elapsed)
{
    JobEnd e;
    e.category = category;
    e.elapsed = elapsed;
    return e;
}

} // namespace

TEST_GROUP(BootWindowPolicy){};

TEST(BootWindowPolicy, HiresForWorkStillWaitingWhenNodesWouldBeReady)
{
    PolicyParams p;
    BootWindowPolicy policy(p);
    ManualClock clock(1000);
    StateBuilder b;
    b.local("n1", 4, 4).group("g", 4, 4, 1.0, 100).running(1, 4, 900, "long").pending(2, 4).pending(3, 2);
    Decision d = policy.decide(b.state, clock);
    auto hires = actions<HireNodes>(d);
    LONGS_EQUAL(1, hires.size());
    LONGS_EQUAL(2, hires[0].count); // 6 cores short on 4-core nodes
    LONGS_EQUAL(2, actions<RouteToCloud>(d).size());

    // A second shortage within one boot time waits; one boot time on, it is hired for.
    clock.set(1099);
    CHECK(policy.decide(b.state, clock).actions.empty());
    clock.set(1100);
    CHECK(!actions<HireNodes>(policy.decide(b.state, clock)).empty());
}

TEST(BootWindowPolicy, CoversTheWholeShortageFromTheNextGroupWhenTheFirstCannotGrow)
{
    PolicyParams p;
    BootWindowPolicy policy(p);
    ManualClock clock(1000);
    StateBuilder b;
    // 12 cores short; the cheap group, which the expander prefers, may hire
    // only one probe node (its launches keep failing): the dear group hires
    // the other two in the same resize rather than one boot time later.
    b.local("n1", 4, 4).group("cheap", 4, 4, 1.0, 100).group("dear", 4, 4, 2.0, 100).running(1, 4, 900, "long");
    b.pending(2, 4).pending(3, 4).pending(4, 4);
    b.state.hire_limits["cheap"] = 1;
    Decision d = policy.decide(b.state, clock);
    auto hires = actions<HireNodes>(d);
    LONGS_EQUAL(2, hires.size());
    STRCMP_EQUAL("cheap", hires[0].group.c_str());
    LONGS_EQUAL(1, hires[0].count);
    STRCMP_EQUAL("dear", hires[1].group.c_str());
    LONGS_EQUAL(2, hires[1].count);
    auto routed = actions<RouteToCloud>(d);
    LONGS_EQUAL(3, routed.size());
    STRCMP_EQUAL("cheap", routed[0].group.c_str());
    STRCMP_EQUAL("dear", routed[2].group.c_str());
}

TEST(BootWindowPolicy, TheNextGroupHiresForWholeJobs)
{
    PolicyParams p;
    BootWindowPolicy policy(p);
    ManualClock clock(1000);
    StateBuilder b;
    // An 8-core job, and the cheap group may launch one 4-core probe node:
    // the job cannot run across two groups, so the dear group hires both
    // of its nodes, not the 4 cores the probe leaves short.
    b.local("n1", 4, 4).group("cheap", 4, 4, 1.0, 100).group("dear", 4, 4, 2.0, 100).running(1, 4, 900, "long");
    b.pending(2, 8);
    b.state.hire_limits["cheap"] = 1;
    Decision d = policy.decide(b.state, clock);
    auto hires = actions<HireNodes>(d);
    LONGS_EQUAL(2, hires.size());
    STRCMP_EQUAL("dear", hires[1].group.c_str());
    LONGS_EQUAL(2, hires[1].count);
    auto routed = actions<RouteToCloud>(d);
    LONGS_EQUAL(1, routed.size());
    STRCMP_EQUAL("dear", routed[0].group.c_str());
}

TEST(BootWindowPolicy, DoesNotHireWhenLearnedRuntimesFreeCoresInTime)
{
    PolicyParams p;
    BootWindowPolicy policy(p);
    policy.observe(finished("short", 50));
    ManualClock clock(1000);
    StateBuilder b;
    // Started 10 s ago, runs ~50 s: its 4 cores are free long before a boot (100 s).
    b.local("n1", 4, 4).group("g", 4, 4, 1.0, 100).running(1, 4, 990, "short").pending(2, 4, BurstOption::Allow,
                                                                                        "short");
    CHECK(actions<HireNodes>(policy.decide(b.state, clock)).empty());
}

TEST(BootWindowPolicy, FallsBackToTheTimeLimit)
{
    PolicyParams p;
    BootWindowPolicy policy(p);
    ManualClock clock(1000);
    StateBuilder b;
    b.local("n1", 4, 4).group("g", 4, 4, 1.0, 100).running(1, 4, 980, "unseen", 60).pending(2, 4);
    CHECK(actions<HireNodes>(policy.decide(b.state, clock)).empty());
}

TEST(BootWindowPolicy, JobsOnDrainingNodesReleaseNothing)
{
    // g-1 drains; its job ends in 40 s, within the 100-s window, but the
    // node powers down then: the waiting job is still short at ready time.
    PolicyParams p;
    BootWindowPolicy policy(p);
    policy.observe(finished("short", 50));
    policy.observe(finished("long", 10000));
    ManualClock clock(1000);
    StateBuilder b;
    b.local("n1", 4, 4).group("g", 4, 4, 1.0, 100).up("g-1", 4).running(1, 4, 900, "long");
    b.running(2, 4, 990, "short");
    b.state.snapshot.jobs.back().nodes = {"g-1"};
    b.node("g-1").flags |= kNodeDrain;
    b.pending(3, 4, BurstOption::Allow, "short");
    auto hires = actions<HireNodes>(policy.decide(b.state, clock));
    LONGS_EQUAL(1, hires.size());
    LONGS_EQUAL(1, hires[0].count);
}

TEST(BootWindowPolicy, NodesBusyPastTheWindowDrainFirstAtNoCost)
{
    // 2 cores spare at ready time (g-1's 4 free, a waiting 2-core job takes
    // 2).  g-2 is busy past the window: draining it costs the estimate
    // nothing (it powers down when its job ends), so it drains; idle g-1
    // would cost its 4 free cores, more than are spare, and stays.
    PolicyParams p;
    BootWindowPolicy policy(p);
    policy.observe(finished("long", 10000));
    ManualClock clock(1000);
    StateBuilder b;
    b.local("n1", 4, 4).group("g", 4, 2, 1.0, 100).up("g-1").up("g-2", 4).running(1, 4, 900, "long");
    b.running(2, 4, 900, "long");
    b.state.snapshot.jobs.back().nodes = {"g-2"};
    b.state.snapshot.jobs.back().partitions = {"g"};
    b.pending(3, 2);
    auto releases = actions<ReleaseNodes>(policy.decide(b.state, clock));
    LONGS_EQUAL(1, releases.size());
    LONGS_EQUAL(1, releases[0].nodes.size());
    STRCMP_EQUAL("g-2", releases[0].nodes[0].c_str());
}

TEST(BootWindowPolicy, DrainsCloudNodesWhenCoresStaySpare)
{
    PolicyParams p;
    BootWindowPolicy policy(p);
    ManualClock clock(1000);
    StateBuilder b;
    // 4 local + 6 cloud cores free and nothing waiting: both nodes are
    // surplus; the busy one drains (its work finishes, then it powers down).
    b.local("n1", 4, 0).group("g", 4, 2, 1.0, 100).up("g-1").up("g-2", 2);
    auto releases = actions<ReleaseNodes>(policy.decide(b.state, clock));
    LONGS_EQUAL(1, releases.size());
    CHECK(releases[0].drain_first);
    LONGS_EQUAL(2, releases[0].nodes.size());
    STRCMP_EQUAL("g-1", releases[0].nodes[0].c_str());
}

TEST(BootWindowPolicy, KeepsNodesSpareCoresAreNeededFor)
{
    PolicyParams p;
    BootWindowPolicy policy(p);
    ManualClock clock(1000);
    StateBuilder b;
    // Only 2 cores would be spare at ready time: no 4-core node may go.
    b.local("n1", 4, 2).group("g", 4, 1, 1.0, 100).up("g-1").pending(2, 4);
    Decision d = policy.decide(b.state, clock);
    CHECK(actions<ReleaseNodes>(d).empty());
}

TEST(BootWindowPolicy, WaitingJobsUseFreeCloudCoresWithoutAResize)
{
    PolicyParams p;
    BootWindowPolicy policy(p);
    ManualClock clock(1000);
    StateBuilder b;
    // Local cores are busy for long; an up node has 4 free cores: the first
    // waiting job goes there now, the second (no room left) is hired for.
    b.local("n1", 4, 4).group("g", 4, 2, 1.0, 100).up("g-1").running(1, 4, 900, "long").pending(2, 4).pending(3,
                                                                                                             4);
    Decision d = policy.decide(b.state, clock);
    auto routes = actions<RouteToCloud>(d);
    LONGS_EQUAL(2, routes.size());
    LONGS_EQUAL(2, routes[0].job);
    LONGS_EQUAL(1, actions<HireNodes>(d).size());
    // Within one boot time nothing is resized, but a node that came up is used.
    b.node("g-1").alloc_cpus = 4;
    b.up("g-2");
    b.state.snapshot.jobs.resize(1); // the running job
    b.pending(4, 4);
    clock.set(1010);
    Decision later = policy.decide(b.state, clock);
    LONGS_EQUAL(1, actions<RouteToCloud>(later).size());
    CHECK(actions<HireNodes>(later).empty());
}

TEST(BootWindowPolicy, NeverHiresForJobsThatMayNotBurst)
{
    PolicyParams p;
    BootWindowPolicy policy(p);
    ManualClock clock(1000);
    StateBuilder b;
    b.local("n1", 4, 4).group("g", 4, 4, 1.0, 100).running(1, 4, 900).pending(2, 4, BurstOption::Never);
    CHECK(actions<HireNodes>(policy.decide(b.state, clock)).empty());
}

namespace {

Decision six_cores_short(const char* lambda, Seconds measured_boot = 0)
{
    PolicyParams p;
    if (lambda)
        p.set("lambda", lambda);
    BootWindowPolicy policy(p);
    ManualClock clock(1000);
    StateBuilder b;
    // 6 cores short at ready time on 4-core nodes at 1.0/h, 100 s boot.
    // The local cores come back in 1000 s (the running job's limit; no
    // runtimes learned yet): job 2 (4 cores, 1 h) starts then, job 3
    // (2 cores, 1 h) after it, in 4600 s.  Job 2 saves λ · 4 · 900 / 3600
    // for a whole node, (100 + 3600) / 3600 ≈ 1.028: worth it from λ ≈ 1.03.
    // Job 3 saves λ · 2 · 4500 / 3600 = 2.5 λ for half a node, and alone on
    // its node must pay all of it: worth a node from λ ≈ 0.41.
    b.local("n1", 4, 4).group("g", 4, 4, 1.0, 100).running(1, 4, 900, "long", 1100);
    b.pending(2, 4, BurstOption::Allow, "c", 3600).pending(3, 2, BurstOption::Allow, "c", 3600);
    if (measured_boot > 0)
        b.booted_once("g", measured_boot);
    return policy.decide(b.state, clock);
}

} // namespace

TEST(BootWindowPolicy, LambdaGatesEachNodeOnTheShortJobsExpectedLocalWait)
{
    auto ungated = actions<HireNodes>(six_cores_short(nullptr));
    LONGS_EQUAL(2, ungated[0].count);

    Decision high = six_cores_short("1.1");
    LONGS_EQUAL(2, actions<HireNodes>(high)[0].count);
    LONGS_EQUAL(2, actions<RouteToCloud>(high).size());

    Decision mid = six_cores_short("0.5");
    LONGS_EQUAL(1, actions<HireNodes>(mid)[0].count);
    LONGS_EQUAL(1, actions<RouteToCloud>(mid).size()); // Slurm gives the node to the first that fits: job 2

    Decision low = six_cores_short("0.4");
    CHECK(low.actions.empty());

    // Nodes measured to boot in 900 s: a node costs (900 + 3600) / 3600 =
    // 1.25; job 2 saves 1.1 · 4 · 100 / 3600 ≈ 0.12, job 3 alone
    // 1.1 · 2 · 3700 / 3600 ≈ 2.26.
    Decision slow = six_cores_short("1.1", 900);
    LONGS_EQUAL(1, actions<HireNodes>(slow)[0].count);
}

namespace {

Instance instance(const std::string& node, InstanceState state, Time requested, Time running = 0)
{
    Instance i;
    i.node = node;
    i.node_group = "g";
    i.state = state;
    i.requested_at = requested;
    i.running_since = running;
    return i;
}

} // namespace

TEST(BootWindowPolicy, RemembersTheMeasuredBootTimeAfterTheNodesClose)
{
    PolicyParams p;
    BootWindowPolicy policy(p);
    ManualClock clock(1000);
    StateBuilder b;
    // Configured 300 s; the group's node booted in 100 s and is busy.
    b.local("n1", 4, 4).group("g", 4, 2, 1.0, 300).up("g-1", 4);
    b.state.instances = {instance("g-1", InstanceState::Running, 800, 900)};
    b.state.boots = {NodeBoot{"g", 800, 900}};
    CHECK(policy.decide(b.state, clock).actions.empty());

    // Every cloud node is down when work arrives: the scale-up from zero
    // still plans for, and waits, the measured boot time (the ledger keeps
    // the boot of the closed instance).
    b.node("g-1").flags = kNodeCloud | kNodePoweredDown;
    b.node("g-1").alloc_cpus = 0;
    b.state.instances.clear();
    b.pending(2, 4);
    clock.set(5000);
    Decision d = policy.decide(b.state, clock);
    LONGS_EQUAL(1, actions<HireNodes>(d).size());
    // The next resize is one measured boot time on, not the configured 300 s.
    clock.set(5100);
    LONGS_EQUAL(1, actions<HireNodes>(policy.decide(b.state, clock)).size());
}

TEST(BootWindowPolicy, BootingNodesAreReadyAfterTheMeasuredBootTime)
{
    PolicyParams p;
    BootWindowPolicy policy(p);
    ManualClock clock(1000);
    StateBuilder b;
    // Configured 300 s, measured 100 s (g-1).  g-2 was requested 50 s ago:
    // it is ready in 50 s, within the 100-s window, and takes the waiting
    // job; at the configured boot time it would land past the window and
    // the job would be hired for twice.
    b.local("n1", 4, 4).group("g", 4, 3, 1.0, 300).up("g-1", 4).pending(2, 4);
    b.node("g-2").flags = kNodeCloud | kNodePoweringUp;
    b.state.instances = {instance("g-1", InstanceState::Running, 800, 900),
                         instance("g-2", InstanceState::Launching, 950)};
    Decision d = policy.decide(b.state, clock);
    CHECK(actions<HireNodes>(d).empty());
}

// Asked on a quiet site (nothing waits, no cloud node on), it has nothing
// to say, even within a boot time of its last resize: the decision cycle
// does not ask it there (Policy::wants_decision), and this is why nothing
// is lost.
TEST(BootWindowPolicy, DecidesNothingOnAQuietSite)
{
    PolicyParams p;
    BootWindowPolicy policy(p);
    ManualClock clock(1000);
    StateBuilder b;
    b.local("n1", 4, 4).group("g", 4, 4, 1.0, 100).running(1, 4, 900, "long").pending(2, 4);
    CHECK(!actions<HireNodes>(policy.decide(b.state, clock)).empty());
    StateBuilder quiet;
    quiet.local("n1", 4, 1).group("g", 4, 4, 1.0, 100).running(1, 1, 900, "long");
    CHECK_FALSE(policy.wants_decision(SiteActivity(quiet.state)));
    clock.set(1050); // within a boot time of the resize
    const Decision d = policy.decide(quiet.state, clock);
    CHECK(d.actions.empty());
    CHECK(d.notes.empty());
    CHECK(d.verdicts.empty());
}
