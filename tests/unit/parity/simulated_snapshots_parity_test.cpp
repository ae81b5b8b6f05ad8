// burstd's cycle, fed the states burstsim's engine decided on (the snapshot,
// and its instances as burstd's ledger would hold them), takes the actions
// burstsim's engine took, in the same order, with the same reasons.
#include "app/instances/instance_manager.hpp"
#include "app/logger.hpp"
#include "app/cycle/policy_cycle.hpp"
#include "ledger/ledger.hpp"
#include "policy/policy_registry.hpp"
#include "sim/engine/simulator.hpp"
#include "slurm/slurm_actuator.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "scratch_dir.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// What the engine's cycle saw and did, in order.
struct Decided {
    ClusterState state;
    std::vector<std::string> actions; // "policy: action: reason"
};
using Event = std::variant<Decided, JobEnd>;

std::string line(const std::string& policy, const Action& a)
{
    return policy + ": " + action_text(a) + ": " + a.reason;
}

// A link of the engine's chain that writes down what it is shown and asks
// for; the first link also writes down the state and the job ends.
class Recorded final : public Policy {
public:
    Recorded(std::unique_ptr<Policy> policy, std::vector<Event>& log, bool first)
        : policy_(std::move(policy)), log_(log), first_(first)
    {
    }
    std::string_view name() const override { return policy_->name(); }
    Decision decide(const ClusterState& state, const Clock& clock) override
    {
        if (first_)
            log_.push_back(Decided{state, {}});
        Decision d = policy_->decide(state, clock);
        for (const auto& a : d.actions)
            std::get<Decided>(log_.back()).actions.push_back(line(std::string(name()), a));
        return d;
    }
    void observe(const JobEnd& end) override
    {
        if (first_)
            log_.push_back(end);
        policy_->observe(end);
    }

private:
    std::unique_ptr<Policy> policy_;
    std::vector<Event>& log_;
    bool first_;
};

class AgreeingActuator final : public SlurmActuator {
public:
    ActuatorError set_job_partitions(JobId, const std::vector<std::string>&, std::string_view) override { return {}; }
    ActuatorError set_job_cpus(const JobCpuChange&, std::string_view) override { return {}; }
    ActuatorError set_job_why(JobId, std::string_view) override { return {}; }
    ActuatorError submit_placeholder(const PlaceholderJob&, std::string_view, JobId&) override
    {
        return {"placeholders are not submitted here"};
    }
    ActuatorError cancel_job(JobId, std::string_view) override { return {"jobs are not cancelled here"}; }
    ActuatorError hold_job(JobId, std::string_view) override { return {"jobs are not held here"}; }
    ActuatorError requeue_job(JobId, std::string_view) override { return {"jobs are not requeued here"}; }
    ActuatorError place_job(const JobPlacement&, std::string_view) override { return {"jobs are not placed here"}; }
    ActuatorError power(const std::vector<std::string>&, PowerAction, std::string_view) override { return {}; }
    ActuatorError set_node_instance(const NodeInstance&, std::string_view) override { return {}; }
    ActuatorError hand_back_node(const std::string&, std::string_view, const std::vector<JobId>&,
                                 std::vector<JobId>&) override
    {
        return {};
    }
    ActuatorError drain(const std::vector<std::string>&, std::string_view) override { return {}; }
    ActuatorError undrain_own(const std::vector<std::string>&, std::string_view, std::vector<std::string>&) override
    {
        return {};
    }
};

class EmptyProvider final : public Provider {
public:
    std::string_view name() const override { return "sim"; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>&) override { return {}; }
    ListResult list(const InstanceTags&) override { return {}; }
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>&) override { return {}; }
};

// Keeps a ledger what burstd's would be had it launched the engine's
// instances: a record per instance, running once up, closed when it is gone
// (at the power-down the replay's result names).
class LedgerMirror {
public:
    LedgerMirror(Ledger& ledger, const SimResult& result) : ledger_(ledger)
    {
        for (const auto& span : result.instances)
            down_[{span.group, span.launched}] = span.down;
    }
    void follow(const ClusterState& state, const std::vector<std::string>& groups, Time now)
    {
        std::map<std::string, const Instance*> current;
        for (const auto& i : state.instances)
            current[i.node] = &i;
        for (auto it = open_.begin(); it != open_.end();) {
            auto now_there = current.find(it->first);
            if (now_there != current.end() && now_there->second->launched_at == it->second.launched_at) {
                ++it;
                continue;
            }
            const int group = int(std::find(groups.begin(), groups.end(), it->second.group) - groups.begin());
            const Time down = down_.count({group, it->second.launched_at}) ? down_[{group, it->second.launched_at}]
                                                                          : now;
            ledger_.record_terminate_intent(it->second.token, "powered down", down);
            ledger_.mark_terminated(it->second.token, down);
            it = open_.erase(it);
        }
        for (const auto& [node, i] : current) {
            auto have = open_.find(node);
            if (have == open_.end()) {
                LaunchIntent intent{i->node, i->node_group, "sim", i->instance_type, i->spot, ""};
                const LedgerRecord r = ledger_.record_launch_intent(intent, i->requested_at);
                ledger_.mark_launched(r.token, i->provider_id, "", i->launched_at);
                have = open_.emplace(node, Open{r.token, i->node_group, i->launched_at, false}).first;
            }
            if (i->state == InstanceState::Running && !have->second.running) {
                ledger_.mark_running(have->second.token, i->running_since);
                have->second.running = true;
            }
        }
    }

private:
    struct Open {
        std::string token;
        std::string group;
        Time launched_at;
        bool running;
    };
    Ledger& ledger_;
    std::map<std::pair<int, Time>, Time> down_;
    std::map<std::string, Open> open_;
};

NodeGroup group(const std::string& name, std::uint32_t cpus, double price, Seconds boot, std::uint32_t max)
{
    NodeGroup g;
    g.name = name;
    g.provider = "sim";
    g.partition = name;
    g.cpus = cpus;
    g.price_per_hour = price;
    g.boot_time = boot;
    g.max_count = max;
    for (std::uint32_t i = 1; i <= max; ++i)
        g.nodes.push_back(name + "-" + std::to_string(i));
    return g;
}

// The engine's snapshot as slurmctld would export it: burstsim lists a
// cloud node only from its first power-up, Slurm every node slurm.conf
// defines, the others powered down.
Snapshot as_slurm_lists_it(const ClusterState& state, const std::vector<NodeGroup>& groups)
{
    Snapshot snapshot = state.snapshot;
    std::set<std::string> listed;
    for (const auto& n : snapshot.nodes)
        listed.insert(n.name);
    for (const auto& g : groups)
        for (const auto& name : g.nodes)
            if (!listed.count(name)) {
                Node n;
                n.name = name;
                n.cpus = g.cpus;
                n.partitions = {g.partition};
                n.flags = kNodeCloud | kNodePoweredDown;
                snapshot.nodes.push_back(std::move(n));
                auto p = std::find_if(snapshot.partitions.begin(), snapshot.partitions.end(),
                                      [&](const Partition& p) { return p.name == g.partition; });
                p->nodes.push_back(name);
            }
    return snapshot;
}

// Waves of 2-8-core jobs on an 8-core site: each wave queues, some burst.
std::vector<TraceJob> waves()
{
    std::vector<TraceJob> jobs;
    JobId id = 1;
    for (int wave = 0; wave < 6; ++wave)
        for (int k = 0; k < 7; ++k) {
            TraceJob j;
            j.id = id++;
            j.submit = 1000 + wave * 2400 + k * 30;
            j.cpus = std::uint32_t(2 + (k * 3) % 7);
            j.runtime = 300 + (k * 211 + wave * 97) % 1500;
            j.time_limit = 2 * j.runtime;
            j.user = k % 2 ? "ann" : "bob";
            j.account = k % 2 ? "bio" : "chem";
            j.category = j.account + "/w";
            jobs.push_back(j);
        }
    return jobs;
}

} // namespace

TEST_GROUP(SimulatedSnapshotsParity){};

TEST(SimulatedSnapshotsParity, BurstdTakesTheActionsTheEngineTookOnTheSameStates)
{
    const std::vector<std::string> chain = {"forecast", "boot-window"};
    SimConfig site;
    site.local_cores = 8;
    site.local_node_cores = 4;
    site.cycle = 60;
    site.groups = {group("cheap", 4, 0.20, 120, 4), group("fast", 8, 0.90, 60, 2)};
    std::vector<Event> log;
    PolicyChain links;
    for (const auto& name : chain)
        links.push_back(std::make_unique<Recorded>(make_policy(name, PolicyParams{}), log, links.empty()));
    DecisionCycle engine_cycle(std::move(links));
    const std::vector<TraceJob> trace = waves();
    const SimResult result = simulate(site, trace, engine_cycle);
    CHECK(result.instances_launched > 0);

    test::ScratchDir scratch{"simulated-parity-test"};
    std::ostringstream log_text;
    Logger logger(log_text, LogLevel::Error, false);
    Ledger ledger(scratch.file("ledger.sqlite"));
    AgreeingActuator actuator;
    ManualClock clock(0);
    std::map<std::string, std::unique_ptr<Provider>> providers;
    providers["sim"] = std::make_unique<EmptyProvider>();
    InstanceManagerSettings settings;
    settings.groups = site.groups;
    InstanceManager instances(std::move(providers), ledger, actuator, clock, logger, std::move(settings));
    PolicyChain burstd_chain;
    for (const auto& name : chain)
        burstd_chain.push_back(make_policy(name, PolicyParams{}));
    // Reconciliation would judge the mirrored instances against a provider
    // that has none: once, at the start, as burstd does on its first cycle.
    PolicyCycle burstd(std::move(burstd_chain), ledger, actuator, instances, 1000000);
    BurstdConfig config;
    config.cluster_name = "sim";
    config.cycle_interval = site.cycle;
    config.node_groups = site.groups;
    LedgerMirror mirror(ledger, result);
    std::vector<std::string> names;
    for (const auto& g : site.groups)
        names.push_back(g.name);

    std::size_t decisions = 0, actions = 0;
    for (const auto& event : log) {
        if (const auto* end = std::get_if<JobEnd>(&event)) {
            burstd.observe(*end);
            continue;
        }
        const Decided& d = std::get<Decided>(event);
        const Time now = d.state.snapshot.time;
        clock.set(now);
        mirror.follow(d.state, names, now);
        const Snapshot slurms = as_slurm_lists_it(d.state, site.groups);
        burstd.run(CycleContext{config, &slurms, now, logger});
        // The first cycle's reconcile runs on burstd's workers and reads the
        // ledger the mirror writes: it must be done before the mirror goes on.
        while (instances.busy() != 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        std::vector<std::string> taken;
        for (const auto& a : burstd.last_outcome().actions)
            taken.push_back(line(a.policy, a.action));
        ++decisions;
        actions += d.actions.size();
        if (taken != d.actions) {
            std::string engine, daemon;
            for (const auto& a : d.actions)
                engine += "\n  " + a;
            for (const auto& a : taken)
                daemon += "\n  " + a;
            FAIL(("decision " + std::to_string(decisions) + " at " + std::to_string(now) + ": burstsim's engine:" +
                  engine + "\nburstd:" + daemon)
                     .c_str());
        }
    }
    CHECK(decisions > 100);
    CHECK(actions > 10);
}
