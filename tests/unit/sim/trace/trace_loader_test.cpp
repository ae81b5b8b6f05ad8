#include "sim/trace/trace_loader.hpp"

#include <string>

#include "tools/burstsim/burstsim_cli_harness.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::TempTrace;

TEST_GROUP(TraceLoader){};

TEST(TraceLoader, AutoReadsACommentWithABarAsSwf)
{
    // SWF headers are free text: a ';' comment never makes the file sacct.
    TempTrace swf("; Note: fields are separated by blanks, not by '|'\n; MaxProcs: 4\n"
                  "1 0 0 10 1 -1 -1 1 100 -1 1 1 1 1 -1 -1 -1 -1\n",
                  ".txt");
    Trace t = load_trace(swf.path(), "auto");
    LONGS_EQUAL(1, t.jobs.size());
    LONGS_EQUAL(0, t.report.problem_count());
    LONGS_EQUAL(4, t.report.max_procs);

    TempTrace sacct("\nJobIDRaw|Account|User|Submit|Start|End|AllocCPUS|ReqCPUS|Timelimit|State\n"
                    "1|a|u|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T01:00:00|1|1|02:00:00|COMPLETED\n",
                    ".txt");
    Trace s = load_trace(sacct.path(), "auto");
    LONGS_EQUAL(1, s.jobs.size());
    LONGS_EQUAL(0, s.report.problem_count());
}

TEST(TraceLoader, SaysADirectoryIsNoTrace)
{
    try {
        load_trace("/tmp", "auto");
        FAIL("a directory was read as a trace");
    } catch (const TraceError& e) {
        STRCMP_EQUAL("/tmp: is a directory; give a trace file", e.what());
    }
}

// A file most of whose records do not read is another format, or damaged:
// replaying the few that do would answer a question nobody asked.
TEST(TraceLoader, RefusesAFileMostlyMalformedUnlessAskedToSkip)
{
    TempTrace t("; MaxProcs: 4\nid,submit,cores\n1,0,4\n2,5,4\n"
                "1 0 0 10 1 -1 -1 1 100 -1 1 1 1 1 -1 -1 -1 -1\n");
    try {
        load_trace(t.path(), "auto");
        FAIL("a mostly malformed trace was replayed");
    } catch (const TraceError& e) {
        const std::string what = e.what();
        CHECK(what.find(t.path() + ": 3 of its 4 records are malformed (swf format, guessed); is it an SWF file? "
                                   "First: " + t.path() + ":2: expected 18 fields, found 1") == 0);
        CHECK(what.find("--skip-malformed replays the 1 that could be read") != std::string::npos);
    }
    Trace kept = load_trace(t.path(), "auto", TraceReport::kKeptProblems, true);
    LONGS_EQUAL(1, kept.jobs.size());
    LONGS_EQUAL(3, kept.report.malformed);
}
