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
