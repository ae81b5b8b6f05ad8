#include "model/standby_jobs.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

Node node(const std::string& name, std::uint32_t cpus, std::uint32_t alloc, std::uint64_t memory = 0,
          std::uint64_t alloc_memory = 0)
{
    Node n;
    n.name = name;
    n.cpus = cpus;
    n.alloc_cpus = alloc;
    n.memory_mb = memory;
    n.alloc_memory_mb = alloc_memory;
    n.base = alloc == 0 ? NodeBaseState::Idle : alloc < cpus ? NodeBaseState::Mixed : NodeBaseState::Allocated;
    return n;
}

Job job(JobId id, const std::string& qos, JobState state, std::vector<std::string> nodes = {},
        std::uint32_t cpus = 1, std::uint64_t memory = 0)
{
    Job j;
    j.id = id;
    j.qos = qos;
    j.state = state;
    j.nodes = std::move(nodes);
    j.cpus = cpus;
    j.memory_mb = memory;
    return j;
}

} // namespace

TEST_GROUP(StandbyJobs){};

TEST(StandbyJobs, WithoutStandbyQosNothingIsSetAside)
{
    Snapshot s;
    s.jobs = {job(1, "placeholder", JobState::Pending), job(2, "", JobState::Pending)};
    StandbyJobs standby = set_aside_standby_jobs(s, StandbyQos{});
    LONGS_EQUAL(2, s.jobs.size());
    CHECK(standby.placeholders.empty() && standby.scavengers.empty());
}

TEST(StandbyJobs, PlaceholdersAndScavengersLeaveTheJobListAndRealJobsKeepTheirOrder)
{
    Snapshot s;
    s.jobs = {job(1, "normal", JobState::Pending), job(2, "hold", JobState::Pending),
              job(3, "", JobState::Pending), job(4, "scav", JobState::Pending), job(5, "normal", JobState::Pending)};
    StandbyJobs standby = set_aside_standby_jobs(s, StandbyQos{"hold", "scav", ""});
    LONGS_EQUAL(3, s.jobs.size());
    LONGS_EQUAL(1, s.jobs[0].id);
    LONGS_EQUAL(3, s.jobs[1].id);
    LONGS_EQUAL(5, s.jobs[2].id);
    LONGS_EQUAL(1, standby.placeholders.size());
    LONGS_EQUAL(2, standby.placeholders[0].id);
    LONGS_EQUAL(1, standby.scavengers.size());
    LONGS_EQUAL(4, standby.scavengers[0].id);
}

TEST(StandbyJobs, APlaceholdersNodeIsWhollyFreeWhateverItsJobRecordSays)
{
    Snapshot s;
    s.nodes = {node("c1", 8, 8, 16000, 16000)};
    // --exclusive: Slurm allocates the whole node though the job asked one CPU.
    s.jobs = {job(7, "hold", JobState::Running, {"c1"}, 1, 100)};
    s.jobs[0].name = kPlaceholderName;
    set_aside_standby_jobs(s, StandbyQos{"hold", "", ""});
    LONGS_EQUAL(0, s.nodes[0].alloc_cpus);
    LONGS_EQUAL(0, s.nodes[0].alloc_memory_mb);
    CHECK(s.nodes[0].base == NodeBaseState::Idle);
    CHECK(s.nodes[0].usable());
}

TEST(StandbyJobs, AJobOfThePlaceholderQosBurstdDidNotSubmitGivesBackOnlyItsOwnCpus)
{
    Snapshot s;
    s.nodes = {node("c1", 8, 8)};
    s.jobs = {job(7, "hold", JobState::Running, {"c1"}, 2)};
    set_aside_standby_jobs(s, StandbyQos{"hold", "", ""});
    LONGS_EQUAL(6, s.nodes[0].alloc_cpus);
}

TEST(StandbyJobs, AnUnevenShareComesBackWhole)
{
    Snapshot s;
    s.nodes = {node("n1", 4, 2), node("n2", 4, 1)};
    s.jobs = {job(8, "scav", JobState::Running, {"n1", "n2"}, 3)};
    set_aside_standby_jobs(s, StandbyQos{"", "scav", ""});
    LONGS_EQUAL(0, s.nodes[0].alloc_cpus);
    LONGS_EQUAL(0, s.nodes[1].alloc_cpus);
}

TEST(StandbyJobs, AScavengerGivesBackItsShareOfEachNodeAndNoMore)
{
    Snapshot s;
    s.nodes = {node("n1", 16, 12, 64000, 40000), node("n2", 16, 4, 64000, 8000)};
    s.jobs = {job(8, "scav", JobState::Running, {"n1", "n2"}, 8, 16000),
              job(9, "normal", JobState::Running, {"n1"}, 8, 32000)};
    set_aside_standby_jobs(s, StandbyQos{"", "scav", ""});
    LONGS_EQUAL(8, s.nodes[0].alloc_cpus);
    LONGS_EQUAL(32000, s.nodes[0].alloc_memory_mb);
    CHECK(s.nodes[0].base == NodeBaseState::Mixed);
    LONGS_EQUAL(0, s.nodes[1].alloc_cpus);
    LONGS_EQUAL(0, s.nodes[1].alloc_memory_mb);
    CHECK(s.nodes[1].base == NodeBaseState::Idle);
    LONGS_EQUAL(1, s.jobs.size());
}

TEST(StandbyJobs, APendingStandbyJobFreesNothing)
{
    Snapshot s;
    s.nodes = {node("c1", 8, 8)};
    s.jobs = {job(7, "hold", JobState::Pending)};
    set_aside_standby_jobs(s, StandbyQos{"hold", "", ""});
    LONGS_EQUAL(8, s.nodes[0].alloc_cpus);
}

TEST(StandbyJobs, InteractiveHoldsAreSetAsideYetTheirCoresStayBusy)
{
    Snapshot s;
    s.nodes = {node("n1", 8, 3)};
    s.jobs = {job(1, "normal", JobState::Running, {"n1"}, 2), job(2, "ihold", JobState::Running, {"n1"}, 1),
              job(3, "ihold", JobState::Pending), job(4, "normal", JobState::Pending)};
    StandbyJobs standby = set_aside_standby_jobs(s, StandbyQos{"", "", "ihold"});
    LONGS_EQUAL(2, standby.interactive_holds.size());
    LONGS_EQUAL(2, standby.interactive_holds[0].id);
    LONGS_EQUAL(3, standby.interactive_holds[1].id);
    CHECK(standby.placeholders.empty() && standby.scavengers.empty());
    LONGS_EQUAL(2, s.jobs.size());
    LONGS_EQUAL(1, s.jobs[0].id);
    LONGS_EQUAL(4, s.jobs[1].id);
    LONGS_EQUAL(3, s.nodes[0].alloc_cpus); // only interactive jobs may take a hold's core
}
