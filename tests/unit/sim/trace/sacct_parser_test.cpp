#include "sim/trace/sacct_parser.hpp"

#include "model/slurm_duration.hpp"
#include "sim/trace/trace_loader.hpp"

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
    STRCMP_EQUAL("bio/align", j.category.text().c_str());
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

TEST(SacctParser, StopsAtAHeaderWithoutRequiredColumns)
{
    // No line can be read without the header: one error, not one per line.
    std::string error;
    try {
        parse("JobID|User\n1|u\n2|u\n");
    } catch (const TraceError& e) {
        error = e.what();
    }
    CHECK_TEXT(error.find("h.txt:1: sacct header lacks required column(s) JobIDRaw,Account,") == 0, error.c_str());
    CHECK_TEXT(error.find("; the 2 lines after it not read") != std::string::npos, error.c_str());
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
    CHECK(parse_slurm_duration("INFINITE", s)); // slurm.conf's word for it
    DOUBLES_EQUAL(0, s, 0);
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

// The header the usage line documents, without the optional columns: State
// is the last field, so a file cut inside it still has every field.
const char* const kRequiredHeader = "JobIDRaw|Account|User|Submit|Start|End|AllocCPUS|ReqCPUS|Timelimit|State\n";

TEST(SacctParser, ReportsALastLineWithoutItsNewlineAsTruncated)
{
    const std::string job = "1|a|u|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T01:00:00|1|1|02:00:00|";
    // Cut inside State: every field is there, "COMPL" is not a state.
    Trace cut = parse(std::string(kRequiredHeader) + job + "COMPLETED\n" + "2" + job.substr(1) + "COMPL");
    LONGS_EQUAL(1, cut.jobs.size());
    LONGS_EQUAL(1, cut.report.malformed);
    LONGS_EQUAL(3, cut.report.problems[0].line);
    CHECK_TEXT(cut.report.summary().find("h.txt:3: no newline at end of file: truncated?") != std::string::npos,
               cut.report.summary().c_str());
    // A complete record without the newline is not read either (documented):
    // nothing in the line tells it from one cut after a digit.
    Trace whole = parse(std::string(kRequiredHeader) + job + "COMPLETED");
    LONGS_EQUAL(0, whole.jobs.size());
    LONGS_EQUAL(1, whole.report.malformed);
    LONGS_EQUAL(2, whole.report.problems[0].line);
    // Trailing blanks after the last newline cut nothing.
    Trace blank = parse(std::string(kRequiredHeader) + job + "COMPLETED\n  ");
    LONGS_EQUAL(1, blank.jobs.size());
    LONGS_EQUAL(0, blank.report.problem_count());
}

TEST(SacctParser, AcceptsOnlySlurmJobStates)
{
    const std::string job = "|a|u|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T01:00:00|1|1|02:00:00|";
    std::string text = kRequiredHeader;
    int id = 0;
    for (const char* state :
         {"BOOT_FAIL", "CANCELLED", "CANCELLED by 1000", "COMPLETED", "DEADLINE", "FAILED", "NODE_FAIL",
          "OUT_OF_MEMORY", "PENDING", "PREEMPTED", "RUNNING", "REQUEUED", "RESIZING", "REVOKED", "SUSPENDED",
          "TIMEOUT"})
        text += std::to_string(++id) + job + state + "\n";
    Trace good = parse(text);
    LONGS_EQUAL(0, good.report.malformed);
    LONGS_EQUAL(id, good.jobs.size() + good.report.unusable);

    Trace bad = parse(std::string(kRequiredHeader) + "1" + job + "COMPL\n" + "2" + job + "CANCELLED by\n" + "3" +
                      job + "CANCELLED by me\n" + "4" + job + "completed\n" + "5" + job + "\n");
    LONGS_EQUAL(0, bad.jobs.size());
    LONGS_EQUAL(5, bad.report.malformed);
    LONGS_EQUAL(2, bad.report.problems[0].line);
    CHECK_TEXT(bad.report.problems[0].message.find("State: 'COMPL' is not a Slurm job state") != std::string::npos,
               bad.report.problems[0].message.c_str());
    LONGS_EQUAL(6, bad.report.problems[4].line);
}

TEST(SacctParser, RejectsImpossibleCalendarDates)
{
    Time t = 0;
    CHECK_FALSE(parse_slurm_timestamp("2024-02-31T00:01:00", t));
    CHECK_FALSE(parse_slurm_timestamp("2023-02-29T00:00:00", t));
    CHECK_FALSE(parse_slurm_timestamp("2100-02-29T00:00:00", t));
    CHECK_FALSE(parse_slurm_timestamp("2024-04-31T00:00:00", t));
    CHECK(parse_slurm_timestamp("2024-02-29T00:00:00", t));
    CHECK(parse_slurm_timestamp("2000-02-29T00:00:00", t));
    DOUBLES_EQUAL(951782400, t, 0);
    CHECK(parse_slurm_timestamp("2024-12-31T23:59:59", t));

    Trace trace = parse(std::string(kRequiredHeader) +
                        "1|a|u|2024-02-31T00:01:00|2024-03-02T00:01:00|2024-03-02T01:01:00|1|1|02:00:00|COMPLETED\n");
    LONGS_EQUAL(0, trace.jobs.size());
    LONGS_EQUAL(1, trace.report.malformed);
    const std::string summary = trace.report.summary();
    CHECK_TEXT(summary.find("h.txt:2: Submit: expected YYYY-MM-DDTHH:MM:SS, got '2024-02-31T00:01:00'") !=
                   std::string::npos,
               summary.c_str());
}

TEST(SacctParser, RejectsATimelimitThatOverflowsOrExceedsSlurms)
{
    Seconds s = -1;
    CHECK_FALSE(parse_slurm_duration("5124095576030432:00:00", s)); // hours × 3600 wraps a uint64
    CHECK_FALSE(parse_slurm_duration("213503982334602-00:00:00", s)); // days × 86400 wraps
    CHECK_FALSE(parse_slurm_duration("1-5124095576030432", s));
    CHECK_FALSE(parse_slurm_duration("307445734561825861", s)); // minutes × 60 wraps
    CHECK_FALSE(parse_slurm_duration("18446744073709551615:00", s));
    // Slurm keeps a limit as a 32-bit count of minutes (the two highest
    // values mean UNLIMITED and Partition_Limit).
    CHECK(parse_slurm_duration("2982616-04:13:00", s));
    DOUBLES_EQUAL(4294967293.0 * 60, s, 0);
    CHECK_FALSE(parse_slurm_duration("2982616-04:14:00", s));

    Trace t = parse(std::string(kRequiredHeader) +
                    "1|a|u|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T01:00:00|1|1|5124095576030432:00:00|"
                    "COMPLETED\n");
    LONGS_EQUAL(0, t.jobs.size());
    LONGS_EQUAL(1, t.report.malformed);
    LONGS_EQUAL(2, t.report.problems[0].line);
    CHECK_TEXT(t.report.problems[0].message.find("Timelimit") != std::string::npos,
               t.report.problems[0].message.c_str());
}

TEST(SacctParser, RejectsAStepOfANonNumericJobId)
{
    const std::string rest =
        "|a|u|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T01:00:00|1|1|02:00:00|COMPLETED\n";
    Trace t = parse(std::string(kRequiredHeader) + "12" + rest + "12.batch" + rest + "12x.batch" + rest + ".0" + rest);
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(1, t.report.skipped_steps);
    LONGS_EQUAL(2, t.report.malformed);
    LONGS_EQUAL(4, t.report.problems[0].line);
    CHECK_TEXT(t.report.problems[0].message.find("JobIDRaw: expected a positive integer or a step of one, got "
                                                 "'12x.batch'") != std::string::npos,
               t.report.problems[0].message.c_str());
}

TEST(SacctParser, SaysAJobThatStartedButHadNotEndedHadNotEnded)
{
    Trace t = parse(std::string(kRequiredHeader) +
                    "1|a|u|2024-01-01T00:00:00|2024-01-01T00:00:10|Unknown|1|1|02:00:00|NODE_FAIL\n"
                    "2|a|u|2024-01-01T00:00:00|Unknown|Unknown|1|1|02:00:00|NODE_FAIL\n");
    LONGS_EQUAL(2, t.report.unusable);
    CHECK_TEXT(t.report.problems[0].message == "job 1 (NODE_FAIL) had not ended when sacct ran",
               t.report.problems[0].message.c_str());
    CHECK_TEXT(t.report.problems[1].message == "job 2 (NODE_FAIL) never ran", t.report.problems[1].message.c_str());
}

TEST(SacctParser, AJobIsReleasedWhenItBecameEligibleAndKeepsItsSubmission)
{
    TimeZone utc("UTC");
    // 102 waited for 101 (afterok): both submitted at 10:00, 102 eligible
    // when 101 ended at 11:00.  103 has Eligible Unknown: at Submit.
    Trace t = parse("JobIDRaw|Account|User|Submit|Eligible|Start|End|AllocCPUS|ReqCPUS|Timelimit|State\n"
                    "101|bio|a|2024-01-01T10:00:00|2024-01-01T10:00:00|2024-01-01T10:00:00|2024-01-01T11:00:00|"
                    "8|8|UNLIMITED|COMPLETED\n"
                    "102|bio|a|2024-01-01T10:00:00|2024-01-01T11:00:00|2024-01-01T11:00:05|2024-01-01T12:00:00|"
                    "8|8|UNLIMITED|COMPLETED\n"
                    "103|bio|a|2024-01-01T10:00:00|Unknown|2024-01-01T10:30:00|2024-01-01T10:40:00|"
                    "1|1|UNLIMITED|COMPLETED\n"
                    "104|bio|a|2024-01-01T10:00:00|2024-01-01T13:00:00|2024-01-01T12:00:00|2024-01-01T12:10:00|"
                    "1|1|UNLIMITED|COMPLETED\n"
                    "105|bio|a|2024-01-01T10:00:00|soon|2024-01-01T12:00:00|2024-01-01T12:10:00|"
                    "1|1|UNLIMITED|COMPLETED\n");
    LONGS_EQUAL(3, t.jobs.size());
    DOUBLES_EQUAL(1704103200, t.jobs[0].submit, 0); // 10:00
    CHECK_FALSE(t.jobs[0].eligible);                // Eligible = Submit
    DOUBLES_EQUAL(1704103200, t.jobs[1].submit, 0);
    DOUBLES_EQUAL(1704103200 + 3600, t.jobs[1].release(), 0); // 11:00
    DOUBLES_EQUAL(3595, t.jobs[1].runtime, 0);
    DOUBLES_EQUAL(1704103200, t.jobs[2].release(), 0);
    LONGS_EQUAL(2, t.report.malformed);
    CHECK(t.report.problems[0].message.find("Submit <= Eligible <= Start") != std::string::npos);
    LONGS_EQUAL(5, t.report.problems[0].line); // job 104
    CHECK(t.report.problems[1].message.find("Eligible: expected") != std::string::npos);
}
