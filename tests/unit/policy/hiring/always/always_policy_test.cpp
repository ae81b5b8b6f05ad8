#include "policy/hiring/always/always_policy.hpp"

#include "policy/policy_test_state.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::routes;
using burst::test::StateBuilder;

TEST_GROUP(AlwaysPolicy){};

TEST(AlwaysPolicy, RoutesOnlyWhatCannotStartLocallyToTheCheapestGroupWithRoom)
{
    StateBuilder b;
    b.local("n1", 8, 4).group("dear", 4, 4, 4.0).group("cheap", 4, 1, 1.0);
    b.pending(1, 4)                          // fits locally
        .pending(2, 4)                       // local now full: cheap has 4 cores
        .pending(3, 4, BurstOption::Never)   // may not burst
        .pending(4, 4);                      // cheap is full: dear
    PolicyParams p;
    AlwaysPolicy policy(p);
    ManualClock clock(100);
    auto r = routes(policy.decide(b.state, clock));
    LONGS_EQUAL(2, r.size());
    LONGS_EQUAL(2, r[0].job);
    STRCMP_EQUAL("cheap", r[0].group.c_str());
    LONGS_EQUAL(4, r[1].job);
    STRCMP_EQUAL("dear", r[1].group.c_str());
}

TEST(AlwaysPolicy, RoutesPreferringJobsEvenWithLocalRoomAndSaysWhenNothingFits)
{
    StateBuilder b;
    b.local("n1", 8, 0).group("g", 4, 1, 1.0);
    b.pending(1, 2, BurstOption::Prefer).pending(2, 64);
    b.state.snapshot.nodes[0].alloc_cpus = 8;
    PolicyParams p;
    AlwaysPolicy policy(p);
    ManualClock clock(0);
    Decision d = policy.decide(b.state, clock);
    auto r = routes(d);
    LONGS_EQUAL(1, r.size());
    LONGS_EQUAL(1, r[0].job);
    LONGS_EQUAL(1, d.notes.size());
}

TEST(AlwaysPolicy, DoesNotRouteAJobTwice)
{
    StateBuilder b;
    b.local("n1", 1, 1).group("g", 4, 2, 1.0).pending(1, 4);
    b.state.snapshot.jobs[0].partitions = {"local", "g"};
    PolicyParams p;
    AlwaysPolicy policy(p);
    ManualClock clock(0);
    CHECK(routes(policy.decide(b.state, clock)).empty());
}

TEST(AlwaysPolicy, RoutesAroundAGroupThatIsBackingOff)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("dear", 4, 4, 4.0).group("cheap", 4, 4, 1.0);
    b.pending(1, 4).pending(2, 4);
    b.state.hire_limits = {{"cheap", 0}};
    PolicyParams p;
    AlwaysPolicy policy(p);
    ManualClock clock(100);
    auto r = routes(policy.decide(b.state, clock));
    LONGS_EQUAL(2, r.size());
    STRCMP_EQUAL("dear", r[0].group.c_str());
    STRCMP_EQUAL("dear", r[1].group.c_str());
    // Half-open: the cheap group gets one node's worth, as its probe.
    b.state.hire_limits = {{"cheap", 1}};
    r = routes(policy.decide(b.state, clock));
    LONGS_EQUAL(2, r.size());
    STRCMP_EQUAL("cheap", r[0].group.c_str());
    STRCMP_EQUAL("dear", r[1].group.c_str());
}

// A held job, one whose begin time is ahead and one over its QOS's limit
// start on no node however many are hired: bursting for them only costs.
TEST(AlwaysPolicy, LeavesJobsThatNoNodeWouldStartAlone)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("g", 4, 4, 1.0);
    b.pending(1, 4).pending(2, 4).pending(3, 4).pending(4, 4);
    b.state.snapshot.jobs[0].reason = "JobHeldUser";
    b.state.snapshot.jobs[1].reason = "BeginTime";
    b.state.snapshot.jobs[2].reason = "QOSMaxJobsPerUserLimit";
    b.state.snapshot.jobs[3].reason = "Priority";
    PolicyParams p;
    AlwaysPolicy policy(p);
    ManualClock clock(100);
    auto r = routes(policy.decide(b.state, clock));
    LONGS_EQUAL(1, r.size());
    LONGS_EQUAL(4, r[0].job);
}
