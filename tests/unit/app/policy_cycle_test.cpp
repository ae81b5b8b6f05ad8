#include "app/policy_cycle.hpp"

#include <filesystem>
#include <sstream>
#include <unistd.h>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

class NoProvider final : public Provider {
public:
    std::string_view name() const override { return "none"; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>&) override { return {}; }
    ListResult list(const InstanceTags&) override { return {}; }
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>&) override { return {}; }
};

class RecordingActuator final : public SlurmActuator {
public:
    ActuatorError set_job_partitions(JobId job, const std::vector<std::string>& parts, std::string_view) override
    {
        std::string list;
        for (const auto& p : parts)
            list += (list.empty() ? "" : ",") + p;
        calls.push_back("job " + std::to_string(job) + " " + list);
        return {};
    }
    ActuatorError set_job_cpus(const JobCpuChange&, std::string_view) override { return {}; }
    ActuatorError power(const std::vector<std::string>&, PowerAction, std::string_view) override { return {}; }
    ActuatorError set_node_address(const std::string&, const std::string&, const std::string&,
                                   std::string_view) override
    {
        return {};
    }
    ActuatorError hand_back_node(const std::string&, std::string_view, const std::vector<JobId>&,
                                 std::vector<JobId>&) override
    {
        return {};
    }
    std::vector<std::string> calls;
};

Job pending(JobId id, std::vector<std::string> partitions, std::uint32_t cpus = 2)
{
    Job j;
    j.id = id;
    j.cpus = cpus;
    j.partitions = std::move(partitions);
    return j;
}

Node cloud_node(const std::string& name, std::uint32_t flags, std::uint32_t alloc = 0)
{
    Node n;
    n.name = name;
    n.base = alloc ? NodeBaseState::Allocated : NodeBaseState::Idle;
    n.flags = kNodeCloud | flags;
    n.cpus = 2;
    n.alloc_cpus = alloc;
    return n;
}

} // namespace

TEST_GROUP(PolicyCycle)
{
    std::string path = (std::filesystem::temp_directory_path() / ("pc_test_" + std::to_string(::getpid()) + ".sqlite"))
                           .string();
    std::ostringstream out;
    Logger log{out, LogLevel::Debug, false};
    ManualClock clock{1000};
    RecordingActuator actuator;
    BurstdConfig config;

    void setup() override
    {
        std::filesystem::remove(path);
        NodeGroup g;
        g.name = "cloud";
        g.provider = "none";
        g.partition = "cloud";
        g.cpus = 2;
        g.nodes = {"c1", "c2"};
        g.recovery.capacity_errors = 1;
        config.node_groups = {g};
    }
    void teardown() override { std::filesystem::remove(path); }

    // One cycle over `snapshot` with the group's breaker opened first when `stopped`.
    void cycle(const Snapshot& snapshot, bool stopped)
    {
        Ledger ledger(path);
        std::map<std::string, std::unique_ptr<Provider>> providers;
        providers["none"] = std::make_unique<NoProvider>();
        InstanceManagerSettings settings;
        settings.groups = config.node_groups;
        InstanceManager instances(std::move(providers), ledger, actuator, clock, log, settings);
        if (stopped)
            instances.health().launch_failed("cloud", {ProviderErrorKind::Capacity, "no capacity", 0}, clock.now(),
                                             false);
        PolicyCycle pc({}, ledger, actuator, instances, 1000);
        pc.run(CycleContext{config, &snapshot, clock.now(), log});
    }
};

TEST(PolicyCycle, JobsRoutedToAGroupThatIsNotLaunchingGetTheirOtherPartitionsBack)
{
    Snapshot s;
    s.nodes = {cloud_node("c1", kNodePoweredDown), cloud_node("c2", kNodePoweredDown)};
    s.jobs = {pending(1, {"local", "cloud"}), pending(2, {"cloud"}), pending(3, {"local"})};
    cycle(s, true);
    CHECK(actuator.calls == std::vector<std::string>{"job 1 local"});
    CHECK(out.str().find("unroute job 1 from group cloud: node group cloud is not launching") != std::string::npos);
}

TEST(PolicyCycle, RoutedJobsStayWhileTheGroupHiresOrStillHasRoomUp)
{
    Snapshot s;
    s.nodes = {cloud_node("c1", 0), cloud_node("c2", kNodePoweredDown)};
    s.jobs = {pending(1, {"local", "cloud"})};
    cycle(s, false);
    CHECK(actuator.calls.empty());
    cycle(s, true); // c1 is up and idle: the job can still start there
    CHECK(actuator.calls.empty());
}
