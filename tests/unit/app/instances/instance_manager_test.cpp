#include <atomic>
#include "app/instances/instance_manager.hpp"

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "scratch_dir.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// Its state lives in the fixture: the manager owns (and destroys) the provider.
struct FakeCloud {
    bool fail = false;
    std::map<std::string, std::string> by_token, live;
    std::deque<ProviderError> next_errors;       // answered to the next calls, in order
    std::set<std::string> no_capacity_types;     // always a capacity error
    std::set<std::string> failing_nodes;         // always a capacity error
    std::set<std::string> no_capacity_places;    // "type@zone": always a capacity error
    std::vector<std::string> zones;              // the provider's Zones=
    std::vector<std::string> launches;           // "node type token" per call
    std::vector<std::string> places;             // "node type@zone" per call
    std::atomic<int> lists{0};
    std::size_t batch_limit = 1;                 // launch_batch_limit()
    std::vector<std::vector<std::string>> calls; // the nodes of each launch() call
    std::vector<std::vector<std::string>> terminations; // the ids of each terminate() call
    std::function<void(const std::vector<LaunchRequest>&)> before_launch; // sees each call first
    std::vector<bool> all_or_nothing_calls;      // per launch() call: its requests asked for all or none
    bool honours_minimum = false;                // such a call creates nothing when a node would fail
};

class FakeProvider final : public Provider {
public:
    explicit FakeProvider(FakeCloud& cloud) : fail(cloud.fail), by_token(cloud.by_token), live(cloud.live), cloud_(cloud)
    {
    }
    std::string_view name() const override { return "fake"; }
    std::vector<std::string> zones() const override { return cloud_.zones; }
    std::size_t launch_batch_limit() const override { return cloud_.batch_limit; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>& requests) override
    {
        if (cloud_.before_launch)
            cloud_.before_launch(requests);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            cloud_.calls.emplace_back();
            for (const auto& r : requests)
                cloud_.calls.back().push_back(r.node);
            cloud_.all_or_nothing_calls.push_back(!requests.empty() && requests.front().all_or_nothing);
        }
        if (cloud_.honours_minimum && !requests.empty() && requests.front().all_or_nothing &&
            std::any_of(requests.begin(), requests.end(),
                        [&](const LaunchRequest& r) { return cloud_.failing_nodes.count(r.node) > 0; }))
            return std::vector<LaunchResult>(
                requests.size(), LaunchResult{"", "", "", {ProviderErrorKind::Capacity, "minimum not met", 0}});
        std::vector<LaunchResult> out;
        for (const auto& r : requests) {
            LaunchResult res{r.node, "", "", {}};
            std::lock_guard<std::mutex> lock(mutex_);
            cloud_.launches.push_back(r.node + " " + r.instance_type + " " + r.idempotency_token);
            cloud_.places.push_back(r.node + " " + r.instance_type + "@" + r.zone);
            if (fail || cloud_.no_capacity_types.count(r.instance_type) || cloud_.failing_nodes.count(r.node) ||
                cloud_.no_capacity_places.count(r.instance_type + "@" + r.zone)) {
                res.error = {ProviderErrorKind::Capacity, "no capacity", 0};
            } else if (!cloud_.next_errors.empty()) {
                res.error = cloud_.next_errors.front();
                cloud_.next_errors.pop_front();
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
        ++cloud_.lists;
        ListResult r;
        for (const auto& [id, node] : live)
            r.instances.push_back(ProviderInstance{id, node, "running", "10.0.0.1", false, false, {}});
        return r;
    }
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>& ids) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        cloud_.terminations.push_back(ids);
        for (const auto& id : ids)
            live.erase(id);
        return {};
    }
    bool& fail;
    std::map<std::string, std::string>& by_token;
    std::map<std::string, std::string>& live;

private:
    FakeCloud& cloud_;
    std::mutex mutex_; // several workers launch at once
};

// Waits without waiting: records each delay and moves the clock on.
class RecordingSleeper final : public Sleeper {
public:
    explicit RecordingSleeper(ManualClock& clock) : clock_(clock) {}
    void sleep(Seconds s) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        waits.push_back(s);
        clock_.advance(s);
    }
    std::vector<Seconds> waits;

private:
    ManualClock& clock_;
    std::mutex mutex_;
};

class HalfRandom final : public RandomSource {
public:
    double uniform() override { return 0.5; }
};

class FakeActuator final : public SlurmActuator {
public:
    ActuatorError set_job_partitions(JobId, const std::vector<std::string>&, std::string_view) override { return {}; }
    ActuatorError set_job_cpus(const JobCpuChange&, std::string_view) override { return {}; }
    ActuatorError set_job_why(JobId, std::string_view) override { return {}; }
    ActuatorError submit_placeholder(const PlaceholderJob&, std::string_view, JobId&) override
    {
        return {"placeholders are not submitted here"};
    }
    ActuatorError cancel_job(JobId, std::string_view) override { return {"jobs are not cancelled here"}; }
    ActuatorError hold_job(JobId job, std::string_view) override
    {
        std::lock_guard<std::mutex> lock(mutex);
        calls.push_back("hold " + std::to_string(job));
        return {};
    }
    ActuatorError requeue_job(JobId, std::string_view) override { return {"jobs are not requeued here"}; }
    ActuatorError place_job(const JobPlacement&, std::string_view) override { return {"jobs are not placed here"}; }
    ActuatorError power(const std::vector<std::string>& nodes, PowerAction action, std::string_view) override
    {
        std::lock_guard<std::mutex> lock(mutex);
        for (const auto& n : nodes)
            calls.push_back(std::string(to_string(action)) + " " + n);
        return {};
    }
    ActuatorError set_node_instance(const NodeInstance& instance, std::string_view) override
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (!instance.address.empty())
            calls.push_back("addr " + instance.node + " " + instance.address);
        instances.push_back(instance);
        return {};
    }
    ActuatorError hand_back_node(const std::string& node, std::string_view, const std::vector<JobId>& meant_for,
                                 std::vector<JobId>&) override
    {
        std::lock_guard<std::mutex> lock(mutex);
        std::string jobs;
        for (JobId id : meant_for)
            jobs += " " + std::to_string(id);
        calls.push_back("hand-back " + node + jobs);
        return {};
    }
    ActuatorError drain(const std::vector<std::string>&, std::string_view) override { return {}; }
    ActuatorError undrain_own(const std::vector<std::string>&, std::string_view, std::vector<std::string>&) override
    {
        return {};
    }
    std::mutex mutex; // several workers act at once
    std::vector<std::string> calls;
    std::vector<NodeInstance> instances;
};

struct Fixture {
    Fixture()
        : scratch("instance-manager-test"), ledger(scratch.file("ledger.sqlite")), log(out, LogLevel::Debug, false)
    {
        NodeGroup g;
        g.name = "cloud";
        g.provider = "fake";
        g.nodes = {"c1", "c2", "c3"};
        g.recovery.capacity_errors = 2;
        g.recovery.boot_failures = 2;
        g.recovery.cool_down = 60;
        settings.groups = {g};
        settings.owner = {"lab", "", "lab"};
        settings.sleeper = &sleeper;
        settings.random = &random;
        settings.retry["fake"] = RetrySettings{3, 2, 60};
        settings.workers = 1; // work runs in request order
        settings.resume_timeout = 60;
        settings.launch_grace = 60;
    }
    void run(const std::function<void(InstanceManager&)>& work)
    {
        std::map<std::string, std::unique_ptr<Provider>> providers;
        providers["fake"] = std::make_unique<FakeProvider>(cloud);
        {
            InstanceManager m(std::move(providers), ledger, actuator, clock, log, settings);
            work(m);
        } // joins the workers
    }
    test::ScratchDir scratch;
    Ledger ledger;
    FakeActuator actuator;
    ManualClock clock{1000};
    RecordingSleeper sleeper{clock};
    HalfRandom random;
    std::ostringstream out;
    Logger log;
    InstanceManagerSettings settings;
    FakeCloud cloud;
};

// Waits until the queued work is done (the manager stays alive for checks).
void drain(InstanceManager& m)
{
    while (m.busy() > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

std::vector<InstanceState> states(Ledger& ledger, const std::string& node)
{
    std::vector<InstanceState> out;
    for (const auto& r : ledger.for_node(node))
        out.push_back(r.state);
    return out;
}

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

// Slurm 23.11+ keeps these on the node and in slurmdbd, for cost per
// instance; a slurmd's registration overwrites them with its own (none unless
// its image passes --instance-id), so they are told again once it is up.
TEST(InstanceManager, SlurmIsToldWhichInstanceANodeIsAtLaunchAndOnceRegistered)
{
    Fixture f;
    f.settings.groups[0].instance_types = {"m5.large"};
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c2"}); });
    LONGS_EQUAL(1, f.actuator.instances.size());
    const NodeInstance& at_launch = f.actuator.instances[0];
    STRCMP_EQUAL("c2", at_launch.node.c_str());
    STRCMP_EQUAL("i-c2-1", at_launch.instance_id.c_str());
    STRCMP_EQUAL("m5.large", at_launch.instance_type.c_str());
    STRCMP_EQUAL("10.0.0.1", at_launch.address.c_str());

    Node up;
    up.name = "c2";
    up.base = NodeBaseState::Idle;
    up.flags = kNodeCloud;
    f.run([&](InstanceManager& m) {
        m.observe_nodes({up});
        m.observe_nodes({up}); // once per registration, not per snapshot
    });
    LONGS_EQUAL(2, f.actuator.instances.size());
    const NodeInstance& registered = f.actuator.instances[1];
    STRCMP_EQUAL("i-c2-1", registered.instance_id.c_str());
    STRCMP_EQUAL("m5.large", registered.instance_type.c_str());
    STRCMP_EQUAL("", registered.address.c_str());
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

TEST(InstanceManager, ThrottledAndTransientLaunchesAreRetriedWithTheSameTokenAfterJitteredBackoff)
{
    Fixture f;
    f.cloud.next_errors = {{ProviderErrorKind::Throttled, "RequestLimitExceeded", 0},
                           {ProviderErrorKind::Transient, "HTTP 503", 0}};
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1"}); });
    LONGS_EQUAL(3, f.cloud.launches.size());
    CHECK(f.cloud.launches[0] == f.cloud.launches[1] && f.cloud.launches[1] == f.cloud.launches[2]);
    // Ceilings 2 s and 4 s (RetryBaseDelay 2), jitter 0.5.
    CHECK(f.sleeper.waits == (std::vector<Seconds>{1, 2}));
    CHECK(states(f.ledger, "c1") == std::vector<InstanceState>{InstanceState::Launching});
    CHECK(f.actuator.calls == std::vector<std::string>{"addr c1 10.0.0.1"});
    CHECK(f.out.str().find("retry 1 in 1.0 s") != std::string::npos);
}

TEST(InstanceManager, RetryAfterIsWaitedAtLeast)
{
    Fixture f;
    f.cloud.next_errors = {{ProviderErrorKind::Throttled, "429", 30}};
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1"}); });
    CHECK(f.sleeper.waits == (std::vector<Seconds>{30}));
    CHECK(states(f.ledger, "c1") == std::vector<InstanceState>{InstanceState::Launching});
}

TEST(InstanceManager, RetriesAreBoundedAndTheNodeIsThenForcedDownWithoutTrippingTheGroup)
{
    Fixture f;
    for (int i = 0; i < 5; ++i)
        f.cloud.next_errors.push_back({ProviderErrorKind::Transient, "timeout", 0});
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1"});
        drain(m);
        CHECK(m.health().hire_limits(f.clock.now()).empty());
    });
    LONGS_EQUAL(3, f.cloud.launches.size()); // LaunchAttempts=3
    LONGS_EQUAL(2, f.sleeper.waits.size());
    CHECK(states(f.ledger, "c1") == std::vector<InstanceState>{InstanceState::Failed});
    CHECK(f.actuator.calls == std::vector<std::string>{"hand-back c1"});
}

TEST(InstanceManager, CapacityFallsBackToTheNextInstanceTypeWithANewToken)
{
    Fixture f;
    f.settings.groups[0].instance_types = {"a", "b", "c"};
    f.cloud.no_capacity_types = {"a"};
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1"}); });
    LONGS_EQUAL(2, f.cloud.launches.size());
    CHECK(f.cloud.launches[0].rfind("c1 a ", 0) == 0);
    CHECK(f.cloud.launches[1].rfind("c1 b ", 0) == 0);
    CHECK(f.cloud.launches[0].substr(5) != f.cloud.launches[1].substr(5));
    auto recs = f.ledger.for_node("c1");
    LONGS_EQUAL(2, recs.size());
    CHECK(recs[0].state == InstanceState::Failed);
    STRCMP_EQUAL("a", recs[0].instance_type.c_str());
    CHECK(recs[1].state == InstanceState::Launching);
    STRCMP_EQUAL("b", recs[1].instance_type.c_str());
    CHECK(f.sleeper.waits.empty());
    CHECK(f.actuator.calls == std::vector<std::string>{"addr c1 10.0.0.1"});
}

TEST(InstanceManager, ANodeWithNoCapacityInAnyTypeFailsOnceForTheBreaker)
{
    Fixture f;
    f.settings.groups[0].instance_types = {"a", "b"};
    f.cloud.no_capacity_types = {"a", "b"};
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1"});
        drain(m);
        auto v = m.health().view("cloud", f.clock.now());
        LONGS_EQUAL(1, v->capacity_errors);
        CHECK(v->state == BreakerState::Closed);
    });
    LONGS_EQUAL(2, f.cloud.launches.size());
    CHECK(states(f.ledger, "c1") == (std::vector<InstanceState>{InstanceState::Failed, InstanceState::Failed}));
    CHECK(f.actuator.calls == std::vector<std::string>{"hand-back c1"});
}

TEST(InstanceManager, AnOpenBreakerRefusesLaunchesUntilAProbeSucceeds)
{
    Fixture f;
    f.cloud.fail = true;
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1", "c2"});
        drain(m);
        CHECK(m.health().hire_limits(f.clock.now()) == (std::map<std::string, std::uint32_t>{{"cloud", 0}}));
        // Refused without asking the provider: no intent, the node goes back.
        m.request(PowerRequestKind::Resume, {"c3"});
        drain(m);
        LONGS_EQUAL(2, f.cloud.launches.size());
        CHECK(f.ledger.for_node("c3").empty());
        // After the cool-down one probe goes out; its success closes the breaker.
        f.clock.advance(60);
        CHECK(m.health().hire_limits(f.clock.now()) == (std::map<std::string, std::uint32_t>{{"cloud", 1}}));
        f.cloud.fail = false;
        m.request(PowerRequestKind::Resume, {"c3"});
        drain(m);
        CHECK(m.health().hire_limits(f.clock.now()).empty());
    });
    CHECK(states(f.ledger, "c3") == std::vector<InstanceState>{InstanceState::Launching});
    CHECK(f.actuator.calls == (std::vector<std::string>{"hand-back c1", "hand-back c2",
                                                        "hand-back c3", "addr c3 10.0.0.1"}));
    CHECK(f.out.str().find("node group cloud: hiring -> backing-off") != std::string::npos);
    CHECK(f.out.str().find("node group cloud is not launching") != std::string::npos);
}

TEST(InstanceManager, QuotaStopsTheGroupWithoutTryingOtherTypes)
{
    Fixture f;
    f.settings.groups[0].instance_types = {"a", "b"};
    f.cloud.next_errors = {{ProviderErrorKind::Quota, "VcpuLimitExceeded", 0}};
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1"});
        drain(m);
        auto v = m.health().view("cloud", f.clock.now());
        CHECK(v->cause == BreakerCause::Quota);
        STRCMP_EQUAL("quota", v->mode.c_str());
    });
    LONGS_EQUAL(1, f.cloud.launches.size());
    CHECK(f.actuator.calls == std::vector<std::string>{"hand-back c1"});
}

TEST(InstanceManager, AuthErrorsStopTheGroupUntilReload)
{
    Fixture f;
    f.cloud.next_errors = {{ProviderErrorKind::Auth, "AuthFailure", 0}};
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1"});
        drain(m);
        f.clock.advance(1e6);
        m.request(PowerRequestKind::Resume, {"c2"});
        drain(m);
        LONGS_EQUAL(1, f.cloud.launches.size());
        m.health().reload(f.settings.groups);
        m.request(PowerRequestKind::Resume, {"c2"});
        drain(m);
    });
    LONGS_EQUAL(2, f.cloud.launches.size());
    CHECK(states(f.ledger, "c2") == std::vector<InstanceState>{InstanceState::Launching});
}

TEST(InstanceManager, EachNodesLaunchOutcomeIsHandledOnItsOwn)
{
    Fixture f;
    f.settings.workers = 3; // concurrently, too
    f.cloud.failing_nodes = {"c2"};
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1", "c2", "c3"}); });
    CHECK(states(f.ledger, "c1") == std::vector<InstanceState>{InstanceState::Launching});
    CHECK(states(f.ledger, "c2") == std::vector<InstanceState>{InstanceState::Failed});
    CHECK(states(f.ledger, "c3") == std::vector<InstanceState>{InstanceState::Launching});
    std::set<std::string> calls(f.actuator.calls.begin(), f.actuator.calls.end());
    CHECK(calls == (std::set<std::string>{"addr c1 10.0.0.1", "hand-back c2", "addr c3 10.0.0.1"}));
}

TEST(InstanceManager, LaunchedNodesThatNeverRegisterPutTheGroupInProtectedMode)
{
    Fixture f;
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1", "c2"});
        drain(m);
        m.request(PowerRequestKind::ResumeFail, {"c1"});
        drain(m);
        CHECK(m.health().hire_limits(f.clock.now()).empty());
        m.request(PowerRequestKind::ResumeFail, {"c2"});
        drain(m);
        auto v = m.health().view("cloud", f.clock.now());
        STRCMP_EQUAL("protected", v->mode.c_str());
        CHECK(v->reason.find("c2 did not register within ResumeTimeout") != std::string::npos);
        // A resume-fail repeated for the same, now terminated, instance counts nothing more.
        m.health().reset("cloud", f.clock.now());
        m.request(PowerRequestKind::ResumeFail, {"c1", "c2"});
        drain(m);
        LONGS_EQUAL(0, m.health().view("cloud", f.clock.now())->boot_failures);
    });
}

TEST(InstanceManager, ANodeRegisteringClearsTheBootFailureCount)
{
    Fixture f;
    Node up;
    up.name = "c2";
    up.base = NodeBaseState::Idle;
    up.flags = kNodeCloud;
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1", "c2"});
        drain(m);
        m.request(PowerRequestKind::ResumeFail, {"c1"});
        drain(m);
        LONGS_EQUAL(1, m.health().view("cloud", f.clock.now())->boot_failures);
        m.observe_nodes({up});
        LONGS_EQUAL(0, m.health().view("cloud", f.clock.now())->boot_failures);
    });
}

TEST(InstanceManager, ReconcileCountsANodeStuckPoweringUpAsABootFailure)
{
    Fixture f;
    f.settings.groups[0].recovery.boot_failures = 1;
    Node stuck;
    stuck.name = "c1";
    stuck.base = NodeBaseState::Idle;
    stuck.flags = kNodeCloud | kNodePoweringUp;
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1"});
        drain(m);
        f.clock.advance(61);
        m.reconcile({stuck}, true);
        STRCMP_EQUAL("protected", m.health().view("cloud", f.clock.now())->mode.c_str());
    });
    CHECK(std::find(f.actuator.calls.begin(), f.actuator.calls.end(), "hand-back c1") != f.actuator.calls.end());
    LONGS_EQUAL(0, f.cloud.live.size());
}

TEST(InstanceManager, AFailedNodeIsHandedBackWithTheJobsSlurmResumedItFor)
{
    Fixture f;
    f.cloud.failing_nodes = {"c1"};
    f.run([](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1", "c2"}, {{7, {"c1"}}, {8, {"c2"}}});
        drain(m);
        // Slurm's resume-fail for c2 comes after it requeued job 8 itself.
        m.request(PowerRequestKind::ResumeFail, {"c2"});
    });
    CHECK(f.actuator.calls == (std::vector<std::string>{"hand-back c1 7", "addr c2 10.0.0.1"}));
}

TEST(InstanceManager, ANodeThatRegisteredNoLongerCarriesItsResumeJobs)
{
    Fixture f;
    f.settings.groups[0].recovery.boot_failures = 5;
    Node up;
    up.name = "c1";
    up.base = NodeBaseState::Idle;
    up.flags = kNodeCloud;
    Node down = up;
    down.base = NodeBaseState::Down;
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1"}, {{7, {"c1"}}});
        drain(m);
        m.observe_nodes({up});
        m.reconcile({down}, true);
    });
    CHECK(f.actuator.calls == (std::vector<std::string>{"addr c1 10.0.0.1", "hand-back c1"}));
}

TEST(InstanceManager, AJobRememberedForANodeBurstdLaunchedItselfIsReleasedWithIt)
{
    Fixture f;
    f.cloud.failing_nodes = {"c1"};
    f.run([](InstanceManager& m) {
        // A route-time launch: no SLURM_RESUME_FILE names the job, the
        // allocation follower does, twice, and Slurm's own resume comes later.
        m.remember_resume_jobs(7, {"c1"});
        m.remember_resume_jobs(7, {"c1"});
        m.request(PowerRequestKind::Resume, {"c1"});
    });
    CHECK(f.actuator.calls == (std::vector<std::string>{"hand-back c1 7"}));
}

TEST(InstanceManager, ANodeSlurmLostContactWithIsReconciledAtOnceAndOnlyOnce)
{
    Fixture f;
    Node up;
    up.name = "c1";
    up.base = NodeBaseState::Idle;
    up.flags = kNodeCloud;
    Node lost = up;
    lost.flags |= kNodeNotResponding;
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1"});
        drain(m);
        m.observe_nodes({up});
        CHECK_FALSE(m.reconcile_lost_contact({up}));
        LONGS_EQUAL(0, f.cloud.lists.load());
        f.cloud.live.clear(); // the provider reclaimed it
        f.clock.advance(120); // past the launch grace that shields fresh instances
        CHECK(m.reconcile_lost_contact({lost}));
        drain(m);
        LONGS_EQUAL(1, f.cloud.lists.load());
        CHECK_FALSE(m.reconcile_lost_contact({lost})); // closed now: nothing to ask about
    });
    CHECK(states(f.ledger, "c1") == std::vector<InstanceState>{InstanceState::Terminated});
    CHECK(f.actuator.calls == (std::vector<std::string>{"addr c1 10.0.0.1", "hand-back c1"}));
    STRCMP_CONTAINS("reconcile now: Slurm lost contact with c1 (i-c1-1)", f.out.str().c_str());
}

TEST(InstanceManager, ASlowNodeCostsOneListingNotOnePerCycle)
{
    Fixture f;
    Node up;
    up.name = "c1";
    up.base = NodeBaseState::Idle;
    up.flags = kNodeCloud;
    Node down = up;
    down.flags |= kNodeNotResponding;
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1"});
        drain(m);
        m.observe_nodes({up});
        CHECK(m.reconcile_lost_contact({down}));
        drain(m);
        CHECK_FALSE(m.reconcile_lost_contact({down}));
        CHECK_FALSE(m.reconcile_lost_contact({down}));
    });
    LONGS_EQUAL(1, f.cloud.lists.load());
    CHECK(states(f.ledger, "c1") == std::vector<InstanceState>{InstanceState::Running});
}

TEST(InstanceManager, ARestartKeepsTheBreakerOpenUntilItsCoolDownEnds)
{
    Fixture f;
    f.cloud.fail = true;
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1", "c2"}); });
    const auto launches = f.cloud.launches.size();
    f.run([&](InstanceManager& m) { // a new burstd on the same ledger
        CHECK(m.health().hire_limits(f.clock.now()) == (std::map<std::string, std::uint32_t>{{"cloud", 0}}));
        m.request(PowerRequestKind::Resume, {"c3"});
        drain(m);
        LONGS_EQUAL(launches, f.cloud.launches.size());
        f.clock.advance(61);
        CHECK(m.health().hire_limits(f.clock.now()) == (std::map<std::string, std::uint32_t>{{"cloud", 1}}));
    });
    STRCMP_CONTAINS("node group cloud: backing-off as an earlier burstd left it (capacity: no capacity)",
                    f.out.str().c_str());
    f.run([&](InstanceManager& m) { m.health().reset("cloud", f.clock.now()); });
    CHECK(f.ledger.breakers().empty());
}

TEST(InstanceManager, CapacityFallsBackZoneByZoneThenTypeByTypeAndRemembersWhereItWasShort)
{
    Fixture f;
    f.settings.groups[0].instance_types = {"a", "b"};
    f.cloud.zones = {"z1", "z2", "z3"};
    f.settings.groups[0].zones = {"z2", "z1"}; // the group's own order, a subset of the provider's
    f.cloud.no_capacity_places = {"a@z2", "a@z1"};
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1"});
        drain(m);
        CHECK(f.cloud.places == (std::vector<std::string>{"c1 a@z2", "c1 a@z1", "c1 b@z2"}));
        const auto recs = f.ledger.for_node("c1");
        LONGS_EQUAL(3, recs.size());
        STRCMP_EQUAL("z2", recs[0].zone.c_str());
        STRCMP_EQUAL("z1", recs[1].zone.c_str());
        CHECK(recs[1].state == InstanceState::Failed);
        STRCMP_EQUAL("b", recs[2].instance_type.c_str());
        STRCMP_EQUAL("z2", recs[2].zone.c_str());
        CHECK(recs[2].state == InstanceState::Launching);
        // One node's launch succeeded: the breaker saw a launch, no failure.
        LONGS_EQUAL(0, m.health().view("cloud", f.clock.now())->capacity_errors);
        const auto short_of = m.placements().views(f.clock.now());
        LONGS_EQUAL(2, short_of.size());
        STRCMP_EQUAL("z1", short_of[0].zone.c_str());
        STRCMP_EQUAL("z2", short_of[1].zone.c_str());
        CHECK(short_of[0].backing_off && short_of[1].backing_off);

        // While they back off, the next node goes straight to b@z2; the short
        // placements come last, still in their order.
        f.cloud.places.clear();
        f.cloud.no_capacity_places = {"a@z2", "a@z1", "b@z2", "b@z1"};
        m.request(PowerRequestKind::Resume, {"c2"});
        drain(m);
        CHECK(f.cloud.places == (std::vector<std::string>{"c2 b@z2", "c2 b@z1", "c2 a@z2", "c2 a@z1"}));

        // Once the cool-down is over a@z2 is first again: a probe, which
        // succeeding forgets its shortage.
        f.clock.advance(61);
        f.cloud.places.clear();
        f.cloud.no_capacity_places.clear();
        m.request(PowerRequestKind::Resume, {"c3"});
        drain(m);
        CHECK(f.cloud.places == (std::vector<std::string>{"c3 a@z2"}));
        for (const auto& v : m.placements().views(f.clock.now()))
            CHECK(!(v.instance_type == "a" && v.zone == "z2"));
    });
}

TEST(InstanceManager, AGroupZoneTheProviderDoesNotListIsRefused)
{
    Fixture f;
    f.cloud.zones = {"z1"};
    f.settings.groups[0].zones = {"z1", "z9"};
    try {
        f.run([](InstanceManager&) {});
        FAIL("a zone outside the provider's Zones= was accepted");
    } catch (const std::invalid_argument& e) {
        STRCMP_CONTAINS("node group cloud: Zones=: zone z9 is not among Provider=fake's Zones=z1", e.what());
    }
}

TEST(InstanceManager, WithoutZonesTheProviderChoosesAndTheLedgerSaysSo)
{
    Fixture f;
    f.settings.groups[0].instance_types = {"a"};
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1"}); });
    CHECK(f.cloud.places == std::vector<std::string>{"c1 a@"});
    STRCMP_EQUAL("", f.ledger.for_node("c1").at(0).zone.c_str());
}

TEST(InstanceManager, ANodeResumedOnlyForScavengerJobsGetsNoInstanceAndGoesBackToSlurm)
{
    Fixture f;
    std::vector<JobId> asked;
    f.run([&](InstanceManager& m) {
        m.set_scavenger_qos("scav");
        m.set_job_qos_lookup([&](JobId job) {
            asked.push_back(job);
            return job == 7 || job == 8 ? std::string("scav") : std::string("normal");
        });
        m.request(PowerRequestKind::Resume, {"c1", "c2", "c3"}, {{7, {"c1", "c2"}}, {8, {"c1"}}, {9, {"c2"}}});
    });
    // c1 is only for scavengers; c2 for a real job too; c3 for no job listed.
    CHECK(f.ledger.for_node("c1").empty());
    LONGS_EQUAL(1, f.ledger.for_node("c2").size());
    LONGS_EQUAL(1, f.ledger.for_node("c3").size());
    CHECK(std::find(f.actuator.calls.begin(), f.actuator.calls.end(), "hand-back c1 7 8") != f.actuator.calls.end());
    CHECK(f.out.str().find("node c1: no instance launched: resumed only for scavenger jobs") != std::string::npos);
}

TEST(InstanceManager, WithoutScavengerQosNoJobIsAskedAbout)
{
    Fixture f;
    bool asked = false;
    f.run([&](InstanceManager& m) {
        m.set_job_qos_lookup([&](JobId) {
            asked = true;
            return std::string("scav");
        });
        m.request(PowerRequestKind::Resume, {"c1"}, {{7, {"c1"}}});
    });
    CHECK(!asked);
    LONGS_EQUAL(1, f.ledger.for_node("c1").size());
}

// Batched launches: a provider that takes several nodes per API call gets
// them in as few calls as its limit allows, one per node group, instance
// type and zone.
namespace {

struct BatchFixture : Fixture {
    BatchFixture()
    {
        cloud.batch_limit = 100;
        NodeGroup gpu = settings.groups[0];
        gpu.name = "gpu";
        gpu.nodes = {"g1", "g2"};
        gpu.instance_types = {"p3"};
        settings.groups.push_back(gpu);
        settings.workers = 2;
    }
};

std::vector<std::string> sorted(std::vector<std::string> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

std::set<std::string> all_calls(const FakeActuator& actuator)
{
    return std::set<std::string>(actuator.calls.begin(), actuator.calls.end());
}

} // namespace

TEST(InstanceManager, OneSuspendOfABatchingProvidersNodesListsItOnceAndTerminatesInOneCall)
{
    BatchFixture f;
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1", "c2", "c3", "g1", "g2"});
        drain(m);
        const int lists_before = f.cloud.lists.load();
        m.request(PowerRequestKind::Suspend, {"c1", "g1", "c2", "c3", "g2"});
        drain(m);
        LONGS_EQUAL(lists_before + 1, f.cloud.lists.load());
    });
    LONGS_EQUAL(1, f.cloud.terminations.size());
    LONGS_EQUAL(5, f.cloud.terminations.front().size());
    CHECK(f.cloud.live.empty());
    for (const char* node : {"c1", "c2", "c3", "g1", "g2"})
        CHECK(states(f.ledger, node) == std::vector<InstanceState>{InstanceState::Terminated});
}

TEST(InstanceManager, ASuspendOfAnUnbatchedProvidersNodesTakesOneListingPerWorker)
{
    Fixture f; // batch limit 1: its calls run side by side instead
    f.settings.workers = 2;
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1", "c2", "c3"});
        drain(m);
        const int lists_before = f.cloud.lists.load();
        m.request(PowerRequestKind::Suspend, {"c1", "c2", "c3"});
        drain(m);
        LONGS_EQUAL(lists_before + 2, f.cloud.lists.load());
    });
    LONGS_EQUAL(2, f.cloud.terminations.size());
    CHECK(f.cloud.live.empty());
}

TEST(InstanceManager, OneResumeBecomesOneLaunchCallPerGroupTypeAndZoneWithResultsMappedBackToNodes)
{
    BatchFixture f;
    ProviderOutcomes outcomes;
    f.settings.outcomes = &outcomes;
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1", "g1", "c2", "c3", "g2"}); });
    LONGS_EQUAL(2, f.cloud.calls.size());
    std::set<std::vector<std::string>> calls;
    for (const auto& c : f.cloud.calls)
        calls.insert(sorted(c));
    CHECK(calls == (std::set<std::vector<std::string>>{{"c1", "c2", "c3"}, {"g1", "g2"}}));
    for (const char* node : {"c1", "c2", "c3", "g1", "g2"}) {
        auto recs = f.ledger.for_node(node);
        LONGS_EQUAL(1, recs.size());
        CHECK(recs[0].state == InstanceState::Launching);
        // The instance the provider created for this node's token, not a neighbour's.
        STRCMP_EQUAL(f.cloud.by_token.at(recs[0].token).c_str(), recs[0].provider_id.c_str());
        CHECK(recs[0].provider_id.rfind(std::string("i-") + node + "-", 0) == 0);
    }
    STRCMP_EQUAL("p3", f.ledger.for_node("g1")[0].instance_type.c_str());
    CHECK(outcomes.launch_requests() == (std::map<std::string, std::uint64_t>{{"cloud", 1}, {"gpu", 1}}));
    LONGS_EQUAL(3, (outcomes.calls()[{"launch", "cloud", "ok"}]));
    CHECK(all_calls(f.actuator) == (std::set<std::string>{"addr c1 10.0.0.1", "addr c2 10.0.0.1", "addr c3 10.0.0.1",
                                                          "addr g1 10.0.0.1", "addr g2 10.0.0.1"}));
}

TEST(InstanceManager, BatchesRespectTheProvidersLimit)
{
    BatchFixture f;
    f.cloud.batch_limit = 2;
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1", "c2", "c3"}); });
    CHECK(f.cloud.calls == (std::vector<std::vector<std::string>>{{"c1", "c2"}, {"c3"}}));
}

TEST(InstanceManager, ZonesSplitABatch)
{
    BatchFixture f;
    f.settings.groups[0].zones = {"z1", "z2"};
    f.cloud.zones = {"z1", "z2"};
    f.cloud.no_capacity_places = {"@z1"};
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1", "c2"}); });
    // Both short in z1 together, then both to z2 in one call again.
    CHECK(f.cloud.calls == (std::vector<std::vector<std::string>>{{"c1", "c2"}, {"c1", "c2"}}));
    CHECK(f.cloud.places == (std::vector<std::string>{"c1 @z1", "c2 @z1", "c1 @z2", "c2 @z2"}));
    STRCMP_EQUAL("z2", f.ledger.for_node("c2").back().zone.c_str());
}

TEST(InstanceManager, EveryNodeOfABatchIsInTheLedgerWithItsTokenBeforeTheCall)
{
    BatchFixture f;
    std::vector<std::string> unrecorded;
    std::size_t seen = 0;
    f.cloud.before_launch = [&](const std::vector<LaunchRequest>& requests) {
        for (const auto& r : requests) {
            ++seen;
            auto rec = f.ledger.find(r.idempotency_token);
            if (!rec || rec->state != InstanceState::Requested || rec->node != r.node)
                unrecorded.push_back(r.node);
        }
    };
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1", "c2", "c3"}); });
    LONGS_EQUAL(3, seen);
    CHECK(unrecorded.empty());
}

// A crash after the intents were written and the batch call went out, before
// any answer was recorded: the next resume adopts what the provider's
// listing shows for those nodes and sends only the rest, with their own
// tokens, so nothing is made twice however the batch is composed now.
TEST(InstanceManager, ABatchRepeatedAfterACrashLaunchesNothingTwice)
{
    BatchFixture f;
    std::map<std::string, std::string> token_of;
    for (const char* node : {"c1", "c2", "c3"})
        token_of[node] = f.ledger.record_launch_intent(LaunchIntent{node, "cloud", "fake", "", false, ""}, 900).token;
    // The provider had created c1 and c2 when burstd died.
    f.cloud.by_token[token_of["c1"]] = "i-before-1";
    f.cloud.by_token[token_of["c2"]] = "i-before-2";
    f.cloud.live = {{"i-before-1", "c1"}, {"i-before-2", "c2"}};
    std::vector<std::string> tokens;
    f.cloud.before_launch = [&](const std::vector<LaunchRequest>& requests) {
        for (const auto& r : requests)
            tokens.push_back(r.idempotency_token);
    };
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1", "c2", "c3"}); });
    CHECK(f.cloud.calls == (std::vector<std::vector<std::string>>{{"c3"}}));
    CHECK(tokens == (std::vector<std::string>{token_of["c3"]}));
    LONGS_EQUAL(1, f.cloud.lists.load());
    LONGS_EQUAL(3, f.cloud.live.size());
    STRCMP_EQUAL("i-before-1", f.ledger.for_node("c1").at(0).provider_id.c_str());
    STRCMP_EQUAL("i-before-2", f.ledger.for_node("c2").at(0).provider_id.c_str());
    for (const char* node : {"c1", "c2", "c3"})
        CHECK(states(f.ledger, node) == std::vector<InstanceState>{InstanceState::Launching});
}

// A 5xx or timeout answers the nodes it hit; only they are asked for again,
// together, with their same tokens, after one backoff.
TEST(InstanceManager, ABatchRetriesOnlyTheNodesWhoseLaunchFailedTransiently)
{
    BatchFixture f;
    f.cloud.next_errors = {{ProviderErrorKind::Transient, "HTTP 503", 0}};
    std::vector<std::string> tokens;
    f.cloud.before_launch = [&](const std::vector<LaunchRequest>& requests) {
        for (const auto& r : requests)
            tokens.push_back(r.node + " " + r.idempotency_token);
    };
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1", "c2", "c3"}); });
    CHECK(f.cloud.calls == (std::vector<std::vector<std::string>>{{"c1", "c2", "c3"}, {"c1"}}));
    STRCMP_EQUAL(tokens[0].c_str(), tokens[3].c_str());
    CHECK(f.sleeper.waits == (std::vector<Seconds>{1}));
    for (const char* node : {"c1", "c2", "c3"})
        CHECK(states(f.ledger, node) == std::vector<InstanceState>{InstanceState::Launching});
}

// Exhausted retries fail each node of the batch as one launch failure of its own.
TEST(InstanceManager, ABatchThatKeepsTimingOutFailsEachNodeLikeASingleLaunch)
{
    BatchFixture f;
    f.settings.retry["fake"] = RetrySettings{2, 2, 60};
    for (int i = 0; i < 4; ++i)
        f.cloud.next_errors.push_back({ProviderErrorKind::Transient, "timeout", 0});
    ProviderOutcomes outcomes;
    f.settings.outcomes = &outcomes;
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1", "c2"}); });
    CHECK(f.cloud.calls == (std::vector<std::vector<std::string>>{{"c1", "c2"}, {"c1", "c2"}}));
    CHECK(states(f.ledger, "c1") == std::vector<InstanceState>{InstanceState::Failed});
    CHECK(states(f.ledger, "c2") == std::vector<InstanceState>{InstanceState::Failed});
    CHECK(all_calls(f.actuator) == (std::set<std::string>{"hand-back c1", "hand-back c2"}));
    LONGS_EQUAL(2, (outcomes.calls()[{"launch", "cloud", "transient"}]));
}

// All or nothing per job: one node without an instance ends the instances
// of the job's other nodes at once, in one terminate call, and the job goes
// back to the queue.
TEST(InstanceManager, AJobWithANodeLeftWithoutAnInstanceHasItsOtherInstancesTerminatedAndIsRequeued)
{
    BatchFixture f;
    f.cloud.failing_nodes = {"c2"};
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1", "c2", "c3", "g1"}, {{7, {"c1", "c2", "c3"}}, {8, {"g1"}}});
        drain(m);
        // The shortage counts for the group's backoff like any failed launch.
        LONGS_EQUAL(1, m.health().view("cloud", f.clock.now())->capacity_errors);
    });
    LONGS_EQUAL(1, f.cloud.terminations.size());
    CHECK(sorted(f.cloud.terminations[0]) ==
          sorted({f.ledger.for_node("c1").at(0).provider_id, f.ledger.for_node("c3").at(0).provider_id}));
    CHECK(states(f.ledger, "c1") == std::vector<InstanceState>{InstanceState::Terminated});
    CHECK(states(f.ledger, "c2") == std::vector<InstanceState>{InstanceState::Failed});
    CHECK(states(f.ledger, "c3") == std::vector<InstanceState>{InstanceState::Terminated});
    CHECK(states(f.ledger, "g1") == std::vector<InstanceState>{InstanceState::Launching});
    CHECK(f.cloud.live.size() == 1 && f.cloud.live.begin()->second == "g1");
    const std::set<std::string> calls = all_calls(f.actuator);
    for (const char* expected : {"hand-back c1 7", "hand-back c2 7", "hand-back c3 7", "addr g1 10.0.0.1"})
        CHECK_TEXT(calls.count(expected), expected);
    CHECK(!calls.count("hold 7"));
    CHECK(f.out.str().find("job 7: not all of its nodes got an instance") != std::string::npos);
}

TEST(InstanceManager, PartialJobLaunchHoldHoldsTheJobAfterItsNodesWentBack)
{
    BatchFixture f;
    f.settings.partial_job = PartialJobLaunch::Hold;
    f.cloud.failing_nodes = {"c1"};
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1", "c2"}, {{7, {"c1", "c2"}}}); });
    CHECK(f.actuator.calls.back() == "hold 7");
    CHECK(all_calls(f.actuator).count("hand-back c2 7"));
    LONGS_EQUAL(0, f.cloud.live.size());
}

// A provider without batches launches a job's nodes one call each, as many
// at once as there are workers, in one unit of work, so the rule holds there too.
TEST(InstanceManager, AllOrNothingHoldsForProvidersThatLaunchNodeByNode)
{
    Fixture f;
    f.settings.workers = 3;
    f.cloud.failing_nodes = {"c3"};
    f.run([](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1", "c2", "c3"}, {{7, {"c1", "c2", "c3"}}});
    });
    std::vector<std::vector<std::string>> calls = f.cloud.calls;
    std::sort(calls.begin(), calls.end());
    CHECK(calls == (std::vector<std::vector<std::string>>{{"c1"}, {"c2"}, {"c3"}}));
    LONGS_EQUAL(0, f.cloud.live.size());
    CHECK(states(f.ledger, "c1") == std::vector<InstanceState>{InstanceState::Terminated});
    CHECK(states(f.ledger, "c2") == std::vector<InstanceState>{InstanceState::Terminated});
}

TEST(InstanceManager, AJobWithANodeItsBackingOffGroupRefusesLaunchesNoneOfItsNodes)
{
    BatchFixture f;
    f.cloud.fail = true;
    f.run([&](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1", "c2"});
        drain(m); // two capacity errors open the breaker of "cloud"
        f.cloud.fail = false;
        m.request(PowerRequestKind::Resume, {"c3", "g1"}, {{9, {"c3", "g1"}}});
    });
    // g1 is not even launched: its intent is closed and it goes back with the job.
    CHECK(states(f.ledger, "g1") == std::vector<InstanceState>{InstanceState::Failed});
    CHECK(f.ledger.for_node("c3").empty());
    CHECK(f.cloud.calls == (std::vector<std::vector<std::string>>{{"c1", "c2"}}));
    CHECK(all_calls(f.actuator).count("hand-back g1 9"));
    LONGS_EQUAL(0, f.cloud.live.size());
}

TEST(InstanceManager, CompleteJobsKeepTheirInstances)
{
    BatchFixture f;
    f.run([](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1", "c2", "c3"}, {{7, {"c1", "c2"}}, {8, {"c3"}}});
    });
    LONGS_EQUAL(3, f.cloud.live.size());
    CHECK(f.cloud.terminations.empty());
}

// Where the API takes a minimum count, a job's nodes are one call of their
// own asking for all of them; a shortfall then creates nothing to terminate.
TEST(InstanceManager, AJobsNodesAreOneCallAskingForAllOrNone)
{
    BatchFixture f;
    f.cloud.honours_minimum = true;
    f.cloud.failing_nodes = {"c2"};
    f.run([](InstanceManager& m) { m.request(PowerRequestKind::Resume, {"c1", "c2", "c3"}, {{7, {"c1", "c2"}}}); });
    CHECK(f.cloud.calls == (std::vector<std::vector<std::string>>{{"c1", "c2"}, {"c3"}}));
    CHECK(f.cloud.all_or_nothing_calls == (std::vector<bool>{true, false}));
    CHECK(f.cloud.terminations.empty());
    CHECK(states(f.ledger, "c1") == std::vector<InstanceState>{InstanceState::Failed});
    CHECK(states(f.ledger, "c3") == std::vector<InstanceState>{InstanceState::Launching});
    const std::set<std::string> calls = all_calls(f.actuator);
    CHECK(calls.count("hand-back c1 7") && calls.count("hand-back c2 7") && calls.count("addr c3 10.0.0.1"));
}

// Jobs sharing a node: withdrawing one job's nodes leaves the other short too.
TEST(InstanceManager, AJobLeftShortByAnotherJobsWithdrawalIsWithdrawnToo)
{
    BatchFixture f;
    f.cloud.failing_nodes = {"c3"};
    f.run([](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1", "c2", "c3"}, {{7, {"c1", "c2"}}, {8, {"c2", "c3"}}});
    });
    LONGS_EQUAL(0, f.cloud.live.size());
    for (const char* node : {"c1", "c2"})
        CHECK(states(f.ledger, node) == std::vector<InstanceState>{InstanceState::Terminated});
    const std::set<std::string> calls = all_calls(f.actuator);
    CHECK(calls.count("hand-back c1 7") && calls.count("hand-back c3 8"));
}

// The scale the batching is for: 1,000 nodes, one call, each node its own instance.
TEST(InstanceManager, AThousandNodeResumeIsOneProviderCall)
{
    Fixture f;
    f.cloud.batch_limit = 1000;
    std::vector<std::string> nodes;
    for (int i = 1; i <= 1000; ++i)
        nodes.push_back("b" + std::to_string(i));
    f.settings.groups[0].nodes = nodes;
    f.run([&](InstanceManager& m) { m.request(PowerRequestKind::Resume, nodes); });
    LONGS_EQUAL(1, f.cloud.calls.size());
    LONGS_EQUAL(1000, f.cloud.live.size());
    LONGS_EQUAL(1000, f.ledger.in_state(InstanceState::Launching).size());
    std::set<std::string> ids;
    for (const auto& r : f.ledger.in_state(InstanceState::Launching))
        ids.insert(r.provider_id);
    LONGS_EQUAL(1000, ids.size());
}

// A node launched early (EarlyLaunch) and then resumed by Slurm, in another
// batch: its instance is known, so no call can start a second one.
TEST(InstanceManager, ANodeWhoseInstanceIsKnownIsNotSentAgain)
{
    BatchFixture f;
    f.run([](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1", "c2", "c3"});
        drain(m);
        m.request(PowerRequestKind::Resume, {"c2", "c3"}, {{7, {"c2", "c3"}}});
    });
    CHECK(f.cloud.calls == (std::vector<std::vector<std::string>>{{"c1", "c2", "c3"}}));
    LONGS_EQUAL(3, f.cloud.live.size());
    CHECK(states(f.ledger, "c2") == std::vector<InstanceState>{InstanceState::Launching});
}

TEST(InstanceManager, AJobsNodeByNodeCallsRunAtOnceAsManyAsThereAreWorkers)
{
    Fixture f;
    f.settings.workers = 3;
    std::mutex m;
    std::condition_variable all_in;
    int in_flight = 0, most = 0;
    f.cloud.before_launch = [&](const std::vector<LaunchRequest>&) {
        std::unique_lock<std::mutex> lock(m);
        most = std::max(most, ++in_flight);
        all_in.notify_all();
        // Sequential calls would each wait the whole second here.
        all_in.wait_for(lock, std::chrono::seconds(1), [&] { return most == 3; });
        --in_flight;
    };
    f.run([](InstanceManager& mgr) {
        mgr.request(PowerRequestKind::Resume, {"c1", "c2", "c3"}, {{7, {"c1", "c2", "c3"}}});
    });
    LONGS_EQUAL(3, most);
    LONGS_EQUAL(3, f.cloud.live.size());
}

// SLURM_RESUME_FILE may name a job's node that is not resumed now (it is up
// already): only the nodes launched together are all or nothing.
TEST(InstanceManager, AJobsNodeNotInTheResumeDoesNotCountAsMissing)
{
    BatchFixture f;
    f.run([](InstanceManager& m) {
        m.request(PowerRequestKind::Resume, {"c1", "c2"}, {{7, {"c1", "c2", "c3"}}});
    });
    CHECK(f.cloud.all_or_nothing_calls == (std::vector<bool>{true}));
    LONGS_EQUAL(2, f.cloud.live.size());
    CHECK(f.cloud.terminations.empty());
}
