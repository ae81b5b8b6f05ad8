#include "policy/threads/thread_stage.hpp"

#include "policy/reason_text.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_map>

namespace burst {
namespace {

// What a job's tier offers it: free cores, their price, and how wide a task may be.
struct Tier {
    std::uint64_t* free = nullptr; // shared by the jobs on it, taken in priority order
    double price = 0;              // per CPU-second
    double dear_price = 0;
    double speed = 1;
    std::uint32_t node_cpus = 0;
    std::string name;
};

std::uint64_t take(std::uint64_t& free, std::uint64_t cpus)
{
    free = cpus < free ? free - cpus : 0;
    return free;
}

std::string seconds_text(double s)
{
    std::ostringstream out;
    out.precision(s < 10 ? 2 : 0);
    out << std::fixed << s << " s";
    return out.str();
}

} // namespace

ThreadStageSettings ThreadStageSettings::from(PolicyParams& params)
{
    ThreadStageSettings s;
    s.lambda = params.get_double("lambda", s.lambda, 0, 1e9);
    s.local_price = params.get_double("local_price", s.local_price, 0, 1e9);
    s.max_threads = params.get_uint("max", s.max_threads, 1, 1024);
    s.counts = params.get_uint_list("counts", s.counts, 1, 1024);
    s.min_gain = params.get_double("min_gain", s.min_gain, 0, 10);
    s.counts.erase(std::remove_if(s.counts.begin(), s.counts.end(), [&](std::uint32_t t) { return t > s.max_threads; }),
                   s.counts.end());
    if (s.counts.empty())
        throw PolicyConfigError("policy parameters counts and max: no allowed count is at most max=" +
                                std::to_string(s.max_threads));
    return s;
}

ThreadStageOutcome ThreadStage::decide(const ClusterState& state, const ScalingBook& book) const
{
    ThreadStageOutcome out;
    const SiteView view = SiteView::of(state);

    // The widest local node of each partition: a task cannot be wider.
    std::unordered_map<std::string, std::uint32_t> local_node_cpus;
    for (const auto& n : state.snapshot.nodes)
        if (!n.cloud())
            for (const auto& p : n.partitions)
                local_node_cpus[p] = std::max(local_node_cpus[p], n.cpus);
    std::uint64_t local_free = view.local_free_cpus;
    std::vector<std::uint64_t> group_free;
    for (const auto& g : view.groups)
        group_free.push_back(g.free_capacity());

    std::unordered_map<std::string, ScalingFit> fits;
    auto fit_of = [&](const std::string& category) -> const ScalingFit& {
        auto it = fits.find(category);
        if (it == fits.end())
            it = fits.emplace(category, book.fit(category)).first;
        return it->second;
    };
    const double local_price = settings_.local_price / 3600;
    ThreadQuestion q;
    q.lambda = settings_.lambda;
    q.local_price = local_price;

    for (std::size_t i = 0; i < view.pending.size(); ++i) {
        const Job& job = *view.pending[i];
        const std::uint64_t copies = std::max<std::uint32_t>(job.array_task_count, 1);
        Tier tier;
        if (view.pending_group[i] >= 0) {
            const GroupView& g = view.groups[std::size_t(view.pending_group[i])];
            tier.free = &group_free[g.index];
            tier.speed = g.group->speed;
            tier.price = tier.dear_price = g.group->price_per_cpu_second();
            tier.node_cpus = g.group->cpus;
            tier.name = "node group " + g.group->name;
        } else {
            tier.free = &local_free;
            tier.price = local_price;
            tier.dear_price = settings_.lambda / 3600;
            for (const GroupView& g : view.groups)
                if (view.serves(job.needs, g))
                    tier.dear_price = std::min(tier.dear_price, g.group->price_per_cpu_second() / g.group->speed);
            for (const auto& p : job.partitions) {
                auto it = local_node_cpus.find(p);
                tier.node_cpus = std::max(tier.node_cpus, it == local_node_cpus.end() ? 0 : it->second);
            }
            tier.name = "local nodes";
        }
        const std::uint32_t per_task = std::max<std::uint32_t>(job.cpus_per_task, 1);
        const std::uint32_t tasks = std::max<std::uint32_t>(job.cpus / per_task, 1);
        if (!job.threads.automatic || job.category.empty()) {
            take(*tier.free, job.cpus * copies);
            continue;
        }
        const ScalingFit& fit = fit_of(job.category);
        q.counts.clear();
        for (std::uint32_t t : settings_.counts)
            if (t <= tier.node_cpus)
                q.counts.push_back(t);
        if (!fit.known || q.counts.empty()) {
            take(*tier.free, job.cpus * copies);
            continue;
        }
        q.fit = fit;
        q.tasks = tasks;
        q.speed = tier.speed;
        q.price = tier.price;
        q.dear_price = tier.dear_price;
        q.free_cpus = *tier.free;
        const std::uint32_t chosen = allocator_->choose(q);
        take(*tier.free, std::uint64_t(tasks) * chosen * copies);
        const double chosen_cost = allocator_->cost(q, chosen);
        const double current_cost = allocator_->cost(q, per_task);
        const bool allowed = std::find(q.counts.begin(), q.counts.end(), per_task) != q.counts.end();
        if (chosen == per_task || (allowed && !(current_cost > chosen_cost * (1 + settings_.min_gain))))
            continue;
        std::ostringstream why;
        why.precision(2);
        why << "category " << job.category << " scales with c " << std::fixed << fit.c << ", E "
            << seconds_text(fit.time(1)) << ": " << chosen << " CPUs per task on " << tier.name << " (expected "
            << seconds_text(fit.time(chosen) / tier.speed) << ") cost " << money(chosen_cost) << ", " << per_task
            << " (" << seconds_text(fit.time(per_task) / tier.speed) << ") " << money(current_cost);
        out.actions.push_back(Action{SetJobThreads{job.id, chosen, tasks * chosen}, why.str()});
    }

    // A new job of a known category: one task, on local nodes as they are
    // left by the queue, as wide as the widest local node allows.
    std::uint32_t widest_local = 0;
    for (const auto& [partition, cpus] : local_node_cpus)
        widest_local = std::max(widest_local, cpus);
    q.counts.clear();
    for (std::uint32_t t : settings_.counts)
        if (t <= widest_local)
            q.counts.push_back(t);
    if (q.counts.empty())
        return out;
    q.tasks = 1;
    q.speed = 1;
    q.price = local_price;
    q.dear_price = settings_.lambda / 3600;
    for (const GroupView& g : view.groups)
        q.dear_price = std::min(q.dear_price, g.group->price_per_cpu_second() / g.group->speed);
    q.free_cpus = local_free;
    for (auto& [category, fit] : book.known()) {
        q.fit = fit;
        out.advice[category] = allocator_->choose(q);
    }
    return out;
}

} // namespace burst
