// burstd's side of a recorded plugin stream at scale (issue 29): what each
// message costs to parse and to apply to the state burstd decides on, and
// what one whole decision cycle (ingest -> decide -> act) costs on the state
// the recording ends with.  Prints numbers; asserts nothing.
//
//   bench/ingest_cycle [--release-held] [--busy-local] [--cycles N] [--ledger-history N]
//                      RECORDING BURSTD_CONF
//
// RECORDING holds the plugin's messages one per line as burstd received them
// (bench/plugin_snapshot.sh with RECORD=FILE writes one; other lines, such as
// the stand-in listener's own, are skipped).  Messages are parsed and applied
// as the daemon does (ingest/message_parser, ingest/snapshot_assembler); a
// delta whose base the recording lacks (the stream was recorded from the
// middle) is counted as refused and the next whole snapshot starts over.
//
// Then N cycles (default 10) of burstd's PolicyCycle, built from BURSTD_CONF as
// the daemon builds it, with a ledger in a scratch directory: each cycle first
// applies the recording's last job-changing delta again on a copy of the state
// (the ingest a cycle waits for), then decides and acts.  Acting is burstd's
// own work: the Slurm actuator here takes every call at once and counts it,
// so the table shows how many RPCs a real slurmctld would get; the provider
// launches nothing (launches come through burstctl resume, not the cycle).
//
// A bench queue is made of held jobs (bench/submit_held), which no policy
// counts as demand.  --release-held makes them wait for priority instead,
// with falling priorities in submission order; --busy-local marks every node
// outside the node groups fully allocated, so the policies see a full local
// cluster.  Both change only the cycle's input, not the ingest measurements.
// --ledger-history N puts N instances that ran for an hour each, spread over
// the year before the recording's end, into the ledger first: a site's
// history after a year of bursting.
//
// Columns: per message kind, the count, the median size, the median number of
// jobs it carries (whole jobs; priority pairs in brackets), and CPU ms of this
// thread to parse and to apply (median and max).  "cycle" rows: CPU ms of the
// process per cycle (median, max; the first cycle, which reconciles and hires
// from nothing, on its own row) and the actuator calls per cycle by kind.
#include "app/config/config_parser.hpp"
#include "app/cycle/policy_cycle.hpp"
#include "app/heap_tuning.hpp"
#include "app/instances/instance_manager.hpp"
#include "app/logger.hpp"
#include "ingest/message_parser.hpp"
#include "ingest/snapshot_assembler.hpp"
#include "ledger/ledger.hpp"
#include "policy/cycle/policy_chain.hpp"
#include "policy/threads/thread_allocator_registry.hpp"
#include "slurm/slurm_actuator.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace burst;

namespace {

double cpu_ms(clockid_t clock)
{
    timespec ts{};
    clock_gettime(clock, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}
double thread_ms() { return cpu_ms(CLOCK_THREAD_CPUTIME_ID); }
double process_ms() { return cpu_ms(CLOCK_PROCESS_CPUTIME_ID); }

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[(v.size() - 1) / 2];
}
double largest(const std::vector<double>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

// Every call accepted and counted by kind.
class CountingActuator final : public SlurmActuator {
public:
    std::map<std::string, std::size_t> calls;

    ActuatorError set_job_partitions(JobId, const std::vector<std::string>&, std::string_view) override
    {
        return count("partitions");
    }
    ActuatorError set_job_cpus(const JobCpuChange&, std::string_view) override { return count("cpus"); }
    ActuatorError set_job_why(JobId, std::string_view) override { return count("why"); }
    ActuatorError submit_placeholder(const PlaceholderJob&, std::string_view, JobId& job) override
    {
        job = next_job_++;
        return count("placeholder");
    }
    ActuatorError cancel_job(JobId, std::string_view) override { return count("cancel"); }
    ActuatorError hold_job(JobId, std::string_view) override { return count("hold"); }
    ActuatorError requeue_job(JobId, std::string_view) override { return count("requeue"); }
    ActuatorError place_job(const JobPlacement&, std::string_view) override { return count("place"); }
    ActuatorError power(const std::vector<std::string>& nodes, PowerAction, std::string_view) override
    {
        calls["power(nodes)"] += nodes.size();
        return count("power");
    }
    ActuatorError set_node_instance(const NodeInstance&, std::string_view) override { return count("addr"); }
    ActuatorError hand_back_node(const std::string&, std::string_view, const std::vector<JobId>&,
                                 std::vector<JobId>&) override
    {
        return count("hand_back");
    }
    ActuatorError drain(const std::vector<std::string>&, std::string_view) override { return count("drain"); }
    ActuatorError undrain_own(const std::vector<std::string>&, std::string_view, std::vector<std::string>&) override
    {
        return count("undrain");
    }

private:
    ActuatorError count(const char* kind)
    {
        ++calls[kind];
        return {};
    }
    JobId next_job_ = 4000000000u;
};

class IdleProvider final : public Provider {
public:
    std::string_view name() const override { return "bench"; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>&) override { return {}; }
    ListResult list(const InstanceTags&) override { return {}; }
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>&) override { return {}; }
};

struct KindStats {
    std::vector<double> bytes, jobs, priorities, parse_ms, apply_ms;
};

// "snapshot", "delta jobs" (whole jobs changed), "delta priorities" (priority
// pairs only), "delta steady" (neither).
std::string kind_of(const ProtocolMessage& m)
{
    if (m.type != "delta")
        return m.type;
    const auto& d = std::get<SnapshotDelta>(m.body);
    if (!d.jobs.empty() || !d.removed_jobs.empty())
        return "delta jobs";
    return d.priorities.empty() ? "delta steady" : "delta priorities";
}

void make_demand(Snapshot& s, const BurstdConfig& config, bool release_held, bool busy_local)
{
    if (release_held) {
        std::uint32_t priority = std::uint32_t(s.jobs.size()) + 1000;
        for (auto& j : s.jobs)
            if (j.pending() && j.blocked()) {
                j.reason = PendingReason("Priority");
                j.priority = priority--;
            }
    }
    if (busy_local)
        for (auto& n : s.nodes) {
            bool grouped = false;
            for (const auto& g : config.node_groups)
                grouped = grouped || std::find(g.nodes.begin(), g.nodes.end(), n.name) != g.nodes.end();
            if (!grouped) {
                n.base = NodeBaseState::Allocated;
                n.alloc_cpus = n.cpus;
            }
        }
}

int usage()
{
    std::cerr << "usage: bench/ingest_cycle [--release-held] [--busy-local] [--cycles N] [--ledger-history N] "
                 "RECORDING BURSTD_CONF\n";
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    bool release_held = false, busy_local = false;
    int cycles = 10;
    long history = 0;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--release-held")
            release_held = true;
        else if (a == "--busy-local")
            busy_local = true;
        else if (a == "--cycles" && i + 1 < argc)
            cycles = std::max(1, std::atoi(argv[++i]));
        else if (a == "--ledger-history" && i + 1 < argc)
            history = std::max(0L, std::atol(argv[++i]));
        else if (!a.empty() && a[0] == '-')
            return usage();
        else
            files.push_back(a);
    }
    if (files.size() != 2)
        return usage();
    keep_cycle_buffers_in_heap(); // as burstd does
    const std::string& recording = files[0];
    ConfigParseResult loaded = load_config(files[1]);
    if (!loaded.ok()) {
        std::cerr << files[1] << ": " << loaded.errors.front() << "\n";
        return 1;
    }
    const BurstdConfig& config = loaded.config;

    std::ifstream in(recording);
    if (!in) {
        std::cerr << "cannot read " << recording << "\n";
        return 1;
    }
    std::map<std::string, KindStats> kinds;
    SnapshotAssembler assembler;
    std::uint64_t connection = 0;
    std::size_t refused = 0, skipped = 0, number = 0;
    std::optional<ProtocolMessage> last_jobs_delta; // replayed in every cycle
    std::optional<Snapshot> base_of_last_delta;
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (line.find("\"listener\"") != std::string::npos) {
            ++skipped;
            continue;
        }
        double t0 = thread_ms();
        ParsedMessage parsed = parse_message(line);
        double parse = thread_ms() - t0;
        if (!parsed.message) {
            std::cerr << recording << ":" << number << ": " << parsed.error << "\n";
            return 1;
        }
        ProtocolMessage& m = *parsed.message;
        const std::string kind = kind_of(m);
        KindStats& k = kinds[kind];
        k.bytes.push_back(double(line.size()));
        k.parse_ms.push_back(parse);
        if (m.type == "hello") {
            ++connection;
            continue;
        }
        if (m.type == "snapshot") {
            auto& s = std::get<Snapshot>(m.body);
            k.jobs.push_back(double(s.jobs.size()));
            t0 = thread_ms();
            assembler.replace(std::move(s), connection);
            k.apply_ms.push_back(thread_ms() - t0);
        } else if (m.type == "delta") {
            auto& d = std::get<SnapshotDelta>(m.body);
            k.jobs.push_back(double(d.jobs.size()));
            k.priorities.push_back(double(d.priorities.size()));
            const bool replay = kind == "delta jobs" && assembler.state();
            std::optional<ProtocolMessage> copy;
            if (replay) {
                copy = m;
                base_of_last_delta = *assembler.state();
            }
            t0 = thread_ms();
            const std::string why = assembler.apply(std::move(d), m.seq, m.time, connection);
            const double apply = thread_ms() - t0;
            if (!why.empty()) {
                ++refused;
                continue;
            }
            k.apply_ms.push_back(apply);
            if (replay)
                last_jobs_delta = std::move(copy);
        }
    }
    const std::string state_note = std::to_string(skipped) + " lines not the plugin's skipped, " +
                                   std::to_string(refused) + " deltas without their base refused";
    if (!assembler.state()) {
        std::cerr << recording << ": no whole state at the end (" << state_note << ")\n";
        return 1;
    }
    std::printf("# %s: %zu lines; %s\n", recording.c_str(), number, state_note.c_str());
    std::printf("%-17s %6s %10s %9s %9s %9s %9s %9s\n", "message", "count", "bytes_med", "jobs_med", "parse_med",
                "parse_max", "apply_med", "apply_max");
    for (const auto& [kind, k] : kinds) {
        std::string jobs = k.jobs.empty() ? "-" : std::to_string(std::size_t(median(k.jobs)));
        if (!k.priorities.empty() && median(k.priorities) > 0)
            jobs += "[" + std::to_string(std::size_t(median(k.priorities))) + "]";
        std::printf("%-17s %6zu %10.0f %9s %9.3f %9.3f %9.3f %9.3f\n", kind.c_str(), k.bytes.size(), median(k.bytes),
                    jobs.c_str(), median(k.parse_ms), largest(k.parse_ms), median(k.apply_ms), largest(k.apply_ms));
    }

    // The decision cycles.
    // The ledger syncs every write; on a tmpfs the history fills in seconds.
    const std::filesystem::path scratch =
        std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    const std::filesystem::path dir = scratch / ("ingest-cycle-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ostringstream log_text;
    Logger log(log_text, LogLevel::Error, false);
    std::vector<double> cycle_ms, ingest_ms;
    double first_ms = 0;
    std::map<std::string, std::size_t> first_calls, calls;
    std::size_t pending = 0;
    {
        Ledger ledger((dir / "ledger.sqlite").string());
        if (history && !config.node_groups.empty()) {
            const NodeGroup& g = config.node_groups.front();
            const Time year = 365 * 86400, end = assembler.state()->time;
            for (long i = 0; i < history; ++i) {
                const Time t = end - year + Time(i) * (year / Time(history));
                const LedgerRecord r = ledger.record_launch_intent(
                    {g.nodes[std::size_t(i) % g.nodes.size()], g.name, g.provider,
                     g.instance_types.empty() ? "" : g.instance_types.front(), false, ""},
                    t);
                ledger.mark_launched(r.token, "i-history-" + std::to_string(i), "10.0.0.1", t + 5);
                ledger.mark_running(r.token, t + 60);
                ledger.mark_terminated(r.token, t + 3600);
            }
        }
        CountingActuator actuator;
        ManualClock clock(assembler.state()->time);
        std::map<std::string, std::unique_ptr<Provider>> providers;
        for (const auto& p : config.providers)
            providers[p.name] = std::make_unique<IdleProvider>();
        InstanceManagerSettings settings;
        settings.groups = config.node_groups;
        InstanceManager instances(std::move(providers), ledger, actuator, clock, log, std::move(settings));
        std::vector<std::string> errors;
        PolicyChain chain = make_policy_chain(config.policies, errors);
        std::unique_ptr<ThreadStage> threads;
        if (config.thread_policy)
            threads = make_thread_stage(*config.thread_policy, errors);
        PolicyCycle cycle(std::move(chain), ledger, actuator, instances, config.reconcile_every, std::move(threads));
        if (!errors.empty()) {
            std::cerr << files[1] << ": " << errors.front() << "\n";
            return 1;
        }
        Snapshot state = *assembler.state();
        make_demand(state, config, release_held, busy_local);
        for (const auto& j : state.jobs)
            pending += j.pending();
        for (int c = 0; c < cycles; ++c) {
            if (last_jobs_delta) {
                // The ingest a cycle waits for: the last job-changing delta,
                // on a copy of the state it applied to.
                SnapshotAssembler again;
                again.replace(Snapshot(*base_of_last_delta), 1);
                ProtocolMessage m = *last_jobs_delta;
                const double t0 = process_ms();
                again.apply(std::move(std::get<SnapshotDelta>(m.body)), m.seq, m.time, 1);
                ingest_ms.push_back(process_ms() - t0);
            }
            actuator.calls.clear();
            const Time now = state.time + Time(c) * config.cycle_interval;
            clock.set(now);
            const double t0 = process_ms();
            cycle.run(CycleContext{config, &state, now, log});
            const double took = process_ms() - t0;
            if (c == 0) {
                first_ms = took;
                first_calls = actuator.calls;
            } else {
                cycle_ms.push_back(took);
                calls = actuator.calls;
            }
        }
    }
    std::filesystem::remove_all(dir);
    auto text = [](const std::map<std::string, std::size_t>& c) {
        std::string s;
        for (const auto& [kind, n] : c)
            s += (s.empty() ? "" : " ") + kind + "=" + std::to_string(n);
        return s.empty() ? std::string("none") : s;
    };
    std::printf("# decision cycles on %zu jobs (%zu pending), %zu nodes; policies:", assembler.state()->jobs.size(),
                pending, assembler.state()->nodes.size());
    for (const auto& p : config.policies)
        std::printf(" %s", p.name.c_str());
    if (config.thread_policy)
        std::printf("; threads %s", config.thread_policy->name.c_str());
    std::printf("%s%s; %ld instances in the ledger's history\n", release_held ? "; held jobs released" : "",
                busy_local ? "; local nodes busy" : "", history);
    std::printf("%-17s %6s %9s %9s  %s\n", "cycle", "count", "cpu_med", "cpu_max", "actuator calls per cycle");
    std::printf("%-17s %6d %9.3f %9.3f  %s\n", "first", 1, first_ms, first_ms, text(first_calls).c_str());
    if (!cycle_ms.empty())
        std::printf("%-17s %6zu %9.3f %9.3f  %s\n", "later", cycle_ms.size(), median(cycle_ms), largest(cycle_ms),
                    text(calls).c_str());
    if (!ingest_ms.empty())
        std::printf("%-17s %6zu %9.3f %9.3f  (the last job-changing delta applied again)\n", "ingest", ingest_ms.size(),
                    median(ingest_ms), largest(ingest_ms));
    if (!cycle_ms.empty() && !ingest_ms.empty())
        std::printf("%-17s %6s %9.3f %9s  ingest + later cycle, medians\n", "ingest+cycle", "",
                    median(ingest_ms) + median(cycle_ms), "");
    return 0;
}
