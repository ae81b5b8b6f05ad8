#include "policy/policy_params.hpp"

#include <map>
#include <string>

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

TEST(PolicyParams, KeysAreCaseInsensitiveAndDurationsTakeUnits)
{
    PolicyParams p(std::map<std::string, std::string>{{"Target_Utilization", "0.5"}});
    p.set("STABILIZATION=5m");
    p.set("Window", "2h");
    p.set("plain=90");
    DOUBLES_EQUAL(0.5, p.get_double("target_utilization", 0.8, 0, 1), 0);
    DOUBLES_EQUAL(300, p.get_duration("stabilization", 60, 0, 86400), 0);
    DOUBLES_EQUAL(7200, p.get_duration("window", 60, 0, 86400), 0);
    DOUBLES_EQUAL(90, p.get_duration("plain", 60, 0, 86400), 0);
    DOUBLES_EQUAL(60, p.get_duration("absent", 60, 0, 86400), 0);
    p.reject_unread("x");

    PolicyParams bad;
    bad.set("a=5x");
    bad.set("b=m");
    bad.set("c=2d");
    CHECK_THROWS(PolicyConfigError, bad.get_duration("a", 1, 0, 1e9));
    CHECK_THROWS(PolicyConfigError, bad.get_duration("b", 1, 0, 1e9));
    CHECK_THROWS(PolicyConfigError, bad.get_duration("c", 1, 0, 86400)); // 172800 s is out of range
}
