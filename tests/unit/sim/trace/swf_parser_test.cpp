#include "sim/trace/swf_parser.hpp"

#include <cstdint>
#include <sstream>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

Trace parse(const std::string& text)
{
    std::istringstream in(text);
    return parse_swf(in, "t.swf");
}

const char* const kHeader = "; Version: 2.2\n; MaxNodes: 64\n; MaxProcs: 128\n; UnixStartTime: 1000\n";

} // namespace

TEST_GROUP(SwfParser){};

TEST(SwfParser, ReadsHeaderAndEveryFieldItUses)
{
    Trace t = parse(std::string(kHeader) +
                    "  7  10  5  300  8  -1  -1  16  3600  -1  1  12  3  4  1  2  -1  -1\n");
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(64, t.report.max_nodes);
    LONGS_EQUAL(128, t.report.max_procs);
    DOUBLES_EQUAL(1000, t.report.unix_start_time, 0);
    const TraceJob& j = t.jobs[0];
    LONGS_EQUAL(7, j.id);
    DOUBLES_EQUAL(1010, j.submit, 0);
    DOUBLES_EQUAL(300, j.runtime, 0);
    DOUBLES_EQUAL(3600, j.time_limit, 0);
    LONGS_EQUAL(8, j.cpus); // allocated wins over requested
    STRCMP_EQUAL("u12", j.user.c_str());
    STRCMP_EQUAL("g3", j.account.c_str());
    STRCMP_EQUAL("p2", j.partition.c_str());
    STRCMP_EQUAL("g3/x4", j.category.text().c_str());
    LONGS_EQUAL(4, t.report.comment_lines);
    LONGS_EQUAL(0, t.report.problem_count());
}

TEST(SwfParser, NamesJobsByExecutableElseQueueElsePartition)
{
    // LCG-2005 records only the partition (the grid site): one user's jobs
    // at different sites are different kinds of job.
    Trace t = parse("1 0 0 50 1 -1 -1 1 60 -1 1 1 3 -1 7 2 -1 -1\n"
                    "2 0 0 50 1 -1 -1 1 60 -1 1 1 3 -1 -1 2 -1 -1\n"
                    "3 0 0 50 1 -1 -1 1 60 -1 1 1 3 -1 -1 -1 -1 -1\n");
    LONGS_EQUAL(3, t.jobs.size());
    STRCMP_EQUAL("q7", t.jobs[0].name.c_str());
    STRCMP_EQUAL("p2", t.jobs[1].name.c_str());
    STRCMP_EQUAL("g3/p2", t.jobs[1].category.text().c_str());
    STRCMP_EQUAL("job", t.jobs[2].name.c_str());
}

TEST(SwfParser, FallsBackToRequestedProcessorsAndNoLimit)
{
    Trace t = parse("1 0 0 50 -1 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n");
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(4, t.jobs[0].cpus);
    DOUBLES_EQUAL(0, t.jobs[0].time_limit, 0);
    STRCMP_EQUAL("u1", t.jobs[0].account.c_str()); // no group: the user's name
    DOUBLES_EQUAL(0, t.jobs[0].submit, 0);          // relative times stay relative
}

TEST(SwfParser, CountsAndLocatesMalformedLines)
{
    Trace t = parse(std::string(kHeader) +
                    "1 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"
                    "2 5 0 50 1 -1 -1 1 60\n"                              // truncated (line 6)
                    "3 5 0 abc 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"     // not a number (7)
                    "0 5 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"      // bad job number (8)
                    "4 5 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1 9\n");  // 19 fields (9)
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(4, t.report.malformed);
    LONGS_EQUAL(4, t.report.problems.size());
    LONGS_EQUAL(6, t.report.problems[0].line);
    CHECK(t.report.problems[0].message.find("truncated") != std::string::npos);
    LONGS_EQUAL(7, t.report.problems[1].line);
    CHECK(t.report.problems[1].message.find("abc") != std::string::npos);
    LONGS_EQUAL(8, t.report.problems[2].line);
    LONGS_EQUAL(9, t.report.problems[3].line);
    CHECK(t.report.summary().find("t.swf:6:") != std::string::npos);
}

TEST(SwfParser, CountsRecordsThatAreNoRunnableJob)
{
    Trace t = parse("1 0 0 -1 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"  // no run time
                    "2 0 0 30 1 -1 -1 1 60 -1 2 1 1 -1 -1 -1 -1 -1\n"  // partial execution
                    "3 0 0 0 1 -1 -1 1 60 -1 5 1 1 -1 -1 -1 -1 -1\n"   // cancelled before start
                    "4 0 0 30 -1 -1 -1 -1 60 -1 1 1 1 -1 -1 -1 -1 -1\n" // no processors
                    "5 0 0 30 2 -1 -1 2 60 -1 5 1 1 -1 -1 -1 -1 -1\n"); // cancelled while running: kept
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(5, t.jobs[0].id);
    LONGS_EQUAL(4, t.report.unusable);
    LONGS_EQUAL(0, t.report.malformed);
}

TEST(SwfParser, KeepsTheFirstProblemsButCountsThemAll)
{
    std::string text;
    for (int i = 0; i < 50; ++i)
        text += "1 2 3\n";
    Trace t = parse(text);
    LONGS_EQUAL(50, t.report.malformed);
    LONGS_EQUAL(TraceReport::kKeptProblems, t.report.problems.size());
    CHECK(t.report.summary().find("and 30 more") != std::string::npos);
}

TEST(SwfParser, RejectsANonNumericHeaderValue)
{
    Trace t = parse("; MaxProcs: lots\n; Note: fine\n");
    LONGS_EQUAL(1, t.report.malformed);
    LONGS_EQUAL(1, t.report.problems[0].line);
    LONGS_EQUAL(1, t.report.comment_lines); // the bad header counts once, as malformed
}

TEST(SwfParser, ReportsADuplicateJobNumberAtItsSecondLine)
{
    Trace t = parse("7 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"
                    "7 0 0 30 1 -1 -1 1 60 -1 2 1 1 -1 -1 -1 -1 -1\n"  // partial record of 7: not a duplicate
                    "7 9 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"); // line 3
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(1, t.report.malformed);
    LONGS_EQUAL(3, t.report.problems.back().line);
    CHECK(t.report.problems.back().message.find("already used on line 1") != std::string::npos);
}

TEST(SwfParser, RejectsRunawayRuntimesAndSubmitTimes)
{
    Trace t = parse("1 0 0 1e12 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
                    "2 1e12 0 5 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
                    "3 0 0 315360000 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"); // exactly 10 years: kept
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(2, t.report.malformed);
    CHECK(t.report.problems[0].message.find("run time over 10 years") != std::string::npos);
    LONGS_EQUAL(2, t.report.problems[1].line);
}

TEST(SwfParser, KeepsEpochSubmitTimesAndChecksThemFromTheFirstRecord)
{
    // Absolute times, no UnixStartTime: the first record is the start.
    Trace t = parse("; MaxProcs: 8\n"
                    "1 1000000000 0 3600 8 -1 -1 8 3600 -1 1 1 1 1 1 -1 -1 -1\n"
                    "2 1000000010 -1 1800 4 -1 -1 4 3600 -1 1 2 2 1 1 -1 -1 -1\n"
                    "3 1000000020 -1 1800 4 -1 -1 4 3600 -1 1 2 2 1 1 -1 -1 -1\n"
                    "4 999999999 -1 1800 4 -1 -1 4 3600 -1 1 2 2 1 1 -1 -1 -1\n"   // before the start
                    "5 1400000000 -1 1800 4 -1 -1 4 3600 -1 1 2 2 1 1 -1 -1 -1\n"); // 12 years later
    LONGS_EQUAL(3, t.jobs.size());
    DOUBLES_EQUAL(1000000000, t.jobs[0].submit, 0);
    DOUBLES_EQUAL(1000000020, t.jobs[2].submit, 0);
    LONGS_EQUAL(2, t.report.malformed);
    LONGS_EQUAL(5, t.report.problems[0].line);
    CHECK_TEXT(t.report.problems[0].message.find("before the trace's start 1000000000") != std::string::npos,
               t.report.problems[0].message.c_str());
    LONGS_EQUAL(6, t.report.problems[1].line);
    CHECK(t.report.problems[1].message.find("over 10 years after the trace's start") != std::string::npos);
}

TEST(SwfParser, EpochSubmitTimesStartAtUnixStartTimeAndAreNotShiftedByIt)
{
    Trace t = parse("; UnixStartTime: 999990000\n"
                    "1 1000000000 0 60 1 -1 -1 1 60 -1 1 1 1 1 -1 -1 -1 -1\n"
                    "2 999980000 0 60 1 -1 -1 1 60 -1 1 1 1 1 -1 -1 -1 -1\n");
    LONGS_EQUAL(1, t.jobs.size());
    DOUBLES_EQUAL(1000000000, t.jobs[0].submit, 0);
    LONGS_EQUAL(3, t.report.problems[0].line);
    CHECK(t.report.problems[0].message.find("999990000 (UnixStartTime)") != std::string::npos);
}

TEST(SwfParser, KeepsEveryProblemWhenAsked)
{
    std::string text;
    for (int i = 0; i < 50; ++i)
        text += "1 2 3\n";
    std::istringstream in(text);
    Trace t = parse_swf(in, "t.swf", SIZE_MAX);
    LONGS_EQUAL(50, t.report.problems.size());
    CHECK(t.report.summary().find("more") == std::string::npos);
}

TEST(SwfParser, ReportsALastLineWithoutItsNewlineAsTruncated)
{
    // Cut inside the last field ("12" → "1"): still 18 numbers.
    Trace cut = parse("1 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 12\n"
                      "2 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 1");
    LONGS_EQUAL(1, cut.jobs.size());
    LONGS_EQUAL(1, cut.report.malformed);
    LONGS_EQUAL(2, cut.report.problems[0].line);
    CHECK_TEXT(cut.report.summary().find("t.swf:2: no newline at end of file: truncated?") != std::string::npos,
               cut.report.summary().c_str());
    // A header comment may be cut too ("MaxProcs: 128" → "12").
    Trace header = parse("1 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n; MaxProcs: 12");
    LONGS_EQUAL(1, header.report.malformed);
    LONGS_EQUAL(0, header.report.max_procs);
    // ... or inside its key, which loses the header altogether.
    Trace key = parse("1 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n; MaxPro");
    LONGS_EQUAL(1, key.report.malformed);
    // Any other comment ending the file loses nothing when cut.
    Trace note = parse("1 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n; converted by hand, see REA");
    LONGS_EQUAL(0, note.report.problem_count());
    LONGS_EQUAL(1, note.report.comment_lines);
    LONGS_EQUAL(1, note.jobs.size());
    // Blanks after the last newline cut nothing.
    Trace blank = parse("1 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n \t");
    LONGS_EQUAL(0, blank.report.problem_count());
    LONGS_EQUAL(1, blank.report.comment_lines);
}

TEST(SwfParser, RejectsValuesTheStandardDoesNotAllow)
{
    // Only -1 means "missing"; processor counts, status and ids are integers.
    Trace t = parse("1 0 0 -5 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"    // run time -5
                    "2 0 0 50 2.5 -1 -1 2 60 -1 1 1 1 -1 -1 -1 -1 -1\n"   // 2.5 processors
                    "3 0 0 50 -1 -1 -1 1.5 60 -1 1 1 1 -1 -1 -1 -1 -1\n"  // 1.5 requested
                    "4 0 0 50 1 -1 -1 1 60 -1 7 1 1 -1 -1 -1 -1 -1\n"     // status 7
                    "5 0 0 50 1 -1 -1 1 60 -1 1e9 1 1 -1 -1 -1 -1 -1\n"
                    "6 0 0 50 1 -1 -1 1 60 -1 1e30 1 1 -1 -1 -1 -1 -1\n"
                    "7 0 0 50 1 -1 -1 1 60 -1 1.5 1 1 -1 -1 -1 -1 -1\n"
                    "8 0 0 50 1 -1 -1 1 60 -1 1 1e30 1 -1 -1 -1 -1 -1\n"  // user id
                    "9 0 0 50 1 -1 -1 1 60 -1 1 1 -3 -1 -1 -1 -1 -1\n"    // group id -3
                    "10 0 0 50 1 -1 -1 1 -7 -1 1 1 1 -1 -1 -1 -1 -1\n"    // requested time -7
                    "11 0 0 50 -4 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"   // -4 processors
                    "12 0 0 50 1 -1 -1 1 60 -1 -1 1 1 -1 -1 -1 -1 -1\n"); // status -1 (missing): fine
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(12, t.jobs[0].id);
    LONGS_EQUAL(11, t.report.malformed);
    LONGS_EQUAL(0, t.report.unusable);
    auto message = [&](std::size_t line) {
        for (const auto& p : t.report.problems)
            if (p.line == line)
                return p.message;
        return std::string();
    };
    CHECK_TEXT(message(1) == "run time: expected seconds >= 0 or -1 (missing), got '-5'", message(1).c_str());
    CHECK_TEXT(message(2) ==
                   "allocated processors: expected a whole number in [0, 4294967295] or -1 (missing), got '2.5'",
               message(2).c_str());
    CHECK_TEXT(message(3).find("requested processors") == 0, message(3).c_str());
    CHECK_TEXT(message(4) == "status: expected 0 to 5 or -1 (missing), got '7'", message(4).c_str());
    CHECK_TEXT(message(6) == "status: expected 0 to 5 or -1 (missing), got '1e30'", message(6).c_str());
    CHECK_TEXT(message(8).find("user id") == 0, message(8).c_str());
    CHECK_TEXT(message(9).find("group id") == 0, message(9).c_str());
    CHECK_TEXT(message(10).find("requested time") == 0, message(10).c_str());
    CHECK_TEXT(message(11).find("allocated processors") == 0, message(11).c_str());
}

TEST(SwfParser, ReplaysButReportsAFieldItDoesNotUseOutOfItsRange)
{
    // Wait time, average CPU time, used and requested memory, preceding job
    // and think time: the replay does not read them, so the job stays, but
    // a value the standard does not allow is reported with its line.
    Trace t = parse("1 0 -7 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"    // wait time -7
                    "2 0 0 50 1 -2 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"     // average CPU time -2
                    "3 0 0 50 1 -1 -9 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"     // used memory -9
                    "4 0 0 50 1 -1 -1 1 60 -5 1 1 1 -1 -1 -1 -1 -1\n"     // requested memory -5
                    "5 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 2.5 -1\n"    // preceding job 2.5
                    "6 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -3\n"     // think time -3
                    "7 0 12 50 1 48 512 1 60 1024 1 1 1 -1 -1 -1 6 30\n"); // all in range
    LONGS_EQUAL(7, t.jobs.size());
    LONGS_EQUAL(6, t.report.doubtful);
    LONGS_EQUAL(0, t.report.malformed);
    LONGS_EQUAL(0, t.report.unusable);
    LONGS_EQUAL(6, t.report.problems.size());
    STRCMP_EQUAL("wait time: expected seconds >= 0 or -1 (missing), got '-7' (replayed: the simulator does not use it)",
                 t.report.problems[0].message.c_str());
    CHECK(t.report.problems[4].message.find("preceding job number") == 0);
    LONGS_EQUAL(6, t.report.problems[5].line);
    CHECK(t.report.problems[5].message.find("think time") == 0);
    const std::string summary = t.report.summary();
    CHECK_TEXT(summary.find("0 malformed, 0 unusable, 6 with a field out of range that the simulator does not use") !=
                   std::string::npos,
               summary.c_str());
    CHECK(summary.find("t.swf:1: wait time") != std::string::npos);

    // Clean records say nothing more than before.
    CHECK(parse("1 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n").report.summary().find("out of range") ==
          std::string::npos);
}

// Alea's traces have 21 fields: the width says what the file is before any
// field is read as a number, and a long field is quoted short.
TEST(SwfParser, CountsEveryFieldOfAWiderRecordBeforeReadingNumbers)
{
    const std::string long_field(70, 'x');
    Trace t = parse(std::string(kHeader) + "1 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1 q 2 " + long_field + "\n" +
                    "2 0 0 " + long_field + " 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n");
    LONGS_EQUAL(2, t.report.malformed);
    STRCMP_EQUAL("expected 18 fields, found 21", t.report.problems[0].message.c_str());
    STRCMP_EQUAL(("field is not a number: '" + long_field.substr(0, 32) + "...' (70 characters)").c_str(),
                 t.report.problems[1].message.c_str());
}
