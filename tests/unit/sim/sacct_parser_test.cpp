#include "sim/sacct_parser.hpp"

#include <cstdlib>
#include <ctime>
#include <optional>
#include <sstream>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

Trace parse(const std::string& text)
{
    std::istringstream in(text);
    return parse_sacct(in, "h.txt");
}

const char* const kHeader = "JobIDRaw|Account|User|Submit|Start|End|AllocCPUS|ReqCPUS|Timelimit|State|JobName\n";

// sacct prints local time: each test names its zone and gets the old one back.
class TimeZone {
public:
    explicit TimeZone(const char* zone)
    {
        if (const char* old = std::getenv("TZ"))
            old_ = old;
        set(zone);
    }
    ~TimeZone() { set(old_ ? old_->c_str() : nullptr); }
    TimeZone(const TimeZone&) = delete;
    TimeZone& operator=(const TimeZone&) = delete;

private:
    static void set(const char* zone)
    {
        if (zone)
            setenv("TZ", zone, 1);
        else
            unsetenv("TZ");
        tzset();
    }
    std::optional<std::string> old_;
};

} // namespace

TEST_GROUP(SacctParser)
{
    std::optional<TimeZone> zone;
    void setup() override { zone.emplace("UTC0"); }
    void teardown() override { zone.reset(); }
};

TEST(SacctParser, ReadsJobsAndSkipsSteps)
{
    Trace t = parse(std::string(kHeader) +
                    "101|bio|alice|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T01:01:00|8|8|02:00:00|"
                    "COMPLETED|align\n"
                    "101.batch|bio|alice|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T01:01:00|8|8||"
                    "COMPLETED|batch\n");
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(1, t.report.skipped_steps);
    const TraceJob& j = t.jobs[0];
    LONGS_EQUAL(101, j.id);
    DOUBLES_EQUAL(1704067200, j.submit, 0);
    DOUBLES_EQUAL(3600, j.runtime, 0);
    DOUBLES_EQUAL(7200, j.time_limit, 0);
    LONGS_EQUAL(8, j.cpus);
    STRCMP_EQUAL("bio/align", j.category.c_str());
    LONGS_EQUAL(0, t.report.problem_count());
}

TEST(SacctParser, NamesAnEmptyUserUnknownAndAnEmptyAccountAfterTheUser)
{
    // An empty user would look like an account in the fair-share snapshot.
    Trace t = parse(std::string(kHeader) +
                    "1|bio||2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T01:01:00|8|8|02:00:00|COMPLETED|a\n"
                    "2|||2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T01:01:00|8|8|02:00:00|COMPLETED|a\n");
    LONGS_EQUAL(2, t.jobs.size());
    STRCMP_EQUAL("unknown", t.jobs[0].user.c_str());
    STRCMP_EQUAL("bio", t.jobs[0].account.c_str());
    STRCMP_EQUAL("unknown", t.jobs[1].user.c_str());
    STRCMP_EQUAL("unknown", t.jobs[1].account.c_str());
}

TEST(SacctParser, AcceptsColumnsInAnyOrderAndATrailingBar)
{
    Trace t = parse("State|JobIDRaw|User|Account|ReqCPUS|AllocCPUS|Timelimit|Submit|Start|End|\n"
                    "TIMEOUT|7|bob|phys|4|0|UNLIMITED|2024-01-01T00:00:00|2024-01-01T00:00:10|"
                    "2024-01-01T00:00:20|\n");
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(4, t.jobs[0].cpus); // AllocCPUS 0: requested
    DOUBLES_EQUAL(0, t.jobs[0].time_limit, 0);
    DOUBLES_EQUAL(10, t.jobs[0].runtime, 0);
}

TEST(SacctParser, SkipsStepsWhosePartitionIsEmpty)
{
    // The documented --format ends with Partition, which Slurm leaves empty
    // for job steps: the empty last field is a field, not --parsable's bar.
    const std::string header = "JobIDRaw|Account|User|Submit|Start|End|AllocCPUS|ReqCPUS|Timelimit|State|JobName|"
                               "Partition";
    const std::string job = "1234|physics|alice|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:11:00|4|4|"
                            "01:00:00|COMPLETED|sim|batchq";
    const std::string step = "1234.batch|physics|alice|2024-01-01T00:00:00|2024-01-01T00:01:00|"
                             "2024-01-01T00:11:00|4|4||COMPLETED|batch|";
    Trace t = parse(header + "\n" + job + "\n" + step + "\n");
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(1, t.report.skipped_steps);
    LONGS_EQUAL(0, t.report.problem_count());
    STRCMP_EQUAL("batchq", t.jobs[0].partition.c_str());

    // --parsable: every line, the header too, ends with one more '|'.
    Trace p = parse(header + "|\n" + job + "|\n" + step + "|\n");
    LONGS_EQUAL(1, p.jobs.size());
    LONGS_EQUAL(1, p.report.skipped_steps);
    LONGS_EQUAL(0, p.report.problem_count());
    STRCMP_EQUAL("batchq", p.jobs[0].partition.c_str());
}

TEST(SacctParser, ReadsTimesInTheLocalZoneAcrossADstChange)
{
    TimeZone berlin("CET-1CEST,M3.5.0,M10.5.0/3");
    // Clocks went from 02:00 to 03:00 on 2024-03-31: 01:00 to 04:00 is 2 h.
    Trace t = parse(std::string(kHeader) +
                    "9|a|u|2024-03-31T00:30:00|2024-03-31T01:00:00|2024-03-31T04:00:00|1|1|UNLIMITED|COMPLETED|x\n");
    LONGS_EQUAL(1, t.jobs.size());
    DOUBLES_EQUAL(7200, t.jobs[0].runtime, 0);
    DOUBLES_EQUAL(1711841400, t.jobs[0].submit, 0); // 2024-03-30T23:30:00Z
}

TEST(SacctParser, ReadsTheRepeatedHourAsItsEarlierInstantUnlessTheOrderSaysOtherwise)
{
    TimeZone berlin("CET-1CEST,M3.5.0,M10.5.0/3");
    // Clocks went from 03:00 CEST back to 02:00 CET on 2024-10-27: 02:00 to
    // 03:00 happened twice (00:00Z to 01:00Z, then 01:00Z to 02:00Z).
    Time t = 0;
    CHECK(parse_slurm_timestamp("2024-10-27T02:30:00", t, RepeatedHour::kLater));
    DOUBLES_EQUAL(1729992600, t, 0); // 01:30Z
    // The earlier reading whatever mktime resolved last.
    CHECK(parse_slurm_timestamp("2024-10-27T02:30:00", t));
    DOUBLES_EQUAL(1729989000, t, 0); // 00:30Z
    CHECK(parse_slurm_timestamp("2024-10-27T01:30:00", t, RepeatedHour::kLater));
    DOUBLES_EQUAL(1729985400, t, 0); // not repeated: one instant
    // Start at the first 02:40, End at the second 02:20: 40 minutes, not
    // out of order; a job that fits in the first occurrence stays there.
    Trace trace = parse(std::string(kHeader) +
                        "9|a|u|2024-10-27T02:10:00|2024-10-27T02:40:00|2024-10-27T02:20:00|1|1|UNLIMITED|COMPLETED|x\n"
                        "10|a|u|2024-10-27T02:10:00|2024-10-27T02:20:00|2024-10-27T02:40:00|1|1|UNLIMITED|COMPLETED|x\n");
    LONGS_EQUAL(0, trace.report.problem_count());
    LONGS_EQUAL(2, trace.jobs.size());
    DOUBLES_EQUAL(2400, trace.jobs[0].runtime, 0);
    DOUBLES_EQUAL(1729987800, trace.jobs[0].submit, 0); // 00:10Z
    DOUBLES_EQUAL(1200, trace.jobs[1].runtime, 0);
}

TEST(SacctParser, CountsJobsThatNeverRanAndMalformedLines)
{
    Trace t = parse(std::string(kHeader) +
                    "1|a|u|2024-01-01T00:00:00|None|Unknown|0|1|01:00|CANCELLED by 0|x\n"     // line 2
                    "2|a|u|2024-01-01T00:00:00|2024-01-01T00:00:00|Unknown|1|1|01:00|RUNNING|x\n"
                    "3|a|u|yesterday|2024-01-01T00:00:00|2024-01-01T00:00:01|1|1|01:00|COMPLETED|x\n"
                    "4|a|u|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:01|1|1|soon|COMPLETED|x\n"
                    "5|a|u|2024-01-01T00:00:00\n");
    LONGS_EQUAL(0, t.jobs.size());
    LONGS_EQUAL(2, t.report.unusable);
    LONGS_EQUAL(3, t.report.malformed);
    LONGS_EQUAL(2, t.report.problems[0].line);
    LONGS_EQUAL(6, t.report.problems[4].line);
}

TEST(SacctParser, CountsAJobCancelledWhilePendingAsNeverRun)
{
    // Slurm 22.05 sets Start = End = the cancel time of a pending job.
    Trace t = parse(std::string(kHeader) +
                    "101|phys|alice|2024-01-01T10:00:10|2024-01-01T10:00:10|2024-01-01T10:00:10|0|4|01:00:00|"
                    "CANCELLED by 1000|sim\n"
                    "102|phys|alice|2024-01-01T10:00:10|2024-01-01T10:00:30|2024-01-01T10:00:40|0|4|01:00:00|"
                    "CANCELLED by 1000|sim\n"
                    "103|phys|alice|2024-01-01T10:00:10|2024-01-01T10:00:30|2024-01-01T10:00:30|0|4|01:00:00|"
                    "FAILED|sim\n"
                    // Cancelled after it started: it ran, so it is replayed.
                    "104|phys|alice|2024-01-01T10:00:10|2024-01-01T10:00:20|2024-01-01T10:00:50|4|4|01:00:00|"
                    "CANCELLED by 1000|sim\n");
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(104, t.jobs[0].id);
    LONGS_EQUAL(3, t.report.unusable);
    LONGS_EQUAL(0, t.report.malformed);
    LONGS_EQUAL(2, t.report.problems[0].line);
    CHECK_TEXT(t.report.problems[0].message.find("job 101 (CANCELLED by 1000) never ran") != std::string::npos,
               t.report.problems[0].message.c_str());
    LONGS_EQUAL(4, t.report.problems[2].line);
}

TEST(SacctParser, ReportsDuplicateIdsAndRunawayRuntimes)
{
    Trace t = parse(std::string(kHeader) +
                    "5|a|u|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|1|1|UNLIMITED|COMPLETED|x\n"
                    "5|a|u|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:02:00|1|1|UNLIMITED|COMPLETED|x\n"
                    "6|a|u|1990-01-01T00:00:00|1990-01-01T00:00:00|2024-01-01T00:00:00|1|1|UNLIMITED|COMPLETED|x\n");
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(2, t.report.malformed);
    LONGS_EQUAL(3, t.report.problems[0].line);
    CHECK(t.report.problems[0].message.find("JobIDRaw 5 already used on line 2") != std::string::npos);
    LONGS_EQUAL(4, t.report.problems[1].line);
    CHECK(t.report.problems[1].message.find("over 10 years") != std::string::npos);
}

TEST(SacctParser, RejectsAHeaderWithoutRequiredColumns)
{
    Trace t = parse("JobID|User\n1|u\n2|u\n");
    LONGS_EQUAL(0, t.jobs.size());
    LONGS_EQUAL(3, t.report.malformed);
    LONGS_EQUAL(0, t.report.comment_lines); // the bad header counts once, as malformed
    CHECK(t.report.problems[0].message.find("JobIDRaw") != std::string::npos);
}

TEST(SacctParser, ParsesEverySlurmDurationForm)
{
    Seconds s = -1;
    CHECK(parse_slurm_duration("30", s));
    DOUBLES_EQUAL(1800, s, 0);
    CHECK(parse_slurm_duration("30:15", s));
    DOUBLES_EQUAL(1815, s, 0);
    CHECK(parse_slurm_duration("1:02:03", s));
    DOUBLES_EQUAL(3723, s, 0);
    CHECK(parse_slurm_duration("2-3", s));
    DOUBLES_EQUAL(2 * 86400 + 3 * 3600, s, 0);
    CHECK(parse_slurm_duration("2-03:04", s));
    DOUBLES_EQUAL(2 * 86400 + 3 * 3600 + 240, s, 0);
    CHECK(parse_slurm_duration("1-00:00:05", s));
    DOUBLES_EQUAL(86405, s, 0);
    CHECK(parse_slurm_duration("UNLIMITED", s));
    DOUBLES_EQUAL(0, s, 0);
    CHECK_FALSE(parse_slurm_duration("1:2:3:4", s));
    CHECK_FALSE(parse_slurm_duration("", s));
    CHECK_FALSE(parse_slurm_duration("x-1", s));
}

TEST(SacctParser, ParsesTimestampsInTheZoneTzNames)
{
    Time t = 0;
    CHECK(parse_slurm_timestamp("1970-01-02T00:00:01", t));
    DOUBLES_EQUAL(86401, t, 0);
    CHECK(parse_slurm_timestamp("2000-03-01T00:00:00", t));
    DOUBLES_EQUAL(951868800, t, 0);
    CHECK_FALSE(parse_slurm_timestamp("2000-13-01T00:00:00", t));
    CHECK_FALSE(parse_slurm_timestamp("2000-01-01 00:00:00", t));
}
