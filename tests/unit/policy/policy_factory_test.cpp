#include "policy/policy_factory.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(PolicyFactory){};

TEST(PolicyFactory, BuildsEveryKnownPolicyUnderItsName)
{
    for (const auto& name : policy_names()) {
        auto p = make_policy(name, PolicyParams{});
        STRCMP_EQUAL(name.c_str(), std::string(p->name()).c_str());
    }
}

TEST(PolicyFactory, RejectsUnknownNamesListingTheKnownOnes)
{
    try {
        make_policy("magic", PolicyParams{});
        FAIL("unknown policy accepted");
    } catch (const PolicyConfigError& e) {
        STRCMP_CONTAINS("known: never, always, threshold, boot-window, predictive, fixed-delay, pfa", e.what());
    }
}

TEST(PolicyFactory, RejectsParametersThePolicyDoesNotHave)
{
    PolicyParams p;
    p.set("target_utilization=0.5");
    CHECK_THROWS(PolicyConfigError, make_policy("never", p));
    make_policy("threshold", p);
    PolicyParams bad_expander;
    bad_expander.set("expander=random");
    CHECK_THROWS(PolicyConfigError, make_policy("always", bad_expander));
}

// A parameter the other parameters make the policy ignore would be dropped
// without a word.
TEST(PolicyFactory, RejectsParametersTheChosenModeIgnores)
{
    auto error = [](const char* policy, std::initializer_list<const char*> assignments) -> std::string {
        PolicyParams p;
        for (const char* a : assignments)
            p.set(a);
        try {
            make_policy(policy, p);
        } catch (const PolicyConfigError& e) {
            return e.what();
        }
        return "accepted";
    };
    STRCMP_EQUAL("target_utilization applies only with metric=utilization or metric=hpa",
                 error("threshold", {"metric=queue", "target_utilization=0.5"}).c_str());
    STRCMP_EQUAL("target_queue applies only with metric=queue", error("threshold", {"target_queue=8"}).c_str());
    STRCMP_EQUAL("accepted", error("threshold", {"metric=queue", "target_queue=8"}).c_str());
    STRCMP_EQUAL("alpha applies only with smoothing=ewma", error("pfa", {"alpha=0.5"}).c_str());
    STRCMP_EQUAL("depth applies only with smoothing=ma", error("pfa", {"smoothing=ewma", "depth=5"}).c_str());
    STRCMP_EQUAL("split applies only with scope=site", error("pfa", {"scope=account", "split=equal"}).c_str());
    STRCMP_EQUAL("accepted", error("pfa", {"smoothing=ewma", "alpha=0.5", "split=equal"}).c_str());
}

TEST(PolicyFactory, EveryHiringPolicyTakesAnExpander)
{
    for (const char* policy : {"always", "threshold", "boot-window", "predictive", "fixed-delay", "pfa", "forecast"}) {
        PolicyParams least_cost;
        least_cost.set("expander=least-cost");
        make_policy(policy, least_cost);
        PolicyParams unknown;
        unknown.set("expander=random");
        try {
            make_policy(policy, unknown);
            FAIL(policy);
        } catch (const PolicyConfigError& e) {
            STRCMP_CONTAINS("expander='random': expected one of least-cost, least-waste, price, priority", e.what());
        }
    }
}

TEST(PolicyFactory, TellsWhichPoliciesOptimizeForALambda)
{
    CHECK(policy_has_parameter("predictive", "lambda"));
    CHECK(!policy_has_parameter("always", "lambda"));
    CHECK_THROWS(PolicyConfigError, policy_has_parameter("magic", "lambda"));
}

TEST(PolicyFactory, TellsWhichPoliciesUseLambdaOnlyAsAnOptionalGate)
{
    CHECK(policy_has_parameter("threshold", "lambda"));
    CHECK(policy_lambda_is_gate("threshold"));
    CHECK(policy_lambda_is_gate("boot-window"));
    CHECK(policy_lambda_is_gate("pfa"));
    CHECK(!policy_lambda_is_gate("forecast"));
    CHECK(!policy_lambda_is_gate("predictive"));
    CHECK(!policy_lambda_is_gate("always"));
}
