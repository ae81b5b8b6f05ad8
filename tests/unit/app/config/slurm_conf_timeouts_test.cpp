#include "app/config/slurm_conf_timeouts.hpp"

#include <fstream>

#include "scratch_dir.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(SlurmConfTimeouts)
{
    test::ScratchDir scratch{"slurm-conf-timeouts-test"};

    SlurmConfTimeouts read(const std::string& text)
    {
        const std::string path = scratch.file("slurm.conf");
        std::ofstream(path) << text;
        return read_slurm_conf_timeouts(path);
    }
};

TEST(SlurmConfTimeouts, SuspendTimeIsGlobalUnlessAPartitionOrItsDefaultSaysOtherwise)
{
    auto t = read("ResumeTimeout=20 SuspendTime=600\n"
                  "NodeName=c[1-4] State=CLOUD CPUs=4\n"
                  "PartitionName=local Nodes=n1 ResumeTimeout=999\n"
                  "PartitionName=cloud Nodes=c[1-2] SuspendTime=120\n"
                  "PartitionName=DEFAULT SuspendTime=NONE\n"
                  "PartitionName=gpu Nodes=c[3-4]\n");
    CHECK(t.error.empty());
    DOUBLES_EQUAL(20, t.resume_timeout, 0); // a partition's own does not count
    DOUBLES_EQUAL(600, *t.suspend_time_of("local"), 0);
    DOUBLES_EQUAL(120, *t.suspend_time_of("cloud"), 0);
    CHECK(!t.suspend_time_of("gpu"));
}

TEST(SlurmConfTimeouts, WithoutSuspendTimeIdleNodesNeverPowerDown)
{
    CHECK(!read("ResumeTimeout=20\n").suspend_time);
    CHECK(!read("SuspendTime=INFINITE\n").suspend_time);
    CHECK(!read("SuspendTime=-1\n").suspend_time);
    auto bad = read("SuspendTime=soon\n");
    STRCMP_CONTAINS("slurm.conf:1: SuspendTime=soon: expected whole seconds, NONE, INFINITE or -1", bad.error.c_str());
}

TEST(SlurmConfTimeouts, MaxTimeIsEachPartitionsOwnOrItsDefaults)
{
    auto t = read("MaxTime=5\n" // not a partition's: Slurm takes it on partition lines only
                  "PartitionName=local Nodes=n1 MaxTime=INFINITE\n"
                  "PartitionName=cloud Nodes=c[1-2] MaxTime=12:00:00\n"
                  "PartitionName=DEFAULT MaxTime=1-00:00:00\n"
                  "PartitionName=gpu Nodes=c[3-4]\n"
                  "PartitionName=short Nodes=c[3-4] MaxTime=30\n");
    CHECK(t.error.empty());
    DOUBLES_EQUAL(0, t.partition_max_time.at("local"), 0);
    DOUBLES_EQUAL(12 * 3600, t.partition_max_time.at("cloud"), 0);
    DOUBLES_EQUAL(86400, t.partition_max_time.at("gpu"), 0);
    DOUBLES_EQUAL(1800, t.partition_max_time.at("short"), 0);
    CHECK(!t.partition_max_time.count("DEFAULT"));
    auto slurm_words = read("PartitionName=a MaxTime=infinite\nPartitionName=b MaxTime=Unlimited\n"
                            "PartitionName=c MaxTime=-1\n");
    CHECK(slurm_words.max_time_error.empty());
    DOUBLES_EQUAL(0, slurm_words.partition_max_time.at("a") + slurm_words.partition_max_time.at("b") +
                         slurm_words.partition_max_time.at("c"), 0);
    auto bad = read("SuspendTime=60\nPartitionName=cloud Nodes=c1 MaxTime=soon\n");
    STRCMP_CONTAINS("slurm.conf:2: MaxTime=soon: expected minutes", bad.max_time_error.c_str());
    CHECK(bad.error.empty()); // what burstd reads is fine
    DOUBLES_EQUAL(60, *bad.suspend_time, 0);
    CHECK(!bad.partition_max_time.count("cloud"));
}
