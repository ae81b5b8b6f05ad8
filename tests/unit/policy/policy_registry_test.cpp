#include "policy/policy_registry.hpp"

#include "common/text.hpp"
#include "policy/expander/expander.hpp"

#include <set>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(PolicyRegistry){};

TEST(PolicyRegistry, BuildsEveryKnownPolicyUnderItsName)
{
    for (const auto& name : policy_names()) {
        auto p = make_policy(name, PolicyParams{});
        STRCMP_EQUAL(name.c_str(), std::string(p->name()).c_str());
    }
}

TEST(PolicyRegistry, RejectsUnknownNamesListingTheKnownOnes)
{
    try {
        make_policy("magic", PolicyParams{});
        FAIL("unknown policy accepted");
    } catch (const PolicyConfigError& e) {
        STRCMP_CONTAINS("known: never, always, threshold, boot-window, predictive, fixed-delay, pfa", e.what());
    }
}

TEST(PolicyRegistry, RejectsParametersThePolicyDoesNotHave)
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
TEST(PolicyRegistry, RejectsParametersTheChosenModeIgnores)
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

TEST(PolicyRegistry, EveryHiringPolicyTakesAnExpander)
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

TEST(PolicyRegistry, TellsWhichPoliciesOptimizeForALambda)
{
    CHECK(policy_has_parameter("predictive", "lambda"));
    CHECK(!policy_has_parameter("always", "lambda"));
    CHECK_THROWS(PolicyConfigError, policy_has_parameter("magic", "lambda"));
}

TEST(PolicyRegistry, TellsWhichPoliciesUseLambdaOnlyAsAnOptionalGate)
{
    CHECK(policy_has_parameter("threshold", "lambda"));
    CHECK(policy_lambda_is_gate("threshold"));
    CHECK(policy_lambda_is_gate("boot-window"));
    CHECK(policy_lambda_is_gate("pfa"));
    CHECK(!policy_lambda_is_gate("forecast"));
    CHECK(!policy_lambda_is_gate("predictive"));
    CHECK(!policy_lambda_is_gate("always"));
}

// The table's parameter list is what --list-policies and the manual pages
// show: it must be exactly what each policy reads.
TEST(PolicyRegistry, DeclaresExactlyTheParametersEachPolicyReads)
{
    for (const auto& type : policy_registry().entries()) {
        const std::string name(type.name);
        std::set<std::string> declared;
        for (const auto& p : type.parameters)
            declared.insert(std::string(p.key));
        // The error for an unknown key lists every key the policy read.
        PolicyParams probe;
        probe.set("no_such_key=1");
        std::string known;
        try {
            make_policy(name, probe);
        } catch (const PolicyConfigError& e) {
            const std::string what = e.what();
            known = what.substr(what.find("(known: ") + 8);
            known.pop_back();
        }
        if (known != "none")
            for (const auto& key : split(known, ','))
                CHECK_TEXT(declared.count(std::string(key.substr(key.front() == ' ' ? 1 : 0))),
                           (name + " reads" + std::string(key) + ", which its registry entry does not list").c_str());
        for (const auto& p : type.parameters) {
            PolicyParams with;
            if (!p.only_with.empty())
                with.set(std::string(p.only_with));
            type.build(with);
            CHECK_TEXT(with.was_read(std::string(p.key)),
                       (name + " lists " + std::string(p.key) + " but does not read it" +
                        (p.only_with.empty() ? "" : " with " + std::string(p.only_with)))
                           .c_str());
        }
    }
}

TEST(PolicyRegistry, ListsEveryPolicyWithItsParametersAndTheExpanders)
{
    const std::string listing = policy_listing();
    for (const auto& type : policy_registry().entries()) {
        STRCMP_CONTAINS(("  " + std::string(type.name) + ": " + std::string(type.description)).c_str(),
                        listing.c_str());
        for (const auto& p : type.parameters)
            STRCMP_CONTAINS(("      " + std::string(p.key) + " (").c_str(), listing.c_str());
    }
    for (const auto& name : expander_names())
        STRCMP_CONTAINS(("  " + name + ": ").c_str(), listing.c_str());
}

TEST(PolicyRegistry, SuggestsTheNameAMisspellingMeant)
{
    try {
        make_policy("boot_window", PolicyParams{});
        FAIL("misspelled policy accepted");
    } catch (const PolicyConfigError& e) {
        STRCMP_CONTAINS("unknown policy 'boot_window' (did you mean boot-window?)", e.what());
    }
}
