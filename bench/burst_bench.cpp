// Policy decision time and burstsim throughput.  Prints numbers; asserts nothing.
//
//   bench/burst_bench [--sizes N,N,...] [--policies P,P,...] [--cold] [TRACE_DIR [SECTION...]]
//   (default the source tree's tests/data/traces/swf, all sections, sizes
//   1000,10000,100000,1000000, every policy)
//
// Sections: parse, decide, sim, learn, threads, split, bound, buckets.  Times are CPU time of this process (and
// wall time beside it), so that a loaded machine inflates them less.
//
// 1. parses every *.swf under TRACE_DIR (and its subdirectories), reporting
//    jobs, malformed and unusable lines and parse speed;
// 2. times Policy::decide for every policy on synthetic sites with each
//    size of pending jobs (median and tail over repeated calls: the p99 with
//    100 calls or more, else only the max is honest), and pfa once more with
//    half the pending jobs in dependency chains (token propagation over a
//    graph instead of plain queue demand); then how the median grows from
//    one size to the next, beside the n log n ratio;
// 3. feeds the forecast's runtime model 4M finished jobs whose names never
//    repeat (a site whose job names carry a date or a counter), reporting
//    the keys it holds, the heap it takes and the CPU time per job since the
//    last line: all three must level off, not grow with what burstd has
//    seen (learn);
// 4. splits a budget across accounts by fair-share (pfa does at every
//    decision with scope=site) on association trees of 10k-100k
//    associations, with few or many accounts with work and a deep chain
//    (split);
// 5. replays the largest trace found with never, always, predictive and
//    fixed-delay and reports simulated jobs per CPU second (sim);
// 6. works out the lower bound on J of every schedule (burstsim prints it
//    per λ with --clairvoyant) on the largest trace at a congested and a
//    roomier site, at λ = 0.5× and 5× the core-hour price (bound);
// 7. times a decision cycle's resource buckets and forecasts (issue 27's
//    target: at most 10 ms a cycle for 100k pending jobs and 50 groups):
//    the cycle's SiteView, BucketSeries::observe on it, and every
//    registered forecaster's update and forecast for every group, at each
//    size of pending jobs (buckets).
#include "bench_args.hpp"
#include "decide_stats.hpp"

#include "app/heap_tuning.hpp"
#include "policy/budget/budget_split.hpp"
#include "policy/policy_registry.hpp"
#include "policy/runtime/runtime_ratio_model.hpp"
#include "policy/threads/scaling_book.hpp"
#include "policy/threads/thread_allocator_registry.hpp"
#include "policy/warm/buckets/bucket_series.hpp"
#include "policy/warm/forecasters/forecaster_registry.hpp"
#include "sim/reference/objective_bound.hpp"
#include "sim/report/sim_metrics.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/trace/trace_loader.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <malloc.h>
#include <filesystem>
#include <map>
#include <optional>
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
    // As at a site with DefMemPerCPU: every job asks memory per node, one
    // in ten a GPU, one in twenty a feature (none the groups have).
    const std::vector<NodeNeeds> needs = [] {
        std::vector<NodeNeeds> n;
        for (std::uint32_t cpt : {1u, 2u, 4u, 8u}) {
            n.emplace_back("", "", cpt, 2000 * cpt);
            n.emplace_back("gres:gpu:1", "", cpt, 2000 * cpt);
            n.emplace_back("", "infiniband", cpt, 2000 * cpt);
        }
        return n;
    }();
    for (std::size_t i = 0; i < pending; ++i, ++id) {
        Job j;
        j.id = id;
        j.cpus = std::uint32_t(cpus(rng));
        j.priority = std::uint32_t(rng() % 100000);
        j.submit_time = double(i);
        j.time_limit = limit(rng);
        j.category = "cat" + std::to_string(cat(rng));
        j.partitions = {"local"};
        const std::size_t kind = rng() % 20;
        j.needs = needs[3 * (rng() % 4) + (kind < 2 ? 1 : kind < 3 ? 2 : 0)];
        s.snapshot.jobs.push_back(j);
    }
    return s;
}

// Heap bytes in use: unlike the resident set, not hidden by memory the
// parse and decide sections freed.
double heap_in_use_mib()
{
    return double(mallinfo2().uordblks) / (1024.0 * 1024.0);
}

// 200 users submit jobs of ever new names, a cycle of 100 jobs at a time, as
// burstd's feed does: noted while running, then their ends observed.  The
// plugin's category hashes the name too, so every job has its own.
void bench_learning()
{
    std::printf("\n== runtime model memory: job names that never repeat ==\n");
    std::printf("%12s %12s %16s %20s\n", "jobs_ended", "keys_held", "model_heap_mib", "us/job_since_last");
    RuntimeRatioModel model;
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> ratio(0.05, 1.0);
    std::size_t ended = 0;
    const double heap_before = heap_in_use_mib();
    for (std::size_t report : {10000u, 100000u, 1000000u, 2000000u, 4000000u}) {
        const double cpu = cpu_seconds();
        const std::size_t from = ended;
        for (; ended < report; ended += 100) {
            const Time now = double(ended);
            model.begin_cycle(now);
            std::vector<Job> cycle(100);
            for (std::size_t k = 0; k < cycle.size(); ++k) {
                Job& j = cycle[k];
                j.id = JobId(ended + k + 1);
                j.user = "user" + std::to_string(rng() % 200);
                j.name = "run-" + std::to_string(ended + k);
                j.category = "category-" + std::to_string(ended + k);
                j.time_limit = double(600 + rng() % 86400);
                j.state = JobState::Running;
                j.start_time = now - 10;
                model.note(j);
            }
            for (const Job& j : cycle) {
                JobEnd e;
                e.id = j.id;
                e.category = j.category;
                e.elapsed = ratio(rng) * j.time_limit;
                model.observe(e);
            }
        }
        std::printf("%12zu %12zu %16.1f %20.2f\n", ended, model.learned_keys(), heap_in_use_mib() - heap_before,
                    (cpu_seconds() - cpu) / double(ended - from) * 1e6);
    }
}

// A local node of partition "local" with `alloc` of its cores allocated.
void add_local_node(ClusterState& s, std::string name, std::uint32_t cpus, std::uint32_t alloc)
{
    Node n;
    n.name = std::move(name);
    n.cpus = cpus;
    n.alloc_cpus = alloc;
    n.base = alloc == 0 ? NodeBaseState::Idle : alloc < cpus ? NodeBaseState::Mixed : NodeBaseState::Allocated;
    n.partitions = {"local"};
    s.snapshot.nodes.push_back(std::move(n));
}

// ThreadPolicy=greedy's step over N pending --threads=auto jobs, on 1,000
// local 64-core nodes half busy and one cloud group: every job's choice, and
// the advice for every known category.  The first step changes every job
// that gains by it (max_changes is lifted) and advises every category; its
// changes are then applied, as Slurm would, and the steps after it are the
// steady state: each job's choice is worked out again, none changes.
void bench_thread_choice(const ScalingBook& book, const std::vector<std::string>& categories)
{
    std::printf("\n== ThreadPolicy=greedy: the thread step over pending auto jobs (book of %zu categories) ==\n",
                categories.size());
    std::printf("%14s %12s %12s %14s %14s %12s\n", "pending_auto", "categories", "changed", "ms/first_step",
                "ms/step", "advised");
    for (std::size_t pending : {std::size_t(1000), std::size_t(10000), std::size_t(100000)})
        for (std::size_t spread : {std::size_t(1000), categories.size()}) {
            if (spread > pending)
                continue;
            ClusterState s;
            for (int i = 0; i < 1000; ++i)
                add_local_node(s, "n" + std::to_string(i), 64, i % 2 ? 64 : 0);
            NodeGroup g;
            g.name = "cloud";
            g.cpus = 16;
            g.price_per_hour = 0.8;
            for (int i = 0; i < 100; ++i) {
                Node n;
                n.name = "c" + std::to_string(i);
                n.cpus = 16;
                n.flags = kNodeCloud | kNodePoweredDown;
                n.partitions = {"cloud"};
                g.nodes.push_back(n.name);
                s.snapshot.nodes.push_back(n);
            }
            s.groups.push_back(g);
            std::map<JobId, std::size_t> index;
            for (std::size_t i = 0; i < pending; ++i) {
                Job j;
                j.id = JobId(i + 1);
                j.priority = std::uint32_t(pending - i);
                j.category = categories[(i * 7919) % spread];
                j.threads.automatic = true;
                j.partitions = {"local"};
                index[j.id] = i;
                s.snapshot.jobs.push_back(std::move(j));
            }
            const auto stage = make_thread_stage("greedy", PolicyParams(std::map<std::string, std::string>{{"max_changes", "100000"}}));
            double cpu = cpu_seconds();
            const ThreadStageOutcome first = stage->decide(s, book);
            const double first_ms = (cpu_seconds() - cpu) * 1e3;
            for (const auto& a : first.actions) {
                const auto& t = std::get<SetJobThreads>(a.what);
                Job& j = s.snapshot.jobs[index[t.job]];
                j.cpus_per_task = t.cpus_per_task;
                j.cpus = t.cpus;
            }
            std::vector<double> ms;
            std::size_t changed_later = 0;
            for (int rep = 0; rep < 5; ++rep) {
                cpu = cpu_seconds();
                changed_later += stage->decide(s, book).actions.size();
                ms.push_back((cpu_seconds() - cpu) * 1e3);
            }
            std::sort(ms.begin(), ms.end());
            std::printf("%14zu %12zu %12zu %14.1f %14.1f %12zu%s\n", pending, spread, first.actions.size(), first_ms,
                        ms[ms.size() / 2], stage->advice().size(), changed_later ? "  (changed again!)" : "");
        }
}

// The thread step over dependency chains, as a pipeline site queues them:
// chains of 7 jobs, each with its first job running on local nodes and the
// other 6 held by afterok on the one before (every category known), so
// that the next job is weighed on its parent's cores and every job reads
// the rest of its chain.  ms/step is the steady state, median of 5.
void bench_chain_choice(const ScalingBook& book, const std::vector<std::string>& categories)
{
    std::printf("\n== thread policies over chains of 7 (1 running, 6 held), book of %zu categories ==\n",
                categories.size());
    std::printf("%20s %12s %12s %14s %14s\n", "policy", "held_auto", "changed", "ms/first_step", "ms/step");
    for (const char* policy : {"greedy", "long-term", "long-term-adaptive"})
        for (std::size_t chains : {std::size_t(1000), std::size_t(10000)}) {
            ClusterState s;
            for (int i = 0; i < 1000; ++i)
                add_local_node(s, "n" + std::to_string(i), 64, 32);
            JobId id = 0;
            for (std::size_t c = 0; c < chains; ++c)
                for (std::size_t stage = 0; stage < 7; ++stage) {
                    Job j;
                    j.id = ++id;
                    j.priority = std::uint32_t(10 * chains - id);
                    j.category = categories[(c * 7 + stage) % 1000];
                    j.threads.automatic = true;
                    j.partitions = {"local"};
                    if (stage == 0) {
                        j.state = JobState::Running;
                        j.nodes = {"n" + std::to_string(c % 1000)};
                    } else {
                        j.reason = "Dependency";
                        j.dependency = "afterok:" + std::to_string(id - 1) + "(unfulfilled)";
                    }
                    s.snapshot.jobs.push_back(std::move(j));
                }
            const auto stage = make_thread_stage(
                policy, PolicyParams(std::map<std::string, std::string>{{"max_changes", "100000"}, {"lambda", "4"}}));
            double cpu = cpu_seconds();
            const ThreadStageOutcome first = stage->decide(s, book);
            const double first_ms = (cpu_seconds() - cpu) * 1e3;
            std::vector<double> ms;
            for (int rep = 0; rep < 5; ++rep) {
                cpu = cpu_seconds();
                stage->decide(s, book);
                ms.push_back((cpu_seconds() - cpu) * 1e3);
            }
            std::sort(ms.begin(), ms.end());
            std::printf("%20s %12zu %12zu %14.1f %14.1f\n", policy, chains * 6, first.actions.size(), first_ms,
                        ms[ms.size() / 2]);
        }
}

// Thread-scaling learning at 100k categories: every category's runs at
// thread counts 1, 2, 4, 8 with 5% noise, fed as job ends, and how close
// each fit comes to the category's true c after every fourth run; then a
// fit of every category, as burstctl status and a thread choice for every
// pending auto job would need.
void bench_thread_scaling()
{
    std::printf("\n== thread scaling: 100k categories, 20 runs each ==\n");
    std::printf("%12s %12s %18s %16s %20s\n", "categories", "runs", "heap_bytes/categ", "us/job_end", "ms/summary");
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> noise(0.95, 1.05), share(0.0, 1.0);
    constexpr std::size_t kCategories = 100000;
    std::vector<std::string> names(kCategories);
    std::vector<double> scalable(kCategories);
    for (std::size_t i = 0; i < kCategories; ++i) {
        // As the plugin names them: 16 hex digits, too long for a short string.
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(i * 0x9e3779b97f4a7c15ull));
        names[i] = hex;
        scalable[i] = share(rng);
    }
    const double heap_before = heap_in_use_mib();
    ScalingBook book;
    const std::uint32_t counts[] = {1, 2, 4, 8};
    double learn_cpu = 0;
    std::size_t runs = 0;
    // How close each category's fitted c is to its truth after every
    // fourth run: rows of (runs, known, within 0.05, p95 error, max error).
    std::vector<std::string> convergence;
    std::vector<double> errors;
    for (int round = 0; round < 20; ++round) {
        const double cpu = cpu_seconds();
        for (std::size_t i = 0; i < kCategories; ++i) {
            JobEnd e;
            e.category = names[i];
            e.cpus_per_task = counts[round % 4];
            e.elapsed = 3600 * (scalable[i] / e.cpus_per_task + 1 - scalable[i]) * noise(rng);
            e.state = "COMPLETED";
            runs += book.observe(e) ? 1 : 0;
        }
        learn_cpu += cpu_seconds() - cpu;
        if ((round + 1) % 4 != 0)
            continue;
        errors.clear();
        std::size_t known = 0, close = 0;
        for (std::size_t i = 0; i < kCategories; ++i) {
            const ScalingFit fit = book.fit(names[i]);
            if (!fit.known)
                continue;
            ++known;
            errors.push_back(std::abs(fit.c - scalable[i]));
            close += errors.back() <= 0.05 ? 1 : 0;
        }
        std::sort(errors.begin(), errors.end());
        char row[160];
        std::snprintf(row, sizeof row, "%12d %12zu %16.4f %16.4f %12.4f", round + 1, known,
                      known ? double(close) / double(known) : 0.0, errors.empty() ? 0.0 : errors[errors.size() * 95 / 100],
                      errors.empty() ? 0.0 : errors.back());
        convergence.emplace_back(row);
    }
    std::vector<double>().swap(errors); // not the book's memory
    const double per_end = learn_cpu / double(runs) * 1e6;
    const double heap = (heap_in_use_mib() - heap_before) * 1024 * 1024 / double(kCategories);
    const double summary_cpu = cpu_seconds();
    const ScalingBook::Summary summary = book.summary();
    std::printf("%12zu %12zu %18.0f %16.3f %20.1f\n", summary.categories, runs, heap, per_end,
                (cpu_seconds() - summary_cpu) * 1e3);
    std::printf("known: %zu of %zu\n", summary.known, summary.categories);
    std::printf("\n== thread scaling: the fitted c against each category's true c (uniform in [0, 1]; runs at 1, 2, 4, 8 "
                "CPUs per task in turn, each within 5%% of T(t)) ==\n");
    std::printf("%12s %12s %16s %16s %12s\n", "runs_each", "known", "share<=0.05", "p95_error", "max_error");
    for (const auto& row : convergence)
        std::printf("%s\n", row.c_str());
    bench_thread_choice(book, names);
    bench_chain_choice(book, names);
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

// How the median CPU time grows from each size to the next, beside the n log n
// ratio: a policy within the target grows by no more than that.
void print_growth(const std::vector<std::size_t>& sizes, const std::vector<std::string>& labels,
                  const std::map<std::string, std::vector<double>>& medians)
{
    if (sizes.size() < 2)
        return;
    std::printf("\n== growth of the median decide CPU time from one size to the next ==\n%-12s", "policy");
    for (std::size_t i = 1; i < sizes.size(); ++i)
        std::printf(" %17s", (std::to_string(sizes[i - 1]) + "->" + std::to_string(sizes[i])).c_str());
    std::printf("\n%-12s", "n log n");
    for (double r : bench::nlogn_ratios(sizes))
        std::printf(" %17.2f", r);
    std::printf("\n");
    for (const auto& label : labels) {
        std::printf("%-12s", label.c_str());
        for (double r : bench::growth_ratios(medians.at(label))) {
            if (std::isnan(r))
                std::printf(" %17s", "-");
            else
                std::printf(" %17.2f", r);
        }
        std::printf("\n");
    }
}

// Writes a buffer larger than any last-level cache, so that the next
// decision finds none of its site's data cached.  Without it a site whose
// hot data fits the L3 (a 100k-job site's Jobs, 6 MB of first lines)
// is timed from the cache and a larger one from memory, and the growth
// between them measures the cache's size as much as the code.
class CacheEvictor {
public:
    void operator()()
    {
        for (std::size_t i = 0; i < buffer_.size(); i += 64)
            ++buffer_[i];
    }

private:
    std::vector<unsigned char> buffer_ = std::vector<unsigned char>(std::size_t(256) << 20);
};

// Every row the decide section has: each policy, then pfa over dependency chains.
std::vector<std::string> decide_rows()
{
    std::vector<std::string> rows = policy_names();
    rows.push_back("pfa(deps)");
    return rows;
}

void bench_decisions(const std::vector<std::size_t>& sizes, const std::vector<std::string>& labels, bool cold)
{
    std::printf("\n== Policy::decide time (64x32 local cores busy, 2 groups x 200 nodes, 2000 running)%s ==\n",
                cold ? ", caches evicted before each call" : "");
    std::optional<CacheEvictor> evict;
    if (cold)
        evict.emplace();
    std::printf("%-12s %9s %7s %12s %12s %5s %12s\n", "policy", "pending", "calls", "cpu_med_ms", "cpu_tail_ms",
                "tail", "wall_med_ms");
    std::map<std::string, std::vector<double>> medians;
    for (std::size_t pending : sizes) {
        std::mt19937_64 rng(42);
        ClusterState state = synthetic_site(pending, rng);
        const int calls = pending >= 1000000 ? 5 : pending >= 100000 ? 30 : 200;
        for (const auto& label : labels) {
            const bool deps = label == "pfa(deps)";
            const std::string name = deps ? "pfa" : label;
            if (deps) // the last row (decide_rows): a copy of a 1M-job state would not fit everywhere
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
                if (evict)
                    (*evict)();
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
            const bench::TailTime tail = bench::tail_of(ms);
            std::printf("%-12s %9zu %7d %12.3f %12.3f %5s %12.3f   (%zu actions)\n", label.c_str(), pending, calls,
                        ms[ms.size() / 2], tail.ms, tail.label.c_str(), wall[wall.size() / 2], actions);
            medians[label].push_back(ms[ms.size() / 2]);
        }
    }
    print_growth(sizes, labels, medians);
}

} // namespace

// A site's association tree: root, `departments` under it, `accounts`
// spread over them with `users` each (every user 1 share and a Fair Tree
// factor); the first `with_work` accounts have jobs.
struct ShareSite {
    std::vector<Share> shares;
    std::vector<std::string> with_work;
};

Share association(std::string account, std::string user, std::string parent, double raw)
{
    Share s;
    s.account = std::move(account);
    s.user = std::move(user);
    s.parent = std::move(parent);
    s.raw_shares = raw;
    s.fairshare_factor = 0.5;
    return s;
}

ShareSite share_site(std::size_t departments, std::size_t accounts, std::size_t users, std::size_t with_work)
{
    ShareSite site;
    auto add = [&site](std::string account, std::string user, std::string parent, double raw) {
        site.shares.push_back(association(std::move(account), std::move(user), std::move(parent), raw));
    };
    add("root", "", "", 1);
    for (std::size_t d = 0; d < departments; ++d)
        add("dept" + std::to_string(d), "", "root", 10);
    for (std::size_t a = 0; a < accounts; ++a) {
        const std::string name = "acct" + std::to_string(a);
        add(name, "", "dept" + std::to_string(a % departments), 5);
        for (std::size_t u = 0; u < users; ++u)
            add(name, "user" + std::to_string(u), name, 1);
        if (a < with_work)
            site.with_work.push_back(name);
    }
    return site;
}

void time_split(const char* what, const ShareSite& site)
{
    constexpr int kCalls = 20;
    std::vector<double> ms;
    double sink = 0;
    for (int i = 0; i < kCalls; ++i) {
        const double cpu = cpu_seconds();
        sink += split_budget(100, site.with_work, site.shares, BudgetSplit::FairShare).begin()->second;
        ms.push_back((cpu_seconds() - cpu) * 1000);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%-44s %9zu %9zu %10.2f %10.2f%s\n", what, site.shares.size(), site.with_work.size(), ms[kCalls / 2],
                ms.back(), sink > 0 ? "" : " (no budget?)");
}

void bench_budget_split()
{
    std::printf("\n== budget split by fair-share (pfa scope=site, once per decision) ==\n");
    std::printf("%-44s %9s %9s %10s %10s\n", "site", "assocs", "with_work", "cpu_med_ms", "cpu_max_ms");
    time_split("20 depts, 100 accounts x 100 users", share_site(20, 100, 100, 50));
    time_split("20 depts, 600 accounts x 100 users", share_site(20, 600, 100, 400));
    time_split("100 depts, 50k accounts x 1 user", share_site(100, 50000, 1, 50000));
    ShareSite chain; // every account one level below the last, each with a leaf that has work
    std::string parent = "root";
    chain.shares.push_back(association("root", "", "", 1));
    for (std::size_t a = 0; a < 20000; ++a) {
        const std::string name = "chain" + std::to_string(a), leaf = "leaf" + std::to_string(a);
        chain.shares.push_back(association(name, "", parent, 1));
        chain.shares.push_back(association(leaf, "", name, 1));
        chain.with_work.push_back(leaf);
        parent = name;
    }
    time_split("a 20k-deep chain, 20k leaves with work", chain);
}

// The site of bench/trace_table.sh: 8-core nodes at 0.40 per hour, as many
// as there are local cores / 8, at least 20.
SimConfig trace_table_site(std::uint32_t local_cores)
{
    SimConfig config;
    config.local_cores = local_cores;
    NodeGroup g;
    g.name = "aws";
    g.cpus = 8;
    g.max_count = std::max<std::uint32_t>(20, local_cores / 8);
    g.price_per_hour = 0.4;
    g.boot_time = 120;
    config.groups = {g};
    return config;
}

void bench_objective_bound(const std::string& path, const Trace& trace)
{
    std::printf("\n== lower bound on J of every schedule, %s (%zu jobs; 300 steps, 300-s buckets) ==\n",
                std::filesystem::path(path).filename().c_str(), trace.jobs.size());
    std::printf("%12s %8s %10s %10s %12s %12s\n", "local_cores", "lambda", "cpu_s", "wall_s", "J-bound",
                "always_J");
    for (std::uint32_t cores : {1500u, 3000u}) {
        const SimConfig config = trace_table_site(cores);
        auto always = make_policy("always", PolicyParams{});
        const SimResult run = simulate(config, trace.jobs, *always);
        for (double lambda : {0.025, 0.25}) {
            const double achieved = objective_at(compute_metrics(run, lambda), lambda);
            auto start = Stopwatch::now();
            const double cpu = cpu_seconds();
            const auto bound = objective_bound(config, trace.jobs, lambda, achieved);
            const double c = cpu_seconds() - cpu, s = seconds_since(start);
            std::printf("%12u %8.3f %10.2f %10.2f %12.1f %12.1f\n", cores, lambda, c, s, bound.value_or(0.0),
                        achieved);
        }
    }
}

// 50 groups of cloud nodes in 25 shapes (4 to 64 cores, 4 or 8 GB a core,
// every fifth with a GPU), 20 nodes each, and `pending` burstable jobs of
// 1 to 64 cores asking 2 or 4 GB a core, one in ten a GPU, one in five an
// array of 4 tasks: a few hundred distinct shapes, as queues have.
ClusterState bucket_site(std::size_t pending, std::mt19937_64& rng)
{
    ClusterState s;
    add_local_node(s, "n0", 64, 64);
    for (int g = 0; g < 50; ++g) {
        NodeGroup group;
        group.name = "g" + std::to_string(g);
        group.cpus = 4u << (g % 5);
        group.memory_mb = std::uint64_t(group.cpus) * (g % 10 < 5 ? 4096 : 8192);
        group.gres = g % 5 == 4 ? "gpu:1" : "";
        group.price_per_hour = 0.05 * group.cpus;
        for (int i = 0; i < 20; ++i) {
            Node n;
            n.name = group.name + "-" + std::to_string(i);
            n.cpus = group.cpus;
            n.memory_mb = group.memory_mb;
            n.gres = group.gres;
            n.flags = kNodeCloud | kNodePoweredDown;
            n.partitions = {group.name};
            group.nodes.push_back(n.name);
            s.snapshot.nodes.push_back(std::move(n));
        }
        s.groups.push_back(std::move(group));
    }
    std::uniform_int_distribution<std::uint32_t> cpus(1, 64);
    for (std::size_t i = 0; i < pending; ++i) {
        Job j;
        j.id = JobId(i + 1);
        j.cpus = cpus(rng);
        j.memory_mb = std::uint64_t(j.cpus) * (rng() % 2 ? 2048 : 4096);
        j.priority = std::uint32_t(rng() % 100000);
        j.submit_time = double(i);
        j.time_limit = 3600;
        j.partitions = {"local"};
        if (rng() % 10 == 0)
            j.needs = NodeNeeds("gres:gpu:1", "", j.cpus);
        if (rng() % 5 == 0)
            j.array_task_count = 4;
        s.snapshot.jobs.push_back(std::move(j));
    }
    return s;
}

void bench_buckets(const std::vector<std::size_t>& sizes)
{
    std::printf("\n== resource buckets and forecasts per decision cycle (50 groups of 20 nodes; every "
                "forecaster per group) ==\n");
    std::printf("%9s %7s %14s %14s %14s %14s %14s\n", "pending", "cycles", "site_view_ms", "observe_ms",
                "forecast_ms", "buckets_ms", "with_view_ms");
    for (std::size_t pending : sizes) {
        std::mt19937_64 rng(27);
        const ClusterState state = bucket_site(pending, rng);
        constexpr Seconds kTick = 300;
        BucketSeries series(ResourceOrder(), kTick);
        // A week of history first, so that Holt-Winters has started and
        // quantile's window is full: their steady state.
        std::vector<std::vector<std::unique_ptr<Forecaster>>> forecasters(state.groups.size());
        for (auto& per_group : forecasters)
            for (const auto& name : forecaster_names()) {
                per_group.push_back(make_forecaster(name, kTick));
                for (std::uint32_t t = 0; t < 7 * 288; ++t)
                    per_group.back()->observe(double(t % 288 / 12));
            }
        const int cycles = pending >= 1000000 ? 5 : pending >= 100000 ? 30 : 100;
        std::vector<double> view_ms, observe_ms, forecast_ms, buckets_ms, total_ms;
        for (int c = 0; c < cycles; ++c) {
            const Time now = 7 * 86400 + double(c) * kTick;
            double cpu = cpu_seconds();
            const SiteView view = SiteView::of(state);
            view_ms.push_back((cpu_seconds() - cpu) * 1e3);
            cpu = cpu_seconds();
            series.observe(state, view, now);
            observe_ms.push_back((cpu_seconds() - cpu) * 1e3);
            cpu = cpu_seconds();
            for (std::size_t g = 0; g < forecasters.size(); ++g) {
                const GroupBucketSeries& s = series.groups()[g];
                const std::uint32_t lead = std::uint32_t(std::ceil(s.lead.back() / kTick));
                for (auto& f : forecasters[g]) {
                    f->observe(s.counts.back());
                    f->forecast(lead);
                }
            }
            forecast_ms.push_back((cpu_seconds() - cpu) * 1e3);
            buckets_ms.push_back(observe_ms.back() + forecast_ms.back());
            total_ms.push_back(view_ms.back() + buckets_ms.back());
        }
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v[v.size() / 2];
        };
        std::printf("%9zu %7d %14.2f %14.2f %14.2f %14.2f %14.2f\n", pending, cycles, median(view_ms),
                    median(observe_ms), median(forecast_ms), median(buckets_ms), median(total_ms));
    }
}

int main(int argc, char** argv)
{
    keep_cycle_buffers_in_heap(); // as burstd and burstsim do
    const bench::BenchArgs args = bench::parse_bench_args(std::vector<std::string>(argv + 1, argv + argc));
    if (args.help) {
        std::fputs(bench::kUsage, stdout);
        return 0;
    }
    if (!args.error.empty()) {
        std::fprintf(stderr, "burst_bench: %s\n%s", args.error.c_str(), bench::kUsage);
        return 2;
    }
    const std::vector<std::string> rows = decide_rows();
    if (const std::string p = args.unknown_policy(rows); !p.empty()) {
        std::string known;
        for (const auto& r : rows)
            known += (known.empty() ? "" : ", ") + r;
        std::fprintf(stderr, "burst_bench: --policies: unknown '%s' (known: %s)\n", p.c_str(), known.c_str());
        return 2;
    }
    const std::string& dir = args.trace_dir;
    auto wanted = [&args](const char* s) { return args.wants(s); };
    std::printf("== trace parsing (%s) ==\n", dir.c_str());
    std::string largest;
    std::size_t largest_jobs = 0;
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir, ec))
        if (entry.path().extension() == ".swf")
            files.push_back(entry.path().string());
    if (ec || !std::filesystem::is_directory(dir)) {
        std::fprintf(stderr, "burst_bench: %s: %s\n%s", dir.c_str(),
                     ec ? ec.message().c_str() : "not a directory of SWF traces", bench::kUsage);
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

    if (wanted("decide")) {
        // In decide_rows' order, whatever order they were asked in:
        // pfa(deps) changes the site for the rows after it.
        std::vector<std::string> asked;
        for (const auto& r : rows)
            if (args.policies.empty() ||
                std::find(args.policies.begin(), args.policies.end(), r) != args.policies.end())
                asked.push_back(r);
        bench_decisions(args.sizes, asked, args.cold);
    }

    if (wanted("learn"))
        bench_learning();
    if (wanted("threads"))
        bench_thread_scaling();
    if (wanted("split"))
        bench_budget_split();
    if (wanted("buckets"))
        bench_buckets(args.sizes);
    if (!largest.empty() && wanted("bound"))
        bench_objective_bound(largest, big);
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
