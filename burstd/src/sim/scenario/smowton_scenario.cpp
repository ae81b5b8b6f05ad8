#include "sim/scenario/smowton_scenario.hpp"

#include "policy/cycle/decision_cycle.hpp"
#include "policy/policy_registry.hpp"
#include "policy/threads/thread_allocator_registry.hpp"
#include "sim/engine/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>

namespace burst {
namespace {

constexpr double kTu = 60; // seconds per TU in the simulated site

std::string number(double v)
{
    std::ostringstream s;
    s << std::setprecision(10) << v;
    return s.str();
}

} // namespace

SmowtonOptions parse_smowton_options(const std::string& text, std::uint64_t seed)
{
    WorkloadSpec s("smowton scenario", text);
    SmowtonOptions o;
    o.seed = seed;
    o.duration = s.get_double("duration", o.duration, 10, 1e6);
    o.repetitions = s.get_uint("reps", o.repetitions, 1, 100);
    o.error = s.get_double("error", o.error, 0, 1);
    o.intervals = s.get_double_list("intervals", o.intervals, 0.1, 100);
    o.prices = s.get_double_list("prices", o.prices, 0, 1e6);
    const auto rewards = s.get_choice_list("rewards", o.rewards, {"time", "throughput"});
    o.rewards = rewards;
    o.policies = s.get_choice_list("policies", o.policies, o.policies);
    o.allocators = s.get_choice_list("threads", {}, {"constant", "best-constant", "greedy", "long-term",
                                                     "long-term-adaptive"});
    std::vector<std::uint32_t> counts;
    for (std::uint64_t t : s.get_uint_list("counts", {1, 2, 4, 8, 16}, 1, 7, 1, 64))
        counts.push_back(std::uint32_t(t));
    std::sort(counts.begin(), counts.end());
    o.thread_counts = counts;
    o.plan_seeds = s.get_uint("plan_seeds", o.plan_seeds, 1, 100);
    o.sharing = s.get_double("sharing", o.sharing, 1, 100);
    std::istringstream extra(s.get_string("predictive", ""));
    for (std::string kv; std::getline(extra, kv, ';');)
        if (!kv.empty())
            o.predictive_params.push_back(kv);
    s.reject_unread();
    return o;
}

namespace {

// The paper's reward per pipeline with d at its mean, and the private price,
// in the units burstd's parameters take (per hour, money·s).
std::vector<std::string> reward_params(const SmowtonOptions& o, const std::string& reward, double tu)
{
    const double d = GatkWorkloadSpec{}.size_mean;
    const double per_hour = 3600 / tu; // TU per hour
    std::vector<std::string> p{"reward=" + reward, "local_price=" + number(o.private_price * per_hour)};
    if (reward == "time") // d·R_penalty per TU of delay
        p.push_back("lambda=" + number(d * o.r_penalty * per_hour));
    else // d·R_scale/T, T in TU → CU·s
        p.push_back("reward_scale=" + number(d * o.r_scale * tu));
    return p;
}

} // namespace

std::vector<std::string> smowton_predictive_params(const SmowtonOptions& o, const std::string& reward, double tu)
{
    std::vector<std::string> p = reward_params(o, reward, tu);
    p.insert(p.end(), {"benefit=queue", "late=uniform", "max_error=" + number(o.max_error)});
    p.insert(p.end(), o.predictive_params.begin(), o.predictive_params.end());
    return p;
}

std::vector<std::string> smowton_thread_params(const SmowtonOptions& o, const std::string& reward, double tu)
{
    std::string counts;
    for (std::uint32_t t : o.thread_counts)
        counts += (counts.empty() ? "" : ",") + std::to_string(t);
    std::vector<std::string> p = reward_params(o, reward, tu);
    p.insert(p.end(), {"counts=" + counts, "max=" + std::to_string(o.thread_counts.back()), "explore=0",
                       "min_gain=0", "max_changes=100000"});
    return p;
}

std::vector<std::string> smowton_columns(const SmowtonOptions& o)
{
    if (o.allocators.empty())
        return o.policies;
    std::vector<std::string> columns;
    for (const auto& p : o.policies)
        for (const auto& a : o.allocators)
            columns.push_back(p + "/" + a);
    return columns;
}

namespace {

using StagePlan = std::array<std::uint32_t, 7>;

struct RunOutcome {
    double profit = 0;      // per TU
    double cloud_share = 0; // of stage core-time
};

// The allocators know each stage's model, as the paper's do: Table I taught
// to the thread policy's book as completed runs at every count and a spread
// of sizes.
void teach_gatk(ScalingBook& book, const std::vector<std::uint32_t>& counts)
{
    for (std::size_t s = 0; s < kGatkStages.size(); ++s)
        for (std::uint32_t t : counts)
            for (double d : {3.0, 5.0, 7.0}) {
                JobEnd run;
                run.category = "gatk/stage" + std::to_string(s + 1);
                run.cpus = run.cpus_per_task = t;
                run.size = d;
                run.elapsed = gatk_stage_time(kGatkStages[s], d, t) * kTu;
                run.state = "COMPLETED";
                book.observe(run);
            }
}

class SmowtonRowRun {
public:
    SmowtonRowRun(const SmowtonOptions& o, const std::string& reward, double price, double interval)
        : o_(o), reward_(reward), interval_(interval)
    {
        site_.local_cores = o.private_cores;
        // One pool, as the paper's; with thread counts a task must fit a node.
        site_.local_node_cores = o.allocators.empty() ? 1 : o.private_cores;
        site_.cycle = kTu / 10;
        site_.suspend_time = 0; // the public tier is billed per core while used
        site_.boot_jitter = 0;
        // The paper's public tier is cores; with thread counts its tasks
        // need instances as wide as the widest count, billed whole.
        const std::uint32_t node_cpus = o.allocators.empty() ? 1 : o.thread_counts.back();
        NodeGroup pub;
        pub.name = "public";
        pub.cpus = node_cpus;
        pub.max_count = (o.allocators.empty() ? 2 : 4) * o.private_cores / node_cpus;
        pub.price_per_hour = price * node_cpus * 3600 / kTu;
        pub.boot_time = 0; // "always available"
        pub.min_billed = 0;
        site_.groups = {pub};
    }

    // The stages at `plan` (automatic: a thread policy may change them).
    GatkWorkload workload(std::uint64_t seed, const StagePlan& plan, bool automatic) const
    {
        GatkWorkloadSpec spec;
        spec.interval = interval_;
        spec.duration = o_.duration;
        spec.tu_seconds = kTu;
        spec.error = o_.error;
        spec.seed = seed;
        spec.threads = plan;
        spec.automatic = automatic;
        return generate_gatk(spec);
    }

    // `allocator`: a thread policy's name, or "" for the counts the jobs have.
    RunOutcome run(const GatkWorkload& w, std::uint64_t seed, const std::string& policy_name,
                   const std::string& allocator)
    {
        SimConfig site = site_;
        site.seed = seed;
        PolicyParams params;
        const bool replay = policy_name == "replay";
        if (policy_name == "predictive" || replay)
            for (const auto& kv : smowton_predictive_params(o_, reward_, kTu))
                params.set(kv);
        if (replay)
            params.set("benefit", "replay");
        PolicyChain chain;
        chain.push_back(make_policy(replay ? "predictive" : policy_name, params));
        std::unique_ptr<ThreadStage> threads;
        if (!allocator.empty()) {
            PolicyParams thread_params;
            for (const auto& kv : smowton_thread_params(o_, reward_, kTu))
                thread_params.set(kv);
            if (allocator != "best-constant")
                thread_params.set("sharing", number(o_.sharing));
            threads = make_thread_stage(allocator, thread_params);
        }
        DecisionCycle cycle(std::move(chain), std::move(threads));
        if (!allocator.empty())
            teach_gatk(cycle.scaling(), o_.thread_counts);
        const SimResult r = simulate(site, w.jobs, cycle);

        std::unordered_map<JobId, const JobOutcome*> by_id;
        double local_core_s = 0, cloud_core_s = 0;
        for (const auto& j : r.jobs) {
            by_id.emplace(j.id, &j);
            (j.group < 0 ? local_core_s : cloud_core_s) += double(j.cpus) * (j.end - j.start);
        }
        double reward_sum = 0;
        for (const auto& pipe : w.pipelines) {
            const double t = (by_id.at(pipe.stages.back())->end - pipe.arrival) / kTu;
            reward_sum += reward_ == "time" ? pipe.size * (o_.r_max - t * o_.r_penalty)
                                            : pipe.size * o_.r_scale / std::max(t, 1e-9);
        }
        const double cost = local_core_s / kTu * o_.private_price + r.cloud_cost;
        return RunOutcome{(reward_sum - cost) / o_.duration,
                          cloud_core_s / std::max(1.0, local_core_s + cloud_core_s)};
    }

    // The best constant plan for `policy`: hill-climbed, a stage's count a
    // step up or down the counts at a time, on the mean profit over the
    // plan seeds (which follow the evaluated ones), from the plan that is
    // cheapest per stage on idle private cores.
    StagePlan best_constant_plan(const std::string& policy)
    {
        const std::vector<std::uint32_t>& counts = o_.thread_counts;
        std::map<StagePlan, double> known;
        const auto value = [&](const StagePlan& plan) {
            auto it = known.find(plan);
            if (it != known.end())
                return it->second;
            double sum = 0;
            for (std::uint64_t k = 0; k < o_.plan_seeds; ++k) {
                const std::uint64_t seed = o_.seed + o_.repetitions + k;
                sum += run(workload(seed, plan, false), seed, policy, "").profit;
            }
            return known[plan] = sum / double(o_.plan_seeds);
        };
        StagePlan plan;
        const double d = GatkWorkloadSpec{}.size_mean;
        for (std::size_t s = 0; s < plan.size(); ++s) {
            double best = std::numeric_limits<double>::infinity();
            for (std::uint32_t t : counts) {
                const double cost = gatk_stage_time(kGatkStages[s], d, t) * (t * o_.private_price + d * o_.r_penalty);
                if (cost < best)
                    best = cost, plan[s] = t;
            }
        }
        double here = value(plan);
        while (true) {
            StagePlan best_step = plan;
            double best_value = here;
            for (std::size_t s = 0; s < plan.size(); ++s) {
                const auto at = std::find(counts.begin(), counts.end(), plan[s]) - counts.begin();
                for (int step : {-1, 1}) {
                    const auto next = at + step;
                    if (next < 0 || next >= std::ptrdiff_t(counts.size()))
                        continue;
                    StagePlan neighbour = plan;
                    neighbour[s] = counts[std::size_t(next)];
                    const double v = value(neighbour);
                    if (v > best_value)
                        best_value = v, best_step = neighbour;
                }
            }
            if (best_step == plan)
                return plan;
            plan = best_step;
            here = best_value;
        }
    }

private:
    const SmowtonOptions& o_;
    std::string reward_;
    double interval_;
    SimConfig site_;
};

} // namespace

std::vector<SmowtonRow> run_smowton(const SmowtonOptions& o)
{
    const std::vector<std::string> columns = smowton_columns(o);
    const StagePlan single{{1, 1, 1, 1, 1, 1, 1}};
    std::vector<SmowtonRow> rows;
    for (const auto& reward : o.rewards)
        for (double price : o.prices)
            for (double interval : o.intervals) {
                SmowtonRow row;
                row.reward = reward;
                row.price = price;
                row.interval = interval;
                row.profit.assign(columns.size(), 0);
                row.cloud_share.assign(columns.size(), 0);
                row.seed_profit.assign(columns.size(), {});
                SmowtonRowRun runs(o, reward, price, interval);
                const bool constant =
                    std::find(o.allocators.begin(), o.allocators.end(), "constant") != o.allocators.end();
                if (constant)
                    for (const auto& p : o.policies)
                        row.constant_plans.push_back(runs.best_constant_plan(p));
                for (std::uint64_t rep = 0; rep < o.repetitions; ++rep) {
                    const std::uint64_t seed = o.seed + rep;
                    const GatkWorkload fixed = runs.workload(seed, single, false);
                    const GatkWorkload automatic = runs.workload(seed, single, true);
                    std::size_t c = 0;
                    for (std::size_t p = 0; p < o.policies.size(); ++p)
                        for (std::size_t a = 0; a < std::max<std::size_t>(o.allocators.size(), 1); ++a, ++c) {
                            const std::string allocator = o.allocators.empty() ? "" : o.allocators[a];
                            RunOutcome r;
                            if (allocator == "constant")
                                r = runs.run(runs.workload(seed, row.constant_plans[p], false), seed, o.policies[p], "");
                            else
                                r = runs.run(allocator.empty() ? fixed : automatic, seed, o.policies[p], allocator);
                            row.seed_profit[c].push_back(r.profit);
                            row.profit[c] += r.profit / double(o.repetitions);
                            row.cloud_share[c] += r.cloud_share / double(o.repetitions);
                        }
                }
                rows.push_back(std::move(row));
            }
    return rows;
}

PairedMargin paired_margin(const SmowtonRow& row, std::size_t p, std::size_t q)
{
    const std::vector<double>& a = row.seed_profit.at(p);
    const std::vector<double>& b = row.seed_profit.at(q);
    const std::size_t n = std::min(a.size(), b.size());
    PairedMargin m;
    if (n == 0)
        return m;
    for (std::size_t s = 0; s < n; ++s)
        m.mean += (a[s] - b[s]) / double(n);
    if (n < 2)
        return m;
    double squares = 0;
    for (std::size_t s = 0; s < n; ++s)
        squares += (a[s] - b[s] - m.mean) * (a[s] - b[s] - m.mean);
    m.standard_error = std::sqrt(squares / double(n - 1) / double(n));
    return m;
}

namespace {

// Profit per column, then for each hiring policy each allocator's paired
// margin over the first allocator (the baseline: constant, when asked for),
// and greedy against long-term-adaptive, which the throughput reward tells apart.
void print_thread_table(std::ostream& out, const SmowtonOptions& o, const std::vector<SmowtonRow>& rows)
{
    const std::vector<std::string> columns = smowton_columns(o);
    const std::size_t per_policy = o.allocators.size();
    out << "profit per TU (public share of core-time); margins are paired over the seeds: mean (standard error)\n";
    out << std::left << std::setw(11) << "reward" << std::right << std::setw(6) << "price" << std::setw(9)
        << "interval";
    for (const auto& c : columns)
        out << std::setw(std::max<int>(16, int(c.size()) + 2)) << c;
    out << "\n";
    for (const auto& row : rows) {
        out << std::left << std::setw(11) << row.reward << std::right << std::setw(6) << number(row.price)
            << std::setw(9) << number(row.interval);
        for (std::size_t c = 0; c < columns.size(); ++c) {
            std::ostringstream cell;
            cell << std::fixed << std::setprecision(0) << row.profit[c] << " (" << std::setprecision(2)
                 << row.cloud_share[c] << ")";
            out << std::setw(std::max<int>(16, int(columns[c].size()) + 2)) << cell.str();
        }
        out << "\n";
    }
    const auto at = [&](const std::string& name) -> std::optional<std::size_t> {
        const auto it = std::find(o.allocators.begin(), o.allocators.end(), name);
        return it == o.allocators.end() ? std::nullopt : std::optional<std::size_t>(it - o.allocators.begin());
    };
    const auto greedy = at("greedy"), adaptive = at("long-term-adaptive");
    out << "\nmargins over " << o.allocators.front() << (greedy && adaptive ? "; adaptive-greedy" : "") << "\n";
    for (const auto& row : rows)
        for (std::size_t p = 0; p < o.policies.size(); ++p) {
            out << std::left << std::setw(11) << row.reward << std::right << std::setw(6) << number(row.price)
                << std::setw(9) << number(row.interval) << "  " << std::left << std::setw(11) << o.policies[p]
                << std::right;
            const std::size_t base = p * per_policy;
            for (std::size_t a = 1; a < per_policy; ++a) {
                const PairedMargin m = paired_margin(row, base + a, base);
                std::ostringstream cell;
                cell << o.allocators[a] << " " << std::fixed << std::setprecision(1) << m.mean << " ("
                     << m.standard_error << ")";
                out << std::setw(34) << cell.str();
            }
            if (greedy && adaptive) {
                const PairedMargin m = paired_margin(row, base + *adaptive, base + *greedy);
                std::ostringstream cell;
                cell << std::fixed << std::setprecision(1) << m.mean << " (" << m.standard_error << ")";
                out << std::setw(18) << cell.str();
            }
            if (p < row.constant_plans.size()) {
                out << "  constant plan ";
                for (std::size_t s = 0; s < row.constant_plans[p].size(); ++s)
                    out << (s ? ":" : "") << row.constant_plans[p][s];
            }
            out << "\n";
        }
}

} // namespace

void print_smowton(std::ostream& out, const SmowtonOptions& o, const std::vector<SmowtonRow>& rows)
{
    out << "Smowton et al. GATK pipeline: " << o.private_cores << " private cores at " << o.private_price
        << " CU/TU, " << o.duration << " TU of arrivals, " << o.repetitions << " seed(s) from " << o.seed
        << ", error sd " << o.error << "\n";
    if (!o.allocators.empty()) {
        print_thread_table(out, o, rows);
        return;
    }
    out << "profit per TU (public share of core-time)\n";
    out << std::left << std::setw(11) << "reward" << std::right << std::setw(6) << "price" << std::setw(9)
        << "interval";
    for (const auto& p : o.policies)
        out << std::setw(20) << p;
    out << std::setw(8) << "best";
    // The paper's claims compare predictive with the better of the two
    // baselines; with several seeds, say how sure that comparison is.
    auto column = [&](const std::string& name) -> std::optional<std::size_t> {
        const auto it = std::find(o.policies.begin(), o.policies.end(), name);
        return it == o.policies.end() ? std::nullopt : std::optional<std::size_t>(it - o.policies.begin());
    };
    const auto predictive = column("predictive"), never = column("never"), always = column("always");
    const bool margins = o.repetitions > 1 && predictive && (never || always);
    if (margins)
        out << std::setw(26) << "predictive-baseline (se)";
    out << "\n";
    for (const auto& row : rows) {
        out << std::left << std::setw(11) << row.reward << std::right << std::setw(6) << number(row.price)
            << std::setw(9) << number(row.interval);
        std::size_t best = 0;
        for (std::size_t p = 0; p < row.profit.size(); ++p) {
            std::ostringstream cell;
            cell << std::fixed << std::setprecision(0) << row.profit[p] << " (" << std::setprecision(2)
                 << row.cloud_share[p] << ")";
            out << std::setw(20) << cell.str();
            if (row.profit[p] > row.profit[best])
                best = p;
        }
        out << std::setw(8) << o.policies[best].substr(0, 7);
        if (margins) {
            const std::size_t baseline =
                !never ? *always : !always ? *never : row.profit[*never] >= row.profit[*always] ? *never : *always;
            const PairedMargin m = paired_margin(row, *predictive, baseline);
            std::ostringstream cell;
            cell << std::fixed << std::setprecision(1) << m.mean << " (" << m.standard_error << ") "
                 << o.policies[baseline];
            out << std::setw(26) << cell.str();
        }
        out << "\n";
    }
}

} // namespace burst
