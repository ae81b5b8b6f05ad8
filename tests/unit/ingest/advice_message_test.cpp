#include "ingest/advice_message.hpp"

#include <stdexcept>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(AdviceMessage){};

TEST(AdviceMessage, SerializesOneCompactLine)
{
    std::string line = serialize_advice("lab", 3, 1700000000, {{"bio/align", 8}, {"chem", 1}});
    STRCMP_EQUAL(R"({"v":1,"type":"advice","cluster":"lab","seq":3,"time":1700000000,"threads":{"bio/align":8,"chem":1}})"
                 "\n",
                 line.c_str());
}

TEST(AdviceMessage, RefusesThreadCountsThePluginWouldReject)
{
    CHECK_THROWS(std::invalid_argument, serialize_advice("lab", 1, 0, {{"c", 0}}));
    CHECK_THROWS(std::invalid_argument, serialize_advice("lab", 1, 0, {{"c", 1025}}));
    CHECK_THROWS(std::invalid_argument, serialize_advice("lab", 1, 0, {{"\xff", 2}}));
}
