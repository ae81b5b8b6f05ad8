#include "policy/hiring/fixed_delay/fixed_delay_policy.hpp"

#include "policy/policy_test_state.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::routes;
using burst::test::StateBuilder;

TEST_GROUP(FixedDelayPolicy){};

TEST(FixedDelayPolicy, RoutesOnlyJobsThatWaitedLongerThanTheDelay)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("g", 8, 4, 1.0);
    b.pending(1, 4).pending(2, 4).pending(3, 4, BurstOption::Never); // submitted at 1, 2, 3
    b.state.snapshot.jobs[1].submit_time = 500;
    PolicyParams p;
    p.set("delay", "300");
    FixedDelayPolicy policy(p);
    ManualClock clock(400);
    auto r = routes(policy.decide(b.state, clock));
    LONGS_EQUAL(1, r.size());
    LONGS_EQUAL(1, r[0].job);
    clock.set(900);
    LONGS_EQUAL(2, routes(policy.decide(b.state, clock)).size());
}

TEST(FixedDelayPolicy, KeepsJobsThatFitLocallyAndRoutesPreferringOnesAtOnce)
{
    StateBuilder b;
    b.local("n1", 8, 4).group("g", 8, 4, 1.0);
    b.pending(1, 4).pending(2, 2, BurstOption::Prefer);
    PolicyParams p;
    p.set("delay", "3600");
    FixedDelayPolicy policy(p);
    ManualClock clock(10000);
    auto r = routes(policy.decide(b.state, clock));
    LONGS_EQUAL(1, r.size());
    LONGS_EQUAL(2, r[0].job);
}
