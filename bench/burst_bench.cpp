// Policy decision time and burstsim throughput.  Prints numbers; asserts nothing.
//
//   bench/burst_bench [TRACE_DIR [SECTION...]]   (default /work/shared/traces/swf, all sections)
//
// Sections: parse, decide, sim.  Times are CPU time of this process (and
// wall time beside it), so that a loaded machine inflates them less.
// decide:N times the decisions at N pending jobs only, e.g. under
// valgrind --tool=callgrind --toggle-collect='burst::*Policy::decide*',
// where the other sizes would take an hour; an empty TRACE_DIR skips the
// parsing.
//
// 1. parses every *.swf under TRACE_DIR (and its subdirectories), reporting
//    jobs, malformed and unusable lines and parse speed;
// 2. times Policy::decide for every policy on synthetic sites with 1k, 10k,
//    100k and 1M pending jobs (median and p99 over repeated calls), and pfa
//    once more with half the pending jobs in dependency chains (token
//    propagation over a graph instead of plain queue demand);
// 3. replays the largest trace found with never, always, predictive and
//    fixed-delay and reports simulated jobs per CPU second.
#include "app/heap_tuning.hpp"
#include "policy/policy_factory.hpp"
#include "sim/sim_metrics.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_loader.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

using namespace burst;
using Stopwatch = std::chrono::steady_clock;

namespace {

double seconds_since(Stopwatch::time_point start)
{
    return std::chrono::duration<double>(Stopwatch::now() - start).count();
}

double cpu_seconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

ClusterState synthetic_site(std::size_t pending, std::mt19937_64& rng)
{
    ClusterState s;
    for (int i = 0; i < 64; ++i) {
        Node n;
        n.name = "c" + std::to_string(i);
        n.cpus = 32;
        n.alloc_cpus = 32;
        n.base = NodeBaseState::Allocated;
        s.snapshot.nodes.push_back(n);
    }
    for (int g = 0; g < 2; ++g) {
        NodeGroup group;
        group.name = g == 0 ? "aws" : "gcp";
        group.cpus = g == 0 ? 8 : 16;
        group.price_per_hour = g == 0 ? 0.4 : 0.7;
        group.boot_time = 120;
        for (int i = 0; i < 200; ++i) {
            Node n;
            n.name = group.name + "-" + std::to_string(i);
            n.cpus = group.cpus;
            n.flags = kNodeCloud | (i < 20 ? 0u : std::uint32_t(kNodePoweredDown));
            n.alloc_cpus = i < 10 ? group.cpus : 0;
            group.nodes.push_back(n.name);
            s.snapshot.nodes.push_back(n);
        }
        s.groups.push_back(group);
    }
    std::uniform_int_distribution<int> cpus(1, 16), cat(0, 49), limit(60, 86400);
    JobId id = 1;
    for (int i = 0; i < 2000; ++i, ++id) {
        Job j;
        j.id = id;
        j.state = JobState::Running;
        j.cpus = std::uint32_t(cpus(rng));
        j.start_time = 1000.0 - double(limit(rng) % 900);
        j.time_limit = limit(rng);
        j.category = "cat" + std::to_string(cat(rng));
        j.partitions = {"local"};
        s.snapshot.jobs.push_back(j);
    }
    for (std::size_t i = 0; i < pending; ++i, ++id) {
        Job j;
        j.id = id;
        j.cpus = std::uint32_t(cpus(rng));
        j.priority = std::uint32_t(rng() % 100000);
        j.submit_time = double(i);
        j.time_limit = limit(rng);
        j.category = "cat" + std::to_string(cat(rng));
        j.partitions = {"local"};
        s.snapshot.jobs.push_back(j);
    }
    return s;
}

// Every other pending job waits for the one submitted before it, as
// workflow tasks do: pfa's token propagation then walks a real graph.
void add_dependency_chains(ClusterState& s)
{
    bool odd = false;
    for (auto& j : s.snapshot.jobs) {
        if (!j.pending())
            continue;
        if (odd) {
            j.dependency = "afterok:" + std::to_string(j.id - 1);
            j.reason = "Dependency";
        }
        odd = !odd;
    }
}

void bench_decisions(const std::vector<std::size_t>& sizes)
{
    std::printf("\n== Policy::decide time (64x32 local cores busy, 2 groups x 200 nodes, 2000 running) ==\n");
    std::printf("%-12s %9s %7s %12s %12s %12s\n", "policy", "pending", "calls", "cpu_med_ms", "cpu_p99_ms",
                "wall_med_ms");
    for (std::size_t pending : sizes) {
        std::mt19937_64 rng(42);
        ClusterState state = synthetic_site(pending, rng);
        const int calls = pending >= 1000000 ? 5 : pending >= 100000 ? 30 : 200;
        std::vector<std::string> names = policy_names();
        names.push_back("pfa(deps)");
        for (const auto& label : names) {
            const bool deps = label == "pfa(deps)";
            const std::string name = deps ? "pfa" : label;
            if (deps) // the last row: a copy of a 1M-job state would not fit everywhere
                add_dependency_chains(state);
            auto policy = make_policy(name, PolicyParams{});
            for (int c = 0; c < 50; ++c) { // learned runtimes for boot-window
                JobEnd e;
                e.category = "cat" + std::to_string(c);
                e.elapsed = 300 + 60 * c;
                policy->observe(e);
            }
            std::vector<double> ms, wall;
            ManualClock clock(1000);
            std::size_t actions = 0;
            for (int c = 0; c < calls; ++c) {
                auto start = Stopwatch::now();
                const double cpu = cpu_seconds();
                Decision d = policy->decide(state, clock);
                ms.push_back((cpu_seconds() - cpu) * 1000);
                wall.push_back(seconds_since(start) * 1000);
                actions += d.actions.size();
                clock.advance(60);
            }
            std::sort(ms.begin(), ms.end());
            std::sort(wall.begin(), wall.end());
            std::printf("%-12s %9zu %7d %12.3f %12.3f %12.3f   (%zu actions)\n", label.c_str(), pending, calls,
                        ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 99 / 100)], wall[wall.size() / 2],
                        actions);
        }
    }
}

} // namespace

int main(int argc, char** argv)
{
    keep_cycle_buffers_in_heap(); // as burstd and burstsim do
    const std::string dir = argc > 1 ? argv[1] : "/work/shared/traces/swf";
    std::vector<std::string> sections(argv + std::min(argc, 2), argv + argc);
    auto wanted = [&sections](const char* s) {
        return sections.empty() || std::find(sections.begin(), sections.end(), s) != sections.end();
    };
    std::printf("== trace parsing (%s) ==\n", dir.c_str());
    std::string largest;
    std::size_t largest_jobs = 0;
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir, ec))
        if (entry.path().extension() == ".swf")
            files.push_back(entry.path().string());
    if (ec) {
        std::fprintf(stderr, "burst_bench: %s: %s\n", dir.c_str(), ec.message().c_str());
        return 1;
    }
    std::sort(files.begin(), files.end());
    Trace big;
    for (const auto& f : files) {
        auto start = Stopwatch::now();
        Trace t = load_trace(f, "swf");
        const double s = seconds_since(start);
        if (wanted("parse"))
            std::printf("%-60s %7zu jobs %7zu lines %4zu malformed %4zu unusable  %6.0f klines/s\n",
                    std::filesystem::path(f).filename().c_str(), t.report.jobs, t.report.lines,
                    t.report.malformed, t.report.unusable, double(t.report.lines) / s / 1000);
        if (t.report.jobs > largest_jobs) {
            largest_jobs = t.report.jobs;
            largest = f;
            big = std::move(t);
        }
    }

    std::vector<std::size_t> decide_sizes;
    for (const auto& s : sections) {
        if (s.rfind("decide:", 0) != 0)
            continue;
        char* end = nullptr;
        const unsigned long n = std::strtoul(s.c_str() + 7, &end, 10);
        if (n == 0 || *end != '\0') {
            std::fprintf(stderr, "burst_bench: section %s: expected decide:N with N a positive number of pending jobs\n",
                         s.c_str());
            return 1;
        }
        decide_sizes.push_back(n);
    }
    if (decide_sizes.empty() && wanted("decide"))
        decide_sizes = {1000, 10000, 100000, 1000000};
    if (!decide_sizes.empty())
        bench_decisions(decide_sizes);

    if (largest.empty() || !wanted("sim"))
        return 0;
    std::printf("\n== burstsim throughput on %s (%zu jobs, EASY backfill, group 8 cpus x 50) ==\n",
                std::filesystem::path(largest).filename().c_str(), largest_jobs);
    std::printf("%-12s %12s %10s %10s %12s %12s %12s\n", "policy", "local_cores", "cpu_s", "wall_s", "jobs/cpu_s",
                "decisions", "mean_wait_h");
    const std::uint32_t header_cores = std::uint32_t(big.report.max_procs ? big.report.max_procs : 1024);
    for (std::uint32_t cores : {header_cores, 3000u, 1000u}) {
        for (const char* name : {"never", "always", "predictive", "fixed-delay", "pfa"}) {
            SimConfig config;
            config.local_cores = cores;
            NodeGroup g;
            g.name = "aws";
            g.cpus = 8;
            g.max_count = 50;
            g.price_per_hour = 0.4;
            g.boot_time = 120;
            config.groups = {g};
            auto policy = make_policy(name, PolicyParams{});
            auto start = Stopwatch::now();
            const double cpu = cpu_seconds();
            SimResult r = simulate(config, big.jobs, *policy);
            const double c = cpu_seconds() - cpu, s = seconds_since(start);
            SimMetrics m = compute_metrics(r, 1);
            std::printf("%-12s %12u %10.2f %10.2f %12.0f %12llu %12.2f\n", name, cores, c, s,
                        double(r.jobs.size()) / c, static_cast<unsigned long long>(r.decisions), m.mean_wait / 3600);
        }
    }
    return 0;
}
