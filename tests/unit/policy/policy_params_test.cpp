#include "policy/policy_params.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(PolicyParams){};

TEST(PolicyParams, ReturnsTypedValuesAndDefaults)
{
    PolicyParams p;
    p.set("target=0.5");
    p.set("depth=12");
    p.set("mode", "fast");
    DOUBLES_EQUAL(0.5, p.get_double("target", 0.8, 0, 1), 0);
    DOUBLES_EQUAL(0.8, p.get_double("absent", 0.8, 0, 1), 0);
    LONGS_EQUAL(12, p.get_uint("depth", 1, 1, 100));
    STRCMP_EQUAL("fast", p.get_choice("mode", "slow", {"slow", "fast"}).c_str());
    p.reject_unread("x");
}

TEST(PolicyParams, RejectsOutOfRangeMalformedAndUnknown)
{
    PolicyParams p;
    p.set("target=1.5");
    p.set("depth=-3");
    p.set("mode=warp");
    p.set("typo=1");
    CHECK_THROWS(PolicyConfigError, p.get_double("target", 0.8, 0, 1));
    CHECK_THROWS(PolicyConfigError, p.get_uint("depth", 1, 0, 10));
    CHECK_THROWS(PolicyConfigError, p.get_choice("mode", "slow", {"slow", "fast"}));
    try {
        p.reject_unread("demo");
        FAIL("unknown key accepted");
    } catch (const PolicyConfigError& e) {
        std::string what = e.what();
        CHECK(what.find("typo") != std::string::npos);
        CHECK(what.find("known: depth, mode, target") != std::string::npos);
    }
    CHECK_THROWS(PolicyConfigError, p.set("novalue"));
}
