#include "app/daemon.hpp"

#include "app/config/config_parser.hpp"
#include "app/config/reload_scope.hpp"
#include "ingest/plugin_message.hpp"
#include "common/json_ref.hpp"
#include "model/hostlist.hpp"

#include <jansson.h>
#include <pwd.h>
#include <unistd.h>

#include <chrono>
#include <algorithm>
#include <ctime>
#include <csignal>
#include <cstdlib>
#include <set>

namespace burst {

namespace {

std::string dump(json_t* j)
{
    std::unique_ptr<char, decltype(&std::free)> text(json_dumps(j, JSON_COMPACT), &std::free);
    return text ? std::string(text.get()) : std::string(R"({"ok":false,"error":"reply not serializable"})");
}

std::string error_reply(const std::string& message)
{
    JsonRef reply(json_pack("{s:b, s:s}", "ok", 0, "error", message.c_str()));
    return dump(reply.get());
}

std::string describe(const PeerCredentials& peer)
{
    return "uid " + std::to_string(peer.uid) + " pid " + std::to_string(peer.pid);
}

} // namespace

Daemon::Daemon(boost::asio::io_context& io, std::string config_path, BurstdConfig config, Logger& log,
               const Clock& clock)
    : io_(io), config_path_(std::move(config_path)), config_(std::move(config)), log_(log), clock_(clock),
      cycle_timer_(io), signals_(io), watchdog_timer_(io)
{
}

Daemon::~Daemon() = default;

void Daemon::start(bool handle_signals)
{
    started_ = clock_.now();
    log_.set_level(config_.log_level);
    resolve_slurm_user();
    SnapshotServer::Options options;
    options.path = config_.socket_path;
    options.cluster = config_.cluster_name;
    options.admit = [this](uid_t uid) { return admit(uid); };
    snapshots_ = std::make_unique<SnapshotServer>(io_, options, static_cast<IngestObserver&>(*this));
    control_ = std::make_unique<ControlServer>(
        io_, config_.control_socket, [this](uid_t uid) { return admit(uid); },
        [this](const std::string& request, const PeerCredentials& peer) { return handle_control(request, peer); },
        [this](const PeerCredentials& peer) { log_.error("control socket: refused " + describe(peer)); });
    if (handle_signals) {
        signals_.add(SIGHUP);
        signals_.add(SIGTERM);
        signals_.add(SIGINT);
        wait_for_signal();
    }
    if (config_.metrics_port != 0)
        metrics_ = std::make_unique<MetricsServer>(io_, config_.metrics_port, [this] { return metrics_text(); });
    if (!cycle_runner_)
        log_.info("no policy chain is wired into this burstd: cycles only keep state, nothing is hired");
    schedule_cycle();
    log_.info("burstd started for cluster " + config_.cluster_name + ": snapshots on " + config_.socket_path +
              ", control on " + config_.control_socket +
              (metrics_ ? ", metrics on 127.0.0.1:" + std::to_string(metrics_->port()) : std::string()) + ", " +
              std::to_string(config_.node_groups.size()) +
              " node groups, cycle every " + std::to_string(int(config_.cycle_interval)) + " s");
    // Ready means burstctl and the plugin can connect; the ledger was opened
    // (and migrated) before this.  Reconciling it waits for the first
    // snapshot, and so for slurmctld, which the unit starts after burstd.
    notify("READY=1\nSTATUS=listening on " + config_.socket_path + " and " + config_.control_socket +
           "; waiting for the first snapshot from slurmctld");
    schedule_watchdog();
}

void Daemon::stop()
{
    notify("STOPPING=1\nSTATUS=shutting down");
    boost::system::error_code ignored;
    cycle_timer_.cancel();
    watchdog_timer_.cancel();
    signals_.cancel(ignored);
    if (snapshots_) {
        snapshots_.reset();
        unlink(config_.socket_path.c_str());
    }
    if (control_) {
        control_.reset();
        unlink(config_.control_socket.c_str());
    }
    metrics_.reset();
    // Idle control connections still wait for reads; they go with the io_context.
    io_.stop();
}

void Daemon::wait_for_signal()
{
    signals_.async_wait([this](boost::system::error_code ec, int signo) {
        if (ec)
            return;
        if (signo == SIGHUP) {
            log_.info("caught SIGHUP: reloading " + config_path_);
            timespec mono{};
            ::clock_gettime(CLOCK_MONOTONIC, &mono);
            notify("RELOADING=1\nMONOTONIC_USEC=" +
                   std::to_string(std::uint64_t(mono.tv_sec) * 1000000 + std::uint64_t(mono.tv_nsec) / 1000));
            bool applied = reload();
            notify(std::string("READY=1\nSTATUS=") +
                   (applied ? "reloaded " + config_path_
                            : "reloading " + config_path_ + " failed; the running configuration stays"));
            wait_for_signal();
            return;
        }
        log_.info(std::string("caught ") + (signo == SIGTERM ? "SIGTERM" : "SIGINT") + ": shutting down");
        stop();
    });
}

void Daemon::notify(const std::string& state)
{
    if (!notifier_ || !notifier_->enabled())
        return;
    std::string error;
    bool sent = notifier_->notify(state, &error);
    // One line when notifications start failing and one when they recover,
    // not one per watchdog ping.
    if (!sent && !notify_failing_)
        log_.error("service manager notification failed: " + error);
    else if (sent && notify_failing_)
        log_.info("service manager notifications work again (" + notifier_->socket() + ")");
    notify_failing_ = !sent;
}

void Daemon::schedule_watchdog()
{
    if (!notifier_ || !notifier_->enabled() || !notifier_->watchdog_interval())
        return;
    watchdog_timer_.expires_after(*notifier_->watchdog_interval());
    watchdog_timer_.async_wait([this](boost::system::error_code ec) {
        if (ec)
            return;
        notify("WATCHDOG=1");
        schedule_watchdog();
    });
}

bool Daemon::reload()
{
    ConfigParseResult result = load_config(config_path_);
    if (!result.ok()) {
        ++failed_reloads_;
        for (const auto& e : result.errors)
            log_.error(e);
        log_.error("reload: " + std::to_string(result.errors.size()) +
                   " error(s) in the new configuration; keeping the running one");
        return false;
    }
    BurstdConfig next = std::move(result.config);
    const std::vector<std::string> held = keep_restart_only_settings(config_, next);
    if (reload_handler_) {
        std::vector<std::string> errors = reload_handler_(next);
        if (!errors.empty()) {
            ++failed_reloads_;
            for (const auto& e : errors)
                log_.error(e);
            log_.error("reload: " + std::to_string(errors.size()) +
                       " error(s) in the new configuration; keeping the running one");
            return false;
        }
    }
    for (const auto& h : held)
        log_.error("reload: " + h);
    config_ = std::move(next);
    ++reloads_;
    log_.set_level(config_.log_level);
    resolve_slurm_user();
    if (snapshots_)
        snapshots_->set_cluster(config_.cluster_name);
    if (snapshots_ || control_)
        schedule_cycle();
    log_.info("reloaded " + config_path_ + ": " + std::to_string(config_.providers.size()) + " providers, " +
              std::to_string(config_.node_groups.size()) + " node groups, " +
              std::to_string(config_.policies.size()) + " policies");
    return true;
}

void Daemon::resolve_slurm_user()
{
    slurm_uid_.reset();
    std::vector<char> buf(16384);
    struct passwd pw {};
    struct passwd* found = nullptr;
    if (getpwnam_r(config_.slurm_user.c_str(), &pw, buf.data(), buf.size(), &found) == 0 && found)
        slurm_uid_ = found->pw_uid;
    else
        log_.error("SlurmUser " + config_.slurm_user + " does not exist: only root may connect");
}

bool Daemon::admit(uid_t uid) const { return uid == 0 || (slurm_uid_ && uid == *slurm_uid_); }

void Daemon::schedule_cycle()
{
    cycle_timer_.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(config_.cycle_interval)));
    cycle_timer_.async_wait([this](boost::system::error_code ec) {
        if (ec)
            return;
        run_cycle();
        schedule_cycle();
    });
}

void Daemon::run_cycle()
{
    ++cycles_;
    if (!cycle_runner_)
        return;
    try {
        cycle_runner_(CycleContext{config_, state_.state(), clock_.now(), log_});
    } catch (const std::exception& e) {
        log_.error("cycle " + std::to_string(cycles_) + " failed: " + e.what());
    }
}

void Daemon::send_advice(const std::map<std::string, std::uint32_t>& threads)
{
    std::string line = serialize_advice(config_.cluster_name, ++advice_seq_, clock_.now(), threads);
    if (snapshots_)
        snapshots_->broadcast(line);
}

const IngestCounters& Daemon::ingest_counters() const
{
    static const IngestCounters none;
    return snapshots_ ? snapshots_->counters() : none;
}

void Daemon::connected(const PeerCredentials& peer) { log_.verbose("plugin connection from " + describe(peer)); }

void Daemon::refused(const PeerCredentials& peer)
{
    log_.error("snapshot socket: refused " + describe(peer) + " (only root and SlurmUser " + config_.slurm_user + ")");
}

void Daemon::disconnected(const std::string& why) { log_.verbose("plugin connection ended: " + why); }

void Daemon::rejected(const std::string& why) { log_.error("rejected message: " + why); }

void Daemon::accepted(ProtocolMessage&& message)
{
    if (auto* hello = std::get_if<Hello>(&message.body)) {
        log_.info("plugin hello: slurm-burst " + hello->plugin_version + " on Slurm " + hello->slurm_version +
                  ", cluster " + message.cluster);
        if (hello->sends_deltas)
            ask_for_snapshot(message.connection, "hello");
        if (hello_observer_)
            hello_observer_();
    } else if (auto* snapshot = std::get_if<Snapshot>(&message.body)) {
        log_.debug("snapshot seq " + std::to_string(snapshot->seq) + ": " + std::to_string(snapshot->jobs.size()) +
                   " jobs, " + std::to_string(snapshot->nodes.size()) + " nodes");
        if (whole_snapshots_++ == 0)
            notify("STATUS=receiving snapshots from cluster " + message.cluster);
        state_.replace(std::move(*snapshot), message.connection);
        resync_connection_ = 0; // the request, if any, was answered
        latest_received_ = clock_.now();
    } else if (std::holds_alternative<SnapshotDelta>(message.body)) {
        apply_delta(message);
    } else if (auto* end = std::get_if<JobEnd>(&message.body)) {
        ++job_ends_;
        for (const auto& g : config_.node_groups)
            for (const auto& n : end->nodes)
                if (end->node_group.empty() && std::find(g.nodes.begin(), g.nodes.end(), n) != g.nodes.end())
                    end->node_group = g.name;
        if (job_end_handler_)
            job_end_handler_(*end);
    }
}

void Daemon::apply_delta(ProtocolMessage& message)
{
    auto& delta = std::get<SnapshotDelta>(message.body);
    const std::string what = "delta seq " + std::to_string(message.seq) + " (base " + std::to_string(delta.base) + ")";
    const std::size_t changed = delta.jobs.size(), priorities = delta.priorities.size(),
                      removed = delta.removed_jobs.size();
    const std::string why = state_.apply(std::move(delta), message.seq, message.time, message.connection);
    if (!why.empty()) {
        ++refused_deltas_;
        log_.error(what + " not applied: " + why + "; no decisions until the plugin sends a whole snapshot");
        ask_for_snapshot(message.connection, why);
        return;
    }
    ++deltas_;
    latest_received_ = clock_.now();
    log_.debug(what + ": " + std::to_string(changed) + " jobs new or changed, " + std::to_string(priorities) +
               " priorities, " + std::to_string(removed) + " removed");
}

void Daemon::ask_for_snapshot(std::uint64_t connection, const std::string& reason)
{
    // Until the plugin answers, every delta it sends fails; one request per
    // connection every few seconds is enough (a resync can be lost too).
    constexpr Seconds kRepeatAfter = 10;
    const Time now = clock_.now();
    if (!snapshots_ || (connection == resync_connection_ && now - resync_sent_at_ < kRepeatAfter))
        return;
    snapshots_->send(connection, serialize_resync(config_.cluster_name, ++advice_seq_, now, reason));
    ++resyncs_sent_;
    resync_connection_ = connection;
    resync_sent_at_ = now;
}

std::string Daemon::handle_control(const std::string& line, const PeerCredentials& peer)
{
    ParsedControlRequest parsed = parse_control_request(line);
    if (!parsed.request) {
        log_.error("control request from " + describe(peer) + " rejected: " + parsed.error);
        return error_reply(parsed.error);
    }
    const ControlRequest& request = *parsed.request;
    if (request.command == ControlCommand::Status) {
        JsonRef reply(json_object());
        json_object_set_new(reply.get(), "ok", json_true());
        JsonRef status = status_object();
        json_object_set(reply.get(), "status", status.get());
        return dump(reply.get());
    }
    if (request.command == ControlCommand::ResetGroup)
        return reset_group(request.group, peer);
    if (request.command == ControlCommand::Explain) {
        if (!job_explainer_)
            return error_reply("explain: no decision cycle is wired into this burstd");
        JsonRef explanation(json_object());
        const std::string error = job_explainer_(request.job, explanation.get());
        if (!error.empty())
            return error_reply(error);
        JsonRef reply(json_object());
        json_object_set_new(reply.get(), "ok", json_true());
        json_object_set(reply.get(), "explanation", explanation.get());
        return dump(reply.get());
    }
    std::string what = std::string(to_string(request.command)) + " " + request.hostlist;
    std::vector<std::string> unknown;
    for (const auto& n : request.nodes) {
        bool found = false;
        for (const auto& g : config_.node_groups)
            found = found || std::find(g.nodes.begin(), g.nodes.end(), n) != g.nodes.end();
        if (!found)
            unknown.push_back(n);
    }
    if (!unknown.empty()) {
        std::string message = what + ": " + compress_hostlist(unknown) + " belong to no NodeGroup in " + config_path_;
        log_.error(message);
        return error_reply(message);
    }
    if (!power_handler_) {
        std::string message = what + ": no provider actuator is wired into this burstd, nothing can be launched";
        log_.error(message);
        return error_reply(message);
    }
    PowerReply result = power_handler_(request, peer);
    log_.info(what + " (from " + describe(peer) + "): " + (result.ok ? "" : "failed: ") + result.message);
    if (!result.ok)
        return error_reply(result.message);
    JsonRef reply(json_pack("{s:b, s:s}", "ok", 1, "message", result.message.c_str()));
    return dump(reply.get());
}

std::string Daemon::reset_group(const std::string& group, const PeerCredentials& peer)
{
    std::string what = "reset-group " + group;
    bool known = std::any_of(config_.node_groups.begin(), config_.node_groups.end(),
                             [&](const NodeGroup& g) { return g.name == group; });
    std::string error = !known ? what + ": no NodeGroup=" + group + " in " + config_path_
                        : !group_reset_handler_ ? what + ": no provider actuator is wired into this burstd"
                                                : "";
    PowerReply result{error.empty(), error};
    if (error.empty())
        result = group_reset_handler_(group);
    log_.info(what + " (from " + describe(peer) + "): " + (result.ok ? "" : "failed: ") + result.message);
    if (!result.ok)
        return error_reply(result.message);
    JsonRef reply(json_pack("{s:b, s:s}", "ok", 1, "message", result.message.c_str()));
    return dump(reply.get());
}

std::string Daemon::status_json() const { return dump(status_object().get()); }

std::string Daemon::metrics_text() const
{
    BurstdMetricsInput in;
    in.ingest = ingest_counters();
    in.job_ends = job_ends_;
    in.whole_snapshots = whole_snapshots_;
    in.deltas = deltas_;
    in.refused_deltas = refused_deltas_;
    in.resyncs = resyncs_sent_;
    in.cycles = cycles_;
    for (const auto& g : config_.node_groups)
        in.groups.push_back(g.name);
    if (metrics_collector_)
        metrics_collector_(in);
    return render_metrics(in);
}

JsonRef Daemon::status_object() const
{
    JsonRef s(json_object());
    Time now = clock_.now();
    json_object_set_new(s.get(), "cluster", json_string(config_.cluster_name.c_str()));
    json_object_set_new(s.get(), "config_file", json_string(config_path_.c_str()));
    json_object_set_new(s.get(), "uptime", json_integer(json_int_t(now - started_)));
    json_object_set_new(s.get(), "cycles", json_integer(json_int_t(cycles_)));
    json_object_set_new(s.get(), "cycle_interval", json_real(config_.cycle_interval));
    json_object_set_new(s.get(), "policy_chain_wired", json_boolean(bool(cycle_runner_)));
    json_object_set_new(s.get(), "actuator_wired", json_boolean(bool(power_handler_)));
    json_object_set_new(s.get(), "reloads", json_integer(json_int_t(reloads_)));
    json_object_set_new(s.get(), "failed_reloads", json_integer(json_int_t(failed_reloads_)));

    if (const Snapshot* latest = state_.state()) {
        std::size_t pending = 0, running = 0, powered_up_cloud = 0;
        for (const auto& j : latest->jobs) {
            pending += j.pending() ? j.array_task_count : 0;
            running += j.running() ? 1 : 0;
        }
        for (const auto& n : latest->nodes)
            if (n.cloud() && !n.has(kNodePoweredDown))
                ++powered_up_cloud;
        json_object_set_new(s.get(), "snapshot",
                            json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "seq", json_int_t(latest->seq), "time",
                                      json_int_t(latest->time), "age", json_int_t(now - latest_received_),
                                      "pending_jobs", json_int_t(pending), "running_jobs", json_int_t(running),
                                      "nodes", json_int_t(latest->nodes.size()), "cloud_nodes_up",
                                      json_int_t(powered_up_cloud)));
    } else {
        json_object_set_new(s.get(), "snapshot", json_null());
        json_object_set_new(s.get(), "awaiting_whole_snapshot", json_boolean(whole_snapshots_ > 0));
    }

    const IngestCounters& c = ingest_counters();
    json_object_set_new(s.get(), "ingest",
                        json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "connections", json_int_t(c.connections),
                                  "open_connections", json_int_t(snapshots_ ? snapshots_->open_connections() : 0),
                                  "refused_peers", json_int_t(c.refused_peers), "messages", json_int_t(c.messages),
                                  "bad_messages", json_int_t(c.bad_messages), "oversized", json_int_t(c.oversized),
                                  "job_ends", json_int_t(job_ends_), "advice_sent", json_int_t(c.advice_sent)));
    json_t* ingest = json_object_get(s.get(), "ingest");
    json_object_set_new(ingest, "whole_snapshots", json_integer(json_int_t(whole_snapshots_)));
    json_object_set_new(ingest, "deltas", json_integer(json_int_t(deltas_)));
    json_object_set_new(ingest, "refused_deltas", json_integer(json_int_t(refused_deltas_)));
    json_object_set_new(ingest, "resyncs", json_integer(json_int_t(resyncs_sent_)));

    JsonRef groups(json_array());
    for (const auto& g : config_.node_groups)
        json_array_append_new(groups.get(),
                              json_pack("{s:s, s:s, s:s, s:I, s:f}", "name", g.name.c_str(), "provider",
                                        g.provider.c_str(), "nodes", compress_hostlist(g.nodes).c_str(), "capacity",
                                        json_int_t(g.capacity()), "price_per_hour", g.price_per_hour));
    json_object_set(s.get(), "node_groups", groups.get());
    JsonRef policies(json_array());
    for (const auto& p : config_.policies)
        json_array_append_new(policies.get(), json_string(p.name.c_str()));
    json_object_set(s.get(), "policies", policies.get());
    if (status_reporter_)
        status_reporter_(s.get());
    return s;
}

} // namespace burst
