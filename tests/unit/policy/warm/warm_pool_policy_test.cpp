#include "policy/policy_registry.hpp"
#include "policy/warm/warm_pool_policy.hpp"

#include "policy/policy_test_state.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::aws_site;
using burst::test::StateBuilder;

namespace {

// `count` 8-core jobs running in group aws, one per node.
void running_in_aws(StateBuilder& b, std::uint32_t count)
{
    for (std::uint32_t i = 1; i <= count; ++i) {
        b.running(100 + i, 8, 0);
        Job& job = b.state.snapshot.jobs.back();
        job.partitions = {"aws"};
        job.nodes = {"aws-" + std::to_string(i)};
        b.up("aws-" + std::to_string(i), 8);
    }
}

WarmPoolPolicy last_value(const std::string& extra = "")
{
    PolicyParams params;
    params.set("forecaster=last-value" + extra);
    return WarmPoolPolicy(params);
}

std::vector<KeepPlaceholders> keeps(const Decision& d) { return test::actions<KeepPlaceholders>(d); }

} // namespace

TEST_GROUP(WarmPoolPolicy){};

TEST(WarmPoolPolicy, KeepsThePoolAsFoundUntilItsFirstTickOfCountsCloses)
{
    WarmPoolPolicy policy = last_value();
    StateBuilder b = aws_site();
    running_in_aws(b, 2);
    Decision d = policy.decide(b.state, ManualClock(10));
    CHECK(keeps(d).empty());
    LONGS_EQUAL(1, d.notes.size());
    STRCMP_CONTAINS("no forecast before its first tick of counts closes, in 290 s", d.notes[0].c_str());
}

TEST(WarmPoolPolicy, AsksForTheForecastDemandOneBootAheadInWholeNodes)
{
    WarmPoolPolicy policy = last_value();
    StateBuilder busy = aws_site();
    running_in_aws(busy, 2);
    policy.decide(busy.state, ManualClock(10));
    policy.decide(busy.state, ManualClock(200)); // the tick's largest count is what closes
    StateBuilder quiet = aws_site();
    Decision d = policy.decide(quiet.state, ManualClock(310));
    auto k = keeps(d);
    LONGS_EQUAL(1, k.size());
    STRCMP_EQUAL("aws", k[0].group.c_str());
    LONGS_EQUAL(2, k[0].count);
    STRCMP_CONTAINS("last-value forecasts 2 node(s) of demand one boot (100 s) ahead", d.actions[0].reason.c_str());
    // The quiet tick closes: the pool follows the forecast down.
    k = keeps(policy.decide(quiet.state, ManualClock(610)));
    LONGS_EQUAL(0, k.at(0).count);
}

TEST(WarmPoolPolicy, ATickNoCycleSawRepeatsTheOneBefore)
{
    WarmPoolPolicy policy = last_value();
    StateBuilder busy = aws_site();
    running_in_aws(busy, 3);
    policy.decide(busy.state, ManualClock(10));
    // burstd heard nothing for three ticks; the first cycle after counts none.
    StateBuilder quiet = aws_site();
    LONGS_EQUAL(3, keeps(policy.decide(quiet.state, ManualClock(1000))).at(0).count);
}

TEST(WarmPoolPolicy, NeverAsksMoreThanTheGroupMayHaveUp)
{
    WarmPoolPolicy policy = last_value();
    StateBuilder b = aws_site();
    running_in_aws(b, 4);
    b.pending(1, 8, BurstOption::Allow); // waits, may burst: a fifth node's worth, beyond the group
    policy.decide(b.state, ManualClock(10));
    LONGS_EQUAL(4, keeps(policy.decide(b.state, ManualClock(310))).at(0).count);

    StateBuilder limited = aws_site();
    limited.up("aws-1", 0);
    limited.state.hire_limits["aws"] = 0; // backing off: no launches now
    WarmPoolPolicy fresh = last_value();
    StateBuilder two = aws_site();
    running_in_aws(two, 2);
    fresh.decide(two.state, ManualClock(10));
    Decision d = fresh.decide(limited.state, ManualClock(310));
    LONGS_EQUAL(1, keeps(d).at(0).count); // aws-1 is up; no more may be hired
    STRCMP_CONTAINS("the group may not hire freely now", d.actions[0].reason.c_str());
}

TEST(WarmPoolPolicy, ABadForecasterOrTickIsTheConfigurationsErrorNamingIt)
{
    PolicyParams bad_name;
    bad_name.set("forecaster=holt");
    try {
        make_policy("warm", bad_name);
        FAIL("expected an error");
    } catch (const PolicyConfigError& e) {
        STRCMP_CONTAINS("forecaster 'holt'", e.what());
    }
    PolicyParams bad_tick;
    bad_tick.set("tick=0");
    CHECK_THROWS(PolicyConfigError, make_policy("warm", bad_tick));
    PolicyParams bad_order;
    bad_order.set("order=gpus,cores");
    try {
        make_policy("warm", bad_order);
        FAIL("expected an error");
    } catch (const PolicyConfigError& e) {
        STRCMP_CONTAINS("cores", e.what());
    }
}
