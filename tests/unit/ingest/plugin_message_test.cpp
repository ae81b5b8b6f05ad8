#include "ingest/plugin_message.hpp"

#include "../../../plugin/burst_link.h"
#include "policy/threads/thread_stage.hpp"

#include <stdexcept>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(AdviceMessage){};

TEST(AdviceMessage, SerializesOneCompactLine)
{
    std::string line = serialize_advice("lab", 3, 1700000000, {{"bio/align", 8}, {"chem", 1}});
    STRCMP_EQUAL(R"({"v":1,"type":"advice","cluster":"lab","seq":3,"time":1700000000,"replace":true,"threads":{"bio/align":8,"chem":1}})"
                 "\n",
                 line.c_str());
}

TEST(AdviceMessage, RefusesThreadCountsThePluginWouldReject)
{
    CHECK_THROWS(std::invalid_argument, serialize_advice("lab", 1, 0, {{"c", 0}}));
    CHECK_THROWS(std::invalid_argument, serialize_advice("lab", 1, 0, {{"c", 1025}}));
    CHECK_THROWS(std::invalid_argument, serialize_advice("lab", 1, 0, {{"\xff", 2}}));
}

TEST(AdviceMessage, TheLargestTableBurstdSendsFitsInOneLineThePluginReads)
{
    std::map<std::string, std::uint32_t> table;
    for (std::size_t i = 0; i < ThreadStage::kMaxAdvice; ++i) {
        char category[17];
        std::snprintf(category, sizeof category, "%016zx", std::size_t(0xf000000000000000ull) + i);
        table[category] = 1024;
    }
    const std::string line = serialize_advice("a-long-cluster-name", ~std::uint64_t(0) >> 1, 4e9, table);
    CHECK(line.size() <= BURST_LINK_MAX_IN_LINE);
}
