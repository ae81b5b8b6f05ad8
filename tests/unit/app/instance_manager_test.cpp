#include "app/instance_manager.hpp"

#include <filesystem>
#include <sstream>
#include <unistd.h>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// Its state lives in the fixture: the manager owns (and destroys) the provider.
struct FakeCloud {
    bool fail = false;
    std::map<std::string, std::string> by_token, live;
};

class FakeProvider final : public Provider {
public:
    explicit FakeProvider(FakeCloud& cloud) : fail(cloud.fail), by_token(cloud.by_token), live(cloud.live) {}
    std::string_view name() const override { return "fake"; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>& requests) override
    {
        std::vector<LaunchResult> out;
        for (const auto& r : requests) {
            LaunchResult res{r.node, "", "", {}};
            if (fail) {
                res.error = {ProviderErrorKind::Capacity, "no capacity", 0};
            } else {
                auto& id = by_token[r.idempotency_token];
                if (id.empty())
                    id = "i-" + r.node + "-" + std::to_string(by_token.size());
                res.provider_id = id;
                res.address = "10.0.0.1";
                live[id] = r.node;
            }
            out.push_back(res);
        }
        return out;
    }
    ListResult list(const InstanceTags&) override
    {
        ListResult r;
        for (const auto& [id, node] : live)
            r.instances.push_back(ProviderInstance{id, node, "running", "10.0.0.1", false, false, {}});
        return r;
    }
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>& ids) override
    {
        for (const auto& id : ids)
            live.erase(id);
        return {};
    }
    bool& fail;
    std::map<std::string, std::string>& by_token;
    std::map<std::string, std::string>& live;
};

class FakeActuator final : public SlurmActuator {
public:
    ActuatorError set_job_partitions(JobId, const std::vector<std::string>&, std::string_view) override { return {}; }
    ActuatorError set_job_cpus(const JobCpuChange&, std::string_view) override { return {}; }
    ActuatorError power(const std::vector<std::string>& nodes, PowerAction action, std::string_view) override
    {
        for (const auto& n : nodes)
            calls.push_back(std::string(to_string(action)) + " " + n);
        return {};
    }
    ActuatorError set_node_address(const std::string& node, const std::string& address, const std::string&,
                                   std::string_view) override
    {
        calls.push_back("addr " + node + " " + address);
        return {};
    }
    std::vector<std::string> calls;
};

struct Fixture {
    Fixture()
        : path((std::filesystem::temp_directory_path() / ("im_test_" + std::to_string(::getpid()) + ".sqlite"))
                   .string()),
          ledger((std::filesystem::remove(path), path)), log(out, LogLevel::Debug, false)
    {
        NodeGroup g;
        g.name = "cloud";
        g.provider = "fake";
        g.nodes = {"c1", "c2"};
        settings.groups = {g};
        settings.owner = {"lab", "", "lab"};
    }
    ~Fixture() { std::filesystem::remove(path); }
    void run(const std::function<void(InstanceManager&)>& work)
    {
        std::map<std::string, std::unique_ptr<Provider>> providers;
        providers["fake"] = std::make_unique<FakeProvider>(cloud);
        {
            InstanceManager m(std::move(providers), ledger, actuator, clock, log, settings);
            work(m);
        } // joins the workers
    }
    std::string path;
    Ledger ledger;
    FakeActuator actuator;
    ManualClock clock{1000};
    std::ostringstream out;
    Logger log;
    InstanceManagerSettings settings;
    FakeCloud cloud;
};

} // namespace

TEST_GROUP(InstanceManager){};

TEST(InstanceManager, ResumeRecordsBeforeLaunchingAndSetsTheAddress)
{
    Fixture f;
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1"}); });
    auto recs = f.ledger.for_node("c1");
    LONGS_EQUAL(1, recs.size());
    CHECK(recs[0].state == InstanceState::Launching);
    STRCMP_EQUAL("i-c1-1", recs[0].provider_id.c_str());
    CHECK(f.actuator.calls == std::vector<std::string>{"addr c1 10.0.0.1"});
}

TEST(InstanceManager, FailedLaunchIsRecordedAndTheNodeForcedDown)
{
    Fixture f;
    f.cloud.fail = true;
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c2"}); });
    auto recs = f.ledger.for_node("c2");
    LONGS_EQUAL(1, recs.size());
    CHECK(recs[0].state == InstanceState::Failed);
    CHECK(recs[0].last_error.find("capacity") != std::string::npos);
    LONGS_EQUAL(1, f.actuator.calls.size());
    CHECK(f.actuator.calls[0].find("c2") != std::string::npos);
}

TEST(InstanceManager, RepeatedResumeReusesTheTokenAndSuspendTerminates)
{
    Fixture f;
    f.run([](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1"});
        m.request(PowerRequestKind::Resume, {"c1"});
    });
    LONGS_EQUAL(1, f.ledger.for_node("c1").size());
    LONGS_EQUAL(1, f.cloud.live.size());
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Suspend, {"c1"}); });
    CHECK(f.ledger.for_node("c1")[0].state == InstanceState::Terminated);
    LONGS_EQUAL(0, f.cloud.live.size());
}

TEST(InstanceManager, ObservedUpNodeMarksItsInstanceRunning)
{
    Fixture f;
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1"}); });
    Node up;
    up.name = "c1";
    up.base = NodeBaseState::Idle;
    up.flags = kNodeCloud;
    f.run([&](InstanceManager& m) { m.observe_nodes({up}); });
    CHECK(f.ledger.for_node("c1")[0].state == InstanceState::Running);
}
