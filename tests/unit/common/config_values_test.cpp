#include "common/config_values.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(ConfigValues){};

TEST(ConfigValues, Numbers)
{
    DOUBLES_EQUAL(0.34, *parse_non_negative_number("0.34"), 1e-12);
    DOUBLES_EQUAL(0.5, *parse_non_negative_number(".5"), 1e-12);
    CHECK_FALSE(parse_non_negative_number("-1"));
    CHECK_FALSE(parse_non_negative_number("1x"));
    CHECK_FALSE(parse_non_negative_number(""));
    CHECK_FALSE(parse_non_negative_number("inf"));
    CHECK_FALSE(parse_non_negative_number(" 1"));
    LONGS_EQUAL(65535, *parse_unsigned("65535", 65535));
    CHECK_FALSE(parse_unsigned("65536", 65535));
    CHECK_FALSE(parse_unsigned("+1", 10));
    CHECK_FALSE(parse_unsigned("99999999999999999999", UINT64_MAX));
}

TEST(ConfigValues, Durations)
{
    DOUBLES_EQUAL(90, *parse_duration("90"), 0);
    DOUBLES_EQUAL(90, *parse_duration("90s"), 0);
    DOUBLES_EQUAL(300, *parse_duration("5m"), 0);
    DOUBLES_EQUAL(5400, *parse_duration("1.5h"), 0);
    DOUBLES_EQUAL(86400, *parse_duration("Day"), 0);
    DOUBLES_EQUAL(14 * 86400, *parse_duration("2w"), 0);
    CHECK_FALSE(parse_duration("h"));
    CHECK_FALSE(parse_duration("5x"));
    CHECK_FALSE(parse_duration("-5s"));
    CHECK_FALSE(parse_duration(""));
}

TEST(ConfigValues, BoolsAndLists)
{
    CHECK_TRUE(*parse_bool("YES"));
    CHECK_FALSE(*parse_bool("off"));
    CHECK_FALSE(parse_bool("maybe"));
    CHECK(*parse_list("a,b") == (std::vector<std::string>{"a", "b"}));
    CHECK_FALSE(parse_list("a,,b"));
    CHECK_FALSE(parse_list(""));
}

TEST(ConfigValues, ClosestMatchOnlySuggestsNearMisses)
{
    std::vector<std::string> keys{"PricePerHour", "BootTime", "Cpus"};
    STRCMP_EQUAL("PricePerHour", closest_match("priceperhr", keys).c_str());
    STRCMP_EQUAL("Cpus", closest_match("CPU", keys).c_str());
    STRCMP_EQUAL("", closest_match("Frobnicate", keys).c_str());
}
