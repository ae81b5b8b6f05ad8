// burstsim's interactive options: --interactive-jobs marks a trace's
// session-shaped jobs interactive, --interactive (or --config's
// Interactive=) keeps local cores held for them.

#include <string>
#include <vector>

#include "burstsim_cli_harness.hpp"

using namespace burst;
using namespace burst::test;

namespace {

// Jobs 1 and 2, too long for sessions, fill the 2 cores for 20000 s; job
// 3, a short one-core job, comes at 50 s.
const char* const kTrace = "; MaxProcs: 2\n"
                           "1 0 0 20000 1 -1 -1 1 20000 -1 1 1 1 1 -1 -1 -1 -1\n"
                           "2 1 0 20000 1 -1 -1 1 20000 -1 1 1 1 1 -1 -1 -1 -1\n"
                           "3 50 0 100 1 -1 -1 1 100 -1 1 1 1 1 -1 -1 -1 -1\n";

} // namespace

TEST_GROUP(BurstsimInteractiveCli){};

TEST(BurstsimInteractiveCli, HeldCoresStartTheInteractiveJobAtOnce)
{
    TempTrace t(kTrace);
    Run without = invoke({"--trace", t.path(), "--policy", "never", "--interactive-jobs", "1"});
    LONGS_EQUAL(0, without.status);
    CHECK(without.err.find("interactive jobs: 1 of the 1 job(s) shaped like a session") != std::string::npos);
    // Job 3 waits for job 1's end.
    CHECK(without.out.find("interactive jobs 1: time to start median 19950 s, p95 19950 s; batch jobs' wait "
                           "mean 0.00h") != std::string::npos);

    Run with = invoke({"--trace", t.path(), "--policy", "never", "--interactive-jobs", "1", "--interactive", "1"});
    LONGS_EQUAL(0, with.status);
    // Job 2 waits behind the hold for job 1's end, job 3 starts at once.
    CHECK(with.out.find("interactive jobs 1: time to start median 0 s, p95 0 s; batch jobs' wait mean 2.78h") !=
          std::string::npos);
    CHECK(with.out.find("Interactive= holds 1 core(s), kept") != std::string::npos);
}

TEST(BurstsimInteractiveCli, MultifactorPrioritiesKeepInteractiveJobsFirst)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--policy", "never", "--interactive-jobs", "1", "--interactive", "1",
                    "--priority", "multifactor"});
    LONGS_EQUAL(0, r.status);
    CHECK(r.out.find("interactive jobs 1: time to start median 0 s, p95 0 s") != std::string::npos);

    // Without holds job 3 waits through many PriorityCalcPeriod passes
    // beside job 4, an older batch job: it still takes the first core to
    // come free (job 1's, at 20000 s).
    TempTrace older(std::string(kTrace) + "4 40 0 20000 1 -1 -1 1 20000 -1 1 1 1 1 -1 -1 -1 -1\n");
    Run waits = invoke({"--trace", older.path(), "--policy", "never", "--interactive-jobs", "1", "--priority",
                        "multifactor"});
    LONGS_EQUAL(0, waits.status);
    CHECK(waits.out.find("interactive jobs 1: time to start median 19950 s") != std::string::npos);
}

TEST(BurstsimInteractiveCli, ConfigsInteractiveLinesKeepTheirCoresOnTheLocalPool)
{
    TempTrace t(kTrace);
    TempTrace conf("ClusterName=sim\nInteractiveQOS=i InteractiveHoldQOS=h\nInteractive=debug:1,cloud:3\n"
                   "Provider=box Type=local\n"
                   "NodeGroup=cloud Provider=box Nodes=c[1-2] Partition=cloud Cpus=2 PricePerHour=1 BootTime=30\n"
                   "Policy=never\n",
                   ".conf");
    Run r = invoke({"--trace", t.path(), "--config", conf.path(), "--interactive-jobs", "1"});
    LONGS_EQUAL(0, r.status);
    CHECK(r.out.find("Interactive= holds 1 core(s)") != std::string::npos);
    CHECK(r.err.find("Interactive=cloud:3: a node group's partition, where burstd keeps no hold") !=
          std::string::npos);
    // --interactive overrides the file.
    Run none = invoke({"--trace", t.path(), "--config", conf.path(), "--interactive", "0"});
    LONGS_EQUAL(0, none.status);
    CHECK(none.out.find("Interactive= holds") == std::string::npos);
}

TEST(BurstsimInteractiveCli, RejectsABadShareOrAReserveOfEveryCore)
{
    TempTrace t(kTrace);
    Run share = invoke({"--trace", t.path(), "--interactive-jobs", "1.5"});
    LONGS_EQUAL(2, share.status);
    CHECK(share.err.find("--interactive-jobs '1.5': expected a share in [0, 1]") != std::string::npos);
    Run all = invoke({"--trace", t.path(), "--interactive", "2"});
    LONGS_EQUAL(2, all.status);
    CHECK(all.err.find("--interactive 2: holds must leave some of the 2 local cores to batch work") !=
          std::string::npos);
    Run clairvoyant = invoke({"--trace", t.path(), "--interactive-jobs", "0.5", "--clairvoyant"});
    LONGS_EQUAL(2, clairvoyant.status);
    CHECK(clairvoyant.err.find("--clairvoyant plans the queue in submission order") != std::string::npos);
    Run idle = invoke({"--trace", t.path(), "--policy", "never", "--interactive", "1"});
    LONGS_EQUAL(0, idle.status);
    CHECK(idle.err.find("warning: Interactive= holds 1 core(s) and no job of the trace is interactive") !=
          std::string::npos);
}

TEST(BurstsimInteractiveCli, ScavengeWarmNodesReportsTheScavengerWorkAndRefusesAnEmptyRun)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--policy", "never", "--scavenge-warm-nodes", "600"});
    LONGS_EQUAL(0, r.status);
    // No warm pool holds a node here: no scavenger work, and no cloud node idle.
    CHECK(r.out.find("scavenger work on warm nodes (runs of 600 s): held 0.0 core-hours, 0.0 core-hours done, "
                     "0.0 core-hours cut short; cloud nodes idle 0.0 core-hours") != std::string::npos);
    Run bad = invoke({"--trace", t.path(), "--policy", "never", "--scavenge-warm-nodes", "0"});
    LONGS_EQUAL(2, bad.status);
    CHECK(bad.err.find("--scavenge-warm-nodes '0': expected a number >= 1") != std::string::npos);
}
