#include "ingest/recorded_stream.hpp"

#include "ingest/message_parser.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

ProtocolMessage message(const std::string& line)
{
    ParsedMessage parsed = parse_message(line);
    CHECK_TEXT(parsed.message.has_value(), parsed.error.c_str());
    return std::move(*parsed.message);
}

const std::string kHello = R"({"v":1,"type":"hello","cluster":"lab","seq":1,"time":1,"versions":[1,2]})";
const std::string kWhole =
    R"({"v":1,"type":"snapshot","cluster":"lab","seq":2,"time":10,"jobs":[{"id":5,"user":"u","account":"a",)"
    R"("partitions":["p"],"state":"PENDING","submit_time":1,"cpus":4}],"nodes":[],"partitions":[],"shares":[]})";

std::string delta(int seq, int base, const std::string& body)
{
    return R"({"v":2,"type":"delta","cluster":"lab","seq":)" + std::to_string(seq) + R"(,"time":)" +
           std::to_string(10 + seq) + R"(,"base":)" + std::to_string(base) + "," + body + "}";
}

} // namespace

TEST_GROUP(RecordedStream){};

TEST(RecordedStream, ReadsDeltasAsWholeStatesAndSkipsWhatBurstdWouldNotDecideOn)
{
    RecordedStream stream;
    auto hello = message(kHello);
    CHECK(stream.feed(hello) == nullptr);
    auto whole = message(kWhole);
    const Snapshot* s = stream.feed(whole);
    CHECK(s != nullptr);
    LONGS_EQUAL(1, s->jobs.size());

    auto gone = message(delta(3, 2, R"("jobs_removed":[5],"check":{"jobs":0,"nodes":0,"partitions":0,"shares":0,"job_sum":0})"));
    s = stream.feed(gone);
    CHECK(s != nullptr);
    LONGS_EQUAL(3, s->seq);
    CHECK(s->jobs.empty());

    // Message 4 was not recorded: 5 does not fit, and no state follows until a whole one.
    auto gap = message(delta(5, 4, R"("check":{"jobs":0,"nodes":0,"partitions":0,"shares":0,"job_sum":0})"));
    CHECK(stream.feed(gap) == nullptr);
    STRCMP_EQUAL("base 4 is not the state's last message 3", stream.refused().c_str());
    auto after = message(delta(6, 5, R"("check":{"jobs":0,"nodes":0,"partitions":0,"shares":0,"job_sum":0})"));
    CHECK(stream.feed(after) == nullptr);
    LONGS_EQUAL(2, stream.refused_deltas());

    // A reconnect: a hello, then a whole snapshot whose seq starts again.
    auto again = message(kHello);
    stream.feed(again);
    auto fresh = message(kWhole);
    CHECK(stream.feed(fresh) != nullptr);
    CHECK(stream.refused().empty());
}
