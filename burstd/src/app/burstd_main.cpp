// burstd: the slurm-burst daemon.  See burstd(8).

#include "app/instances/allocation_follower.hpp"
#include "app/config/config_parser.hpp"
#include "app/daemon.hpp"
#include "app/heap_tuning.hpp"
#include "app/control/job_explanation.hpp"
#include "app/instances/instance_manager.hpp"
#include "app/instances/locked_actuator.hpp"
#include "app/logger.hpp"
#include "app/config/node_group_zones.hpp"
#include "app/cycle/policy_cycle.hpp"
#include "app/service_notifier.hpp"
#include "app/config/slurm_conf_timeouts.hpp"
#include "app/state_dir_lock.hpp"
#include "ledger/ledger.hpp"
#include "provider/http/curl_multi.hpp"
#include "common/config_values.hpp"
#include "policy/policy_registry.hpp"
#include "policy/threads/thread_allocator_registry.hpp"
#include "provider/provider_registry.hpp"
#include "slurm/libslurm_actuator.hpp"
#include "slurm/libslurm_job_probe.hpp"

#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr std::size_t kProviderWorkers = 4;
// How often a routed job is probed until Slurm allocates it (EarlyLaunch=):
// one slurm_load_job RPC per job and poll.
constexpr burst::Seconds kFollowPoll = 0.05;

// Everything the configuration names that only the factories can judge.
struct BuiltParts {
    std::map<std::string, std::unique_ptr<burst::Provider>> providers;
    std::vector<std::unique_ptr<burst::Policy>> chain;
    std::unique_ptr<burst::ThreadStage> threads;
    std::vector<std::string> errors;
};

BuiltParts build_parts(const burst::BurstdConfig& config, const burst::ProviderEnvironment& env)
{
    BuiltParts parts;
    for (const auto& p : config.providers) {
        try {
            parts.providers[p.name] = burst::make_provider(p, config.provider_site(), env);
        } catch (const burst::ProviderConfigError& e) {
            parts.errors.push_back(e.what());
        }
    }
    for (auto& e : burst::node_group_zone_errors(config, parts.providers))
        parts.errors.push_back(std::move(e));
    parts.chain = burst::make_policy_chain(config.policies, parts.errors);
    if (config.thread_policy) {
        parts.threads = burst::make_thread_stage(*config.thread_policy, parts.errors);
        if (parts.threads)
            parts.threads->set_decision_interval(config.cycle_interval);
    }
    return parts;
}

burst::PowerRequestKind power_kind(burst::ControlCommand command)
{
    switch (command) {
    case burst::ControlCommand::Suspend: return burst::PowerRequestKind::Suspend;
    case burst::ControlCommand::ResumeFail: return burst::PowerRequestKind::ResumeFail;
    default: return burst::PowerRequestKind::Resume;
    }
}

constexpr const char* kDefaultConfig = "/etc/slurm/burstd.conf";

void usage(std::ostream& out)
{
    out << "usage: burstd [-f FILE] [--check-config]\n"
           "  -f FILE          configuration file (default " << kDefaultConfig << ")\n"
           "  --check-config   check the configuration, report its errors and exit\n"
           "  --list-policies  print the policies, their parameters and the expanders and thread policies, and exit\n"
           "  --list-providers print the provider types and their keys, and exit\n"
           "  -V, --version    print the version and exit\n";
}

} // namespace

int main(int argc, char** argv)
{
    burst::keep_cycle_buffers_in_heap();
    std::string config_path = kDefaultConfig;
    bool check_only = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if ((arg == "-f" || arg == "--config") && i + 1 < argc) {
            config_path = argv[++i];
        } else if (arg == "--check-config") {
            check_only = true;
        } else if (arg == "--list-policies") {
            std::cout << burst::policy_listing() << burst::thread_allocator_listing();
            return 0;
        } else if (arg == "--list-providers") {
            for (const auto& type : burst::provider_registry().entries())
                std::cout << type.name << ": " << type.description << "\n    keys: " << burst::joined(type.keys())
                          << "\n";
            return 0;
        } else if (arg == "-V" || arg == "--version") {
            std::cout << "burstd " << PACKAGE_VERSION << "\n";
            return 0;
        } else if (arg == "-h" || arg == "--help") {
            usage(std::cout);
            return 0;
        } else {
            std::cerr << "burstd: unknown argument \"" << arg << "\"\n";
            usage(std::cerr);
            return 2;
        }
    }

    // SIGHUP re-reads the file; an absolute path survives any later chdir.
    std::error_code ec;
    std::filesystem::path absolute = std::filesystem::absolute(config_path, ec);
    if (!ec)
        config_path = absolute.lexically_normal().string();
    burst::ConfigParseResult loaded = burst::load_config(config_path);
    for (const auto& e : loaded.errors)
        std::cerr << e << "\n";
    if (!loaded.ok()) {
        std::cerr << "burstd: " << loaded.errors.size() << " error(s) in " << config_path << "\n";
        return 1;
    }
    // Every provider's HTTPS goes through one libcurl multi handle on the
    // daemon's io_context; building providers sends nothing, so
    // --check-config needs the loop but never runs it.
    boost::asio::io_context io;
    burst::CurlMulti http(io);
    burst::SystemClock clock;
    burst::RequestBudgets request_budgets;
    const burst::ProviderEnvironment provider_env{
        http, clock, [](burst::Seconds s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); },
        request_budgets};
    BuiltParts parts = build_parts(loaded.config, provider_env);
    for (const auto& e : parts.errors)
        std::cerr << e << "\n";
    if (!parts.errors.empty()) {
        std::cerr << "burstd: " << parts.errors.size() << " error(s) in " << config_path << "\n";
        return 1;
    }
    if (check_only) {
        const auto& c = loaded.config;
        std::cout << config_path << ": OK: cluster " << c.cluster_name << ", " << c.providers.size() << " providers, "
                  << c.node_groups.size() << " node groups, " << c.policies.size() << " policies, "
                  << c.budgets.size() << " budgets\n";
        return 0;
    }

    // journald stamps each line itself; a terminal or file gets our own stamp.
    burst::Logger log(std::cerr, loaded.config.log_level, std::getenv("JOURNAL_STREAM") == nullptr);
    // Read (and unset) before any thread starts: setenv/unsetenv are not thread-safe.
    std::string notify_error;
    const burst::ServiceNotifier notifier = burst::ServiceNotifier::from_environment(notify_error);
    if (!notify_error.empty())
        log.error(notify_error);
    try {
        const burst::BurstdConfig config = loaded.config; // loaded.config moves into the daemon
        // Before the ledger and the sockets: a second burstd on this StateDir
        // stops here, having touched neither.  Released last, after the
        // daemon has removed its sockets.
        const burst::StateDirLock lock(config.state_dir);
        log.verbose("locked " + lock.path());
        std::filesystem::create_directories(std::filesystem::path(config.ledger_path).parent_path());
        burst::Ledger ledger(config.ledger_path);
        burst::LibslurmActuator libslurm(config.slurm_conf, [&log](const std::string& line) { log.info(line); });
        burst::LockedActuator actuator(libslurm);
        burst::SlurmConfTimeouts timeouts = burst::read_slurm_conf_timeouts(config.slurm_conf);
        if (!timeouts.error.empty())
            log.error(timeouts.error);
        burst::InstanceManagerSettings settings;
        settings.owner.cluster = config.cluster_name;
        settings.owner.burstd_id = config.burstd_id;
        settings.groups = config.node_groups;
        settings.resume_timeout = timeouts.resume_timeout;
        settings.launch_grace = timeouts.resume_timeout;
        settings.workers = kProviderWorkers;
        burst::ProviderOutcomes outcomes;
        settings.outcomes = &outcomes;
        settings.partial_job = config.partial_job_launch;
        for (const auto& p : config.providers)
            settings.retry[p.name] = p.retry;
        burst::InstanceManager instances(std::move(parts.providers), ledger, actuator, clock, log, settings);
        // The workers' own probe: the allocation follower's thread has the other.
        burst::LibslurmJobProbe qos_probe;
        instances.set_job_qos_lookup([&qos_probe](burst::JobId job) { return qos_probe.probe(job).qos; });
        instances.set_scavenger_qos(config.standby_qos.scavenger);
        burst::PolicyCycle cycle(std::move(parts.chain), ledger, actuator, instances, config.reconcile_every,
                                 std::move(parts.threads));
        cycle.set_slurm_timeouts(timeouts);
        cycle.start_run_metrics(std::floor(clock.now()));
        burst::LibslurmJobProbe probe;
        std::unique_ptr<burst::AllocationFollower> follower;
        if (config.early_launch > 0) {
            auto ours = [&config](const std::string& node) {
                return std::any_of(config.node_groups.begin(), config.node_groups.end(), [&](const auto& g) {
                    return std::find(g.nodes.begin(), g.nodes.end(), node) != g.nodes.end();
                });
            };
            // A node with an open record already has (or is getting) its instance.
            auto launch = [&instances, &ledger](burst::JobId job, const std::vector<std::string>& nodes) {
                std::vector<std::string> fresh;
                for (const auto& n : nodes) {
                    auto records = ledger.for_node(n);
                    if (std::none_of(records.begin(), records.end(), [](const auto& r) { return r.open(); }))
                        fresh.push_back(n);
                }
                // A followed job's nodes launch all or nothing, as ResumeProgram's would.
                std::map<burst::JobId, std::vector<std::string>> jobs;
                if (job != 0)
                    jobs.emplace(job, fresh);
                instances.request(burst::PowerRequestKind::Resume, fresh, jobs);
                return fresh;
            };
            follower = std::make_unique<burst::AllocationFollower>(
                probe, ours, launch, log, burst::AllocationFollowerSettings{config.early_launch, kFollowPoll});
            follower->set_allocation_observer([&instances](burst::JobId job, const std::vector<std::string>& nodes) {
                instances.remember_resume_jobs(job, nodes);
            });
            cycle.set_route_observer([&follower](burst::JobId job) { follower->follow(job); });
            cycle.set_route_launcher([launch](const std::vector<std::string>& nodes) { launch(0, nodes); });
        }
        burst::Daemon daemon(io, config_path, std::move(loaded.config), log, clock);
        cycle.set_advice_sink([&daemon](const std::map<std::string, std::uint32_t>& threads) {
            daemon.send_advice(threads);
        });
        daemon.set_hello_observer([&cycle] { cycle.resend_advice(); });
        daemon.set_service_notifier(&notifier);
        daemon.set_power_handler([&instances](const burst::ControlRequest& request, const burst::PeerCredentials&) {
            instances.request(power_kind(request.command), request.nodes, request.jobs);
            return burst::PowerReply{true, "queued for " + std::to_string(request.nodes.size()) + " node(s)"};
        });
        daemon.set_group_reset_handler([&instances](const std::string& group) {
            burst::Time now = instances.now();
            auto before = instances.health().view(group, now);
            instances.health().reset(group, now);
            return burst::PowerReply{true, "node group " + group + ": " + (before ? before->mode : "unknown") +
                                               " -> hiring"};
        });
        daemon.set_cycle_runner([&cycle](const burst::CycleContext& ctx) { cycle.run(ctx); });
        daemon.set_job_end_handler([&cycle](const burst::JobEnd& end) { cycle.observe(end); });
        daemon.set_job_explainer([&](burst::JobId job, json_t* explanation) -> std::string {
            if (cycle.stats().runs == 0 || !daemon.latest_snapshot())
                return "explain: burstd has not decided yet (no snapshot from the plugin so far)";
            burst::ExplanationInput in;
            in.snapshot = daemon.latest_snapshot();
            in.outcome = &cycle.last_outcome();
            in.chain = cycle.chain_names();
            in.budgets = &cycle.budgets();
            in.groups = &daemon.config().node_groups;
            in.now = clock.now();
            in.health = instances.health().views(in.now);
            in.hire_limits = instances.health().hire_limits(in.now);
            in.scaling = &cycle.scaling();
            in.threads = cycle.threads();
            return burst::explain_job(job, in, explanation);
        });
        daemon.set_status_reporter(
            [&cycle, &daemon](json_t* status) { cycle.report(status, daemon.config().objective_lambda); });
        daemon.set_reload_handler([&cycle, &instances, &provider_env](const burst::BurstdConfig& next) {
            BuiltParts rebuilt = build_parts(next, provider_env);
            if (rebuilt.errors.empty()) {
                cycle.replace_chain(std::move(rebuilt.chain), std::move(rebuilt.threads));
                // Fixed credentials or templates: groups stopped for auth or
                // invalid errors may launch again.
                instances.health().reload(next.node_groups);
                instances.set_scavenger_qos(next.standby_qos.scavenger);
                instances.set_partial_job_launch(next.partial_job_launch);
            }
            return rebuilt.errors;
        });
        daemon.set_metrics_collector([&](burst::BurstdMetricsInput& in) {
            in.policy = cycle.stats();
            in.provider_calls = outcomes.calls();
            in.request_budgets = request_budgets.views();
            in.launch_requests = outcomes.launch_requests();
            in.repairs = outcomes.repairs();
            in.open_records = ledger.open_records();
            in.spend = cycle.spend();
            in.provider_work_in_flight = instances.busy();
            in.now = instances.now();
            in.group_health = instances.health().views(in.now);
            in.placement_backoffs = instances.placements().views(in.now);
            in.run = cycle.run_metrics().metrics();
            in.run_since = cycle.run_metrics().epoch();
            in.objective_lambda = daemon.config().objective_lambda;
            if (follower)
                in.early_launch = follower->counters();
        });
        log.info("ledger " + config.ledger_path + ", ResumeTimeout " + std::to_string(int(timeouts.resume_timeout)) +
                 " s; reconciling on the first snapshot and every " + std::to_string(config.reconcile_every) + " cycles");
        daemon.start(true);
        io.run();
        // Workers still waiting for an answer get a transport error now, so
        // joining them (InstanceManager's destructor) cannot hang.
        http.shutdown();
        log.info("burstd stopped");
        return 0;
    } catch (const std::exception& e) {
        log.error(std::string("fatal: ") + e.what());
        return 1;
    }
}
