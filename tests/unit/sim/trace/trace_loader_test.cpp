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
