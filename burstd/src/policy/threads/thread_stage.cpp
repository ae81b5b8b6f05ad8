#include "policy/threads/thread_stage.hpp"

#include "policy/reason_text.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_map>

namespace burst {
namespace {

constexpr std::uint64_t kMaxJobCpus = 0xfffffffe; // Slurm's 32-bit CPU count, NO_VAL excluded

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
    s.max_changes = params.get_uint("max_changes", s.max_changes, 0, 100000);
    s.explore = params.get_double("explore", s.explore, 0, 1);
    s.explore_threads = params.get_uint("explore_threads", s.explore_threads, 2, 1024);
    s.counts.erase(std::remove_if(s.counts.begin(), s.counts.end(), [&](std::uint32_t t) { return t > s.max_threads; }),
                   s.counts.end());
    if (s.counts.empty())
        throw PolicyConfigError("policy parameters counts and max: no allowed count is at most max=" +
                                std::to_string(s.max_threads));
    return s;
}

ThreadStageOutcome ThreadStage::decide(const ClusterState& state, const ScalingBook& book)
{
    ThreadStageOutcome out;
    const SiteView view = SiteView::of(state);

    // The widest local node of each partition: a task cannot be wider.
    // Down and draining nodes run nothing new.
    std::unordered_map<std::string, std::uint32_t> local_node_cpus;
    FreeTaskSlots local_free(settings_.counts);
    for (std::size_t i = 0; i < state.snapshot.nodes.size(); ++i) {
        const Node& n = state.snapshot.nodes[i];
        if (view.node_group[i] >= 0 || n.cloud())
            continue;
        if (n.base != NodeBaseState::Down && !n.has(kNodeDrain))
            for (const auto& p : n.partitions)
                local_node_cpus[p] = std::max(local_node_cpus[p], n.cpus);
        if (n.usable())
            local_free.add_node(n.free_cpus());
    }
    // A group's room before the jobs routed to it take theirs, in the loop
    // below.  Its nodes' free cores are one lump: a routed job pays the
    // group's price whether its tasks fit or not.
    std::vector<FreeTaskSlots> group_free;
    for (const auto& g : view.groups) {
        group_free.emplace_back(settings_.counts);
        group_free.back().add_node(g.free_capacity() + g.routed_pending_cpus);
    }

    const double local_price = settings_.local_price / 3600;
    ThreadQuestion q;
    q.lambda = settings_.lambda;
    q.local_price = local_price;
    // A local job's widest node and dear price depend only on its partition
    // list and node needs, both interned: worked out once per distinct one.
    constexpr std::uint32_t kUnknown = ~std::uint32_t(0);
    std::vector<std::uint32_t> widest_by_partitions;
    std::vector<double> dear_by_needs;
    const auto widest_local = [&](const PartitionSet& partitions) {
        if (partitions.id() >= widest_by_partitions.size())
            widest_by_partitions.resize(partitions.id() + 1, kUnknown);
        std::uint32_t& widest = widest_by_partitions[partitions.id()];
        if (widest == kUnknown) {
            widest = 0;
            for (const auto& p : partitions) {
                auto it = local_node_cpus.find(p);
                widest = std::max(widest, it == local_node_cpus.end() ? 0 : it->second);
            }
        }
        return widest;
    };
    const auto dear_local = [&](NodeNeeds needs) {
        if (needs.id() >= dear_by_needs.size())
            dear_by_needs.resize(needs.id() + 1, -1);
        double& dear = dear_by_needs[needs.id()];
        if (dear < 0) {
            dear = settings_.lambda / 3600;
            for (const GroupView& g : view.groups)
                if (g.free_capacity() > 0 && view.serves(needs, g))
                    dear = std::min(dear, g.group->price_per_cpu_second() / g.group->speed);
        }
        return dear;
    };
    const std::string* fit_category = nullptr;
    ScalingFit fit;

    for (std::size_t i = 0; i < view.pending.size(); ++i) {
        const Job& job = *view.pending[i];
        const std::uint64_t copies = std::max<std::uint32_t>(job.array_task_count, 1);
        ThreadTier tier;
        if (view.pending_group[i] >= 0) {
            const GroupView& g = view.groups[std::size_t(view.pending_group[i])];
            tier.group = &g;
            tier.free = &group_free[g.index];
            tier.speed = g.group->speed;
            tier.price = tier.dear_price = g.group->price_per_cpu_second();
            tier.node_cpus = g.group->cpus;
        } else {
            tier.free = &local_free;
            tier.price = local_price;
            // A job that may not burst can only wait for more cores.
            tier.dear_price =
                view.pending_burst[i] == BurstOption::Never ? settings_.lambda / 3600 : dear_local(job.needs);
            tier.node_cpus = widest_local(job.partitions);
        }
        const std::uint32_t per_task = std::max<std::uint32_t>(job.cpus_per_task, 1);
        const std::uint32_t tasks = std::max<std::uint32_t>(job.cpus / per_task, 1);
        if (!job.threads.automatic || job.category.empty()) {
            tier.free->take(job.cpus * copies);
            continue;
        }
        if (!fit_category || *fit_category != job.category) {
            fit = book.fit(job.category);
            fit_category = &job.category;
        }
        // Counts its tasks fit on its node count of the tier's widest nodes
        // (a task never spans nodes; burstd never changes the node count),
        // within Slurm's CPU count.  A job routed to a group is never made
        // wider: its hires and the budget cap were sized for what it asks.
        const std::uint64_t nodes = std::max<std::uint32_t>(job.node_count, 1);
        q.counts.clear();
        for (std::uint32_t t : settings_.counts)
            if (t <= tier.node_cpus && nodes * (tier.node_cpus / t) >= tasks &&
                std::uint64_t(tasks) * t <= kMaxJobCpus && (!tier.group || t <= per_task))
                q.counts.push_back(t);
        if (!fit.known && !q.counts.empty() && out.actions.size() < settings_.max_changes) {
            if (std::optional<Action> a = explore(job, tier, tasks, q.counts, fit)) {
                tier.free->take(std::uint64_t(tasks) * std::get<SetJobThreads>(a->what).cpus_per_task * copies);
                out.actions.push_back(std::move(*a));
                continue;
            }
        }
        // A fit by size says nothing of a size it gives no time for.
        if (!fit.known || q.counts.empty() || !(fit.time(1, job.size) > 0)) {
            tier.free->take(job.cpus * copies);
            continue;
        }
        q.fit = fit;
        q.tasks = tasks;
        q.copies = copies;
        q.size = job.size;
        q.speed = tier.speed;
        q.price = tier.price;
        q.dear_price = tier.dear_price;
        q.free = tier.free;
        const std::uint32_t chosen = allocator_->choose(q);
        const double chosen_cost = allocator_->cost(q, chosen);
        const double current_cost = allocator_->cost(q, per_task);
        const bool allowed = std::find(q.counts.begin(), q.counts.end(), per_task) != q.counts.end();
        // A job left as it is takes the cores it has asked for.
        if (chosen == per_task || (allowed && !(current_cost > chosen_cost * (1 + settings_.min_gain))) ||
            out.actions.size() >= settings_.max_changes) {
            tier.free->take(job.cpus * copies);
            continue;
        }
        tier.free->take(std::uint64_t(tasks) * chosen * copies);
        std::ostringstream why;
        why.precision(2);
        why << "category " << job.category << " scales with c " << std::fixed << fit.c << ", E "
            << seconds_text(fit.time(1, job.size)) << ": " << chosen << " CPUs per task on "
            << (tier.group ? "node group " + tier.group->group->name : std::string("local nodes")) << " (expected "
            << seconds_text(fit.time(chosen, job.size) / tier.speed) << ") cost " << money(chosen_cost) << ", "
            << per_task << " (" << seconds_text(fit.time(per_task, job.size) / tier.speed) << ") "
            << money(current_cost);
        out.actions.push_back(Action{SetJobThreads{job.id, chosen, tasks * chosen}, why.str()});
    }

    // A new job of a known category: one task, on local nodes as they are
    // left by the queue, as wide as the widest local node allows.
    AdviceInputs inputs;
    for (std::uint64_t tasks : local_free.slots())
        inputs.free_tasks.push_back(std::min<std::uint64_t>(tasks, 100)); // sharing's bound
    for (const auto& [partition, cpus] : local_node_cpus)
        inputs.widest_node = std::max(inputs.widest_node, cpus);
    inputs.dear_price = settings_.lambda / 3600;
    for (const GroupView& g : view.groups)
        if (g.free_capacity() > 0)
            inputs.dear_price = std::min(inputs.dear_price, g.group->price_per_cpu_second() / g.group->speed);
    out.advice_changed = update_advice(book, q, local_free, inputs);
    return out;
}

std::optional<Action> ThreadStage::explore(const Job& job, const ThreadTier& tier, std::uint32_t tasks,
                                           const std::vector<std::uint32_t>& counts, const ScalingFit& fit) const
{
    // Jobs are picked by a hash of their id, so that a pending job stays
    // picked or not from cycle to cycle.
    const bool picked = double(std::uint32_t(job.id * 2654435761u) % 10000) < settings_.explore * 10000;
    if (!picked || tier.group)
        return std::nullopt;
    std::uint32_t t = 0;
    for (std::uint32_t c : counts)
        if (c <= settings_.explore_threads)
            t = c;
    const std::uint64_t copies = std::max<std::uint32_t>(job.array_task_count, 1);
    if (t <= 1 || t == job.cpus_per_task || std::uint64_t(tasks) * copies > tier.free->tasks(t))
        return std::nullopt;
    std::ostringstream why;
    why.precision(1);
    why << "category " << job.category << " is not known yet (" << std::fixed << fit.runs << " runs at "
        << fit.thread_counts << " thread count(s)): exploring at " << t
        << " CPUs per task on idle local cores (explore=" << settings_.explore << " of its jobs)";
    return Action{SetJobThreads{job.id, t, tasks * t}, why.str()};
}

bool ThreadStage::update_advice(const ScalingBook& book, ThreadQuestion& q, const FreeTaskSlots& local,
                                const AdviceInputs& inputs)
{
    q.counts.clear();
    for (std::uint32_t t : settings_.counts)
        if (t <= inputs.widest_node)
            q.counts.push_back(t);
    q.tasks = 1;
    q.copies = 1;
    q.size = 0;
    q.speed = 1;
    q.price = q.local_price;
    q.dear_price = inputs.dear_price;
    q.free = &local;
    const bool redo = !(inputs == advice_inputs_) || advice_version_ == 0;
    if (!redo && advice_version_ == book.version())
        return false;
    bool changed = false;
    book.for_each_changed_since(redo ? 0 : advice_version_, [&](const std::string& category, const ScalingFit& fit) {
        auto it = advice_.find(category);
        if (!fit.known || q.counts.empty() || !(fit.time(1) > 0)) { // a new job's size is not known
            if (it != advice_.end())
                advice_.erase(it), changed = true;
            return;
        }
        q.fit = fit;
        const std::uint32_t t = allocator_->choose(q);
        if (it != advice_.end()) {
            changed = changed || it->second != t;
            it->second = t;
        } else if (advice_.size() < kMaxAdvice) {
            advice_.emplace(category, t);
            changed = true;
        }
    });
    advice_inputs_ = inputs;
    advice_version_ = book.version();
    return changed;
}

} // namespace burst
