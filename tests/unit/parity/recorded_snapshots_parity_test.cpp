// burstd's cycle and burstsim's snapshot replay take the same actions on a
// real cluster's snapshots (tests/data/parity: recorded by
// tests/slurm/test_decision_parity.sh, which checks a fresh recording too).
#include "parity/cycle_parity.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(RecordedSnapshotsParity){};

TEST(RecordedSnapshotsParity, BurstdAndBurstsimTakeTheSameActionsOnARealClustersSnapshots)
{
    const std::string dir = std::string(TEST_SRCDIR) + "/tests/data/parity/";
    // The recorded cluster's slurm.conf is gone: Slurm's defaults on both sides.
    const parity::Report r = parity::compare_recording(dir + "recording.ndjson", dir + "burstd.conf", dir + "none");
    STRCMP_EQUAL("", r.error.c_str());
    CHECK(r.snapshots >= 20);
    CHECK(r.job_ends >= 3);
    // The chain routed and hired: there is something to agree on.
    CHECK(r.burstd.size() >= 3);
    STRCMP_EQUAL("", parity::first_difference(r).c_str());
}
