#include "cycle_parity.hpp"

#include "app/config/budget_conf.hpp"
#include "app/config/config_parser.hpp"
#include "app/instances/instance_manager.hpp"
#include "app/logger.hpp"
#include "app/cycle/policy_cycle.hpp"
#include "app/config/slurm_conf_timeouts.hpp"
#include "ingest/message_parser.hpp"
#include "ingest/recorded_stream.hpp"
#include "ledger/ledger.hpp"
#include "policy/site/site_view.hpp"
#include "sim/replay/snapshot_replay.hpp"
#include "slurm/slurm_actuator.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

namespace burst::parity {
namespace {

// Slurm says yes to everything and nothing changes: the next snapshot shows
// what the recorded Slurm did.
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

// A provider with no instance: nothing is launched in a replay.
class EmptyProvider final : public Provider {
public:
    std::string_view name() const override { return "replay"; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>&) override { return {}; }
    ListResult list(const InstanceTags&) override { return {}; }
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>&) override { return {}; }
};

std::string line(std::uint64_t seq, const std::string& policy, const Action& action)
{
    return "seq " + std::to_string(seq) + ": " + policy + ": " + action_text(action) + ": " + action.reason;
}

} // namespace

Report compare_recording(const std::string& recording, const std::string& burstd_conf, const std::string& slurm_conf)
{
    Report report;
    ConfigParseResult loaded = load_config(burstd_conf);
    if (!loaded.ok()) {
        report.error = burstd_conf + ": " + loaded.errors.front();
        return report;
    }
    BurstdConfig config = loaded.config;
    if (!slurm_conf.empty())
        config.slurm_conf = slurm_conf;
    std::ifstream in(recording);
    if (!in) {
        report.error = "cannot read " + recording;
        return report;
    }
    std::vector<RecordedMessage> messages;
    RecordedStream recorded;
    std::size_t number = 0;
    for (std::string text; std::getline(in, text);) {
        ++number;
        ParsedMessage parsed = parse_message(text);
        if (!parsed.message) {
            report.error = recording + ":" + std::to_string(number) + ": " + parsed.error;
            return report;
        }
        if (auto* e = std::get_if<JobEnd>(&parsed.message->body)) {
            messages.emplace_back(std::move(*e));
            ++report.job_ends;
        } else if (const Snapshot* state = recorded.feed(*parsed.message)) {
            messages.emplace_back(*state);
            ++report.snapshots;
        } else if (!recorded.refused().empty()) {
            report.error = recording + ":" + std::to_string(number) + ": delta not applied: " + recorded.refused();
            return report;
        }
    }
    const SlurmConfTimeouts timeouts = read_slurm_conf_timeouts(config.slurm_conf);

    // burstd: its own cycle, ledger and actuator.
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("cycle-parity-" + std::to_string(::getpid()) + "-" + std::to_string(number));
    std::filesystem::create_directories(dir);
    {
        std::ostringstream log_text;
        Logger log(log_text, LogLevel::Error, false);
        Ledger ledger((dir / "ledger.sqlite").string());
        AgreeingActuator actuator;
        ManualClock clock(0);
        std::map<std::string, std::unique_ptr<Provider>> providers;
        for (const auto& p : config.providers)
            providers[p.name] = std::make_unique<EmptyProvider>();
        InstanceManagerSettings settings;
        settings.groups = config.node_groups;
        InstanceManager instances(std::move(providers), ledger, actuator, clock, log, std::move(settings));
        std::vector<std::string> errors;
        // The recorded burstd's instances are not in this ledger: reconciling
        // would take the nodes it launched for lost boots.  Only the first
        // cycle reconciles, as burstd's first does, before any node is up.
        PolicyCycle cycle(make_policy_chain(config.policies, errors), ledger, actuator, instances, 1000000);
        cycle.set_slurm_timeouts(timeouts);
        for (const auto& message : messages) {
            if (const auto* end = std::get_if<JobEnd>(&message)) {
                cycle.observe(*end);
                continue;
            }
            const Snapshot& snapshot = std::get<Snapshot>(message);
            clock.set(snapshot.time);
            cycle.run(CycleContext{config, &snapshot, snapshot.time, log});
            for (const auto& a : cycle.last_outcome().actions)
                report.burstd.push_back(line(snapshot.seq, a.policy, a.action));
        }
    }
    std::filesystem::remove_all(dir);

    // burstsim: its replay of the same messages through the same site.
    ReplaySite site;
    site.groups = config.node_groups;
    site.budgets = budget_limits(config.budgets);
    for (const auto& g : site.groups)
        site.suspend_times[g.name] = timeouts.suspend_time_of(group_partition(g));
    site.resume_timeout = timeouts.resume_timeout;
    site.cycle_interval = config.cycle_interval;
    std::vector<std::string> errors;
    DecisionCycle cycle(make_policy_chain(config.policies, errors));
    for (const auto& c : replay_snapshots(messages, site, cycle))
        for (const auto& a : c.outcome.actions)
            report.burstsim.push_back(line(c.seq, a.policy, a.action));
    return report;
}

std::string first_difference(const Report& report)
{
    const std::size_t n = std::max(report.burstd.size(), report.burstsim.size());
    for (std::size_t i = 0; i < n; ++i) {
        const std::string a = i < report.burstd.size() ? report.burstd[i] : "(nothing)";
        const std::string b = i < report.burstsim.size() ? report.burstsim[i] : "(nothing)";
        if (a != b)
            return "action " + std::to_string(i + 1) + ": burstd: " + a + " | burstsim: " + b;
    }
    return "";
}

} // namespace burst::parity
