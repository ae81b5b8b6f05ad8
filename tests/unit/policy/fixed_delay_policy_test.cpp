#include "policy/fixed_delay_policy.hpp"

#include "policy_test_state.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

namespace {

std::vector<JobId> routed(const Decision& d)
{
    std::vector<JobId> out;
    for (const auto& a : d.actions)
        if (auto r = std::get_if<RouteToCloud>(&a.what))
            out.push_back(r->job);
    return out;
}

} // namespace

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
    auto r = routed(policy.decide(b.state, clock));
    LONGS_EQUAL(1, r.size());
    LONGS_EQUAL(1, r[0]);
    clock.set(900);
    LONGS_EQUAL(2, routed(policy.decide(b.state, clock)).size());
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
    auto r = routed(policy.decide(b.state, clock));
    LONGS_EQUAL(1, r.size());
    LONGS_EQUAL(2, r[0]);
}
