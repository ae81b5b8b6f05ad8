#pragma once
// burstd's shell: one io_context running the snapshot server, the control
// server, the cycle timer and the signal handlers.  Deciding and acting plug
// in through daemon_seams.hpp.

#include "app/config/burstd_config.hpp"
#include "app/metrics/burstd_metrics.hpp"
#include "app/control/control_server.hpp"
#include "app/daemon_seams.hpp"
#include "app/logger.hpp"
#include "app/metrics/metrics_server.hpp"
#include "app/service_notifier.hpp"
#include "common/json_ref.hpp"
#include "ingest/snapshot_assembler.hpp"
#include "ingest/snapshot_server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace burst {

class Daemon final : private IngestObserver {
public:
    // `config` must be valid (load_config(...).ok()).
    Daemon(boost::asio::io_context& io, std::string config_path, BurstdConfig config, Logger& log,
           const Clock& clock);
    ~Daemon() override;

    // Opens both sockets and starts the cycle timer; throws std::runtime_error
    // if a socket cannot be opened.  With `handle_signals`, SIGHUP reloads and
    // SIGTERM/SIGINT stop.  Then tells the service manager (if any) READY=1.
    void start(bool handle_signals);
    void stop();
    // Re-reads the configuration file; a file with errors is logged and the
    // running configuration kept.  Returns whether the new one was applied.
    bool reload();

    void set_cycle_runner(CycleRunner runner) { cycle_runner_ = std::move(runner); }
    void set_power_handler(PowerHandler handler) { power_handler_ = std::move(handler); }
    void set_job_end_handler(JobEndHandler handler) { job_end_handler_ = std::move(handler); }
    void set_status_reporter(StatusReporter reporter) { status_reporter_ = std::move(reporter); }
    void set_reload_handler(ReloadHandler handler) { reload_handler_ = std::move(handler); }
    // Told when a plugin says hello: a (re)started slurmctld holds no advice.
    void set_hello_observer(std::function<void()> observer) { hello_observer_ = std::move(observer); }
    // Adds the acting parts' counters to a scrape (MetricsPort=).
    using MetricsCollector = std::function<void(BurstdMetricsInput&)>;
    void set_metrics_collector(MetricsCollector collector) { metrics_collector_ = std::move(collector); }
    // The Prometheus text a scrape gets.
    std::string metrics_text() const;
    // The port metrics are served on (0 = none).
    std::uint16_t metrics_port() const { return metrics_ ? metrics_->port() : 0; }
    void set_group_reset_handler(GroupResetHandler handler) { group_reset_handler_ = std::move(handler); }
    void set_job_explainer(JobExplainer explainer) { job_explainer_ = std::move(explainer); }
    // systemd's Type=notify: READY=1 once the sockets listen, RELOADING=1 and
    // READY=1 around a SIGHUP reload, STOPPING=1 at shutdown, WATCHDOG=1 from
    // this io_context's own timer (a hung loop stops pinging).  Must outlive
    // the daemon; set before start().
    void set_service_notifier(const ServiceNotifier* notifier) { notifier_ = notifier; }

    // Sends per-category thread counts to every connected plugin (the
    // thread-count policy's output).  Throws std::invalid_argument for a count
    // the plugin would reject.
    void send_advice(const std::map<std::string, std::uint32_t>& threads);

    // One control request line -> one reply line; what the control socket runs.
    std::string handle_control(const std::string& request, const PeerCredentials& peer);
    std::string status_json() const;

    const BurstdConfig& config() const { return config_; }
    // The state the cycle decides on; null before the first whole snapshot
    // and after a delta that did not fit, until the next whole one.
    const Snapshot* latest_snapshot() const { return state_.state(); }
    const IngestCounters& ingest_counters() const;
    std::uint64_t cycles() const { return cycles_; }
    std::uint64_t job_ends() const { return job_ends_; }

private:
    void connected(const PeerCredentials& peer) override;
    void refused(const PeerCredentials& peer) override;
    void disconnected(const std::string& why) override;
    void rejected(const std::string& why) override;
    void accepted(ProtocolMessage&& message) override;

    JsonRef status_object() const;
    std::string reset_group(const std::string& group, const PeerCredentials& peer);
    bool admit(uid_t uid) const;
    void resolve_slurm_user();
    void schedule_cycle();
    void run_cycle();
    void wait_for_signal();
    void notify(const std::string& state);
    void schedule_watchdog();

    boost::asio::io_context& io_;
    std::string config_path_;
    BurstdConfig config_;
    Logger& log_;
    const Clock& clock_;
    std::optional<uid_t> slurm_uid_;
    std::unique_ptr<SnapshotServer> snapshots_;
    std::unique_ptr<ControlServer> control_;
    std::unique_ptr<MetricsServer> metrics_;
    boost::asio::steady_timer cycle_timer_;
    boost::asio::signal_set signals_;
    boost::asio::steady_timer watchdog_timer_;
    const ServiceNotifier* notifier_ = nullptr;
    bool notify_failing_ = false;
    void apply_delta(ProtocolMessage& message);
    void ask_for_snapshot(std::uint64_t connection, const std::string& reason);

    SnapshotAssembler state_;
    Time latest_received_ = 0;
    std::uint64_t deltas_ = 0;        // applied
    std::uint64_t refused_deltas_ = 0;
    std::uint64_t whole_snapshots_ = 0;
    std::uint64_t resyncs_sent_ = 0;
    std::uint64_t resync_connection_ = 0; // the last resync's, with its time
    Time resync_sent_at_ = 0;
    Time started_ = 0;
    std::uint64_t cycles_ = 0;
    std::uint64_t job_ends_ = 0;
    std::uint64_t reloads_ = 0;
    std::uint64_t advice_seq_ = 0; // of every line to the plugin: advice and resync
    std::uint64_t failed_reloads_ = 0;
    CycleRunner cycle_runner_;
    PowerHandler power_handler_;
    JobEndHandler job_end_handler_;
    StatusReporter status_reporter_;
    std::function<void()> hello_observer_;
    ReloadHandler reload_handler_;
    MetricsCollector metrics_collector_;
    GroupResetHandler group_reset_handler_;
    JobExplainer job_explainer_;
};

} // namespace burst
