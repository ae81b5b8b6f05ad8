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

namespace {

// What each tier offers the pending jobs, in the order they take it: the
// local nodes' free task slots, each group's room, and per job its tier's
// prices and widest node.
class SiteTiers {
public:
    SiteTiers(const ClusterState& state, const SiteView& view, const ThreadStageSettings& settings)
        : view_(view), settings_(settings), local_free_(settings.counts)
    {
        // Down and draining nodes run nothing new.
        for (std::size_t i = 0; i < state.snapshot.nodes.size(); ++i) {
            const Node& n = state.snapshot.nodes[i];
            if (view.node_group[i] >= 0 || n.cloud())
                continue;
            if (n.base != NodeBaseState::Down && !n.has(kNodeDrain))
                for (const auto& p : n.partitions)
                    widest_in_partition_[p] = std::max(widest_in_partition_[p], n.cpus);
            if (n.usable())
                local_free_.add_node(n.free_cpus());
        }
        // A group's room before the jobs routed to it take theirs.  Its
        // nodes' free cores are one lump: a routed job pays the group's price
        // whether its tasks fit or not.
        for (const auto& g : view.groups) {
            group_free_.emplace_back(settings.counts);
            group_free_.back().add_node(g.free_capacity() + g.routed_pending_cpus);
        }
    }

    // The tier of view.pending[i].
    ThreadTier of(std::size_t i)
    {
        const Job& job = *view_.pending[i];
        ThreadTier tier;
        if (view_.pending_group[i] >= 0) {
            const GroupView& g = view_.groups[std::size_t(view_.pending_group[i])];
            tier.group = &g;
            tier.free = &group_free_[g.index];
            tier.speed = g.group->speed;
            tier.price = tier.dear_price = g.group->price_per_cpu_second();
            tier.node_cpus = g.group->cpus;
            return tier;
        }
        tier.free = &local_free_;
        tier.price = settings_.local_price / 3600;
        // A job that may not burst can only wait for more cores.
        tier.dear_price =
            view_.pending_burst[i] == BurstOption::Never ? settings_.lambda / 3600 : dear_price(job.needs);
        tier.node_cpus = widest_node(job.partitions);
        return tier;
    }

    const FreeTaskSlots& local_free() const { return local_free_; }
    std::uint32_t widest_local_node() const
    {
        std::uint32_t widest = 0;
        for (const auto& [partition, cpus] : widest_in_partition_)
            widest = std::max(widest, cpus);
        return widest;
    }
    // Beyond the free local cores: the cheapest group with room, or waiting.
    double dear_price_of_any_job() const
    {
        double dear = settings_.lambda / 3600;
        for (const GroupView& g : view_.groups)
            if (g.free_capacity() > 0)
                dear = std::min(dear, g.group->price_per_cpu_second() / g.group->speed);
        return dear;
    }

private:
    static constexpr std::uint32_t kUnknown = ~std::uint32_t(0);

    // A local job's widest node and dear price depend only on its partition
    // list and node needs, both interned: worked out once per distinct one.
    std::uint32_t widest_node(const PartitionSet& partitions)
    {
        if (partitions.id() >= widest_by_partitions_.size())
            widest_by_partitions_.resize(partitions.id() + 1, kUnknown);
        std::uint32_t& widest = widest_by_partitions_[partitions.id()];
        if (widest == kUnknown) {
            widest = 0;
            for (const auto& p : partitions) {
                auto it = widest_in_partition_.find(p);
                widest = std::max(widest, it == widest_in_partition_.end() ? 0 : it->second);
            }
        }
        return widest;
    }
    double dear_price(NodeNeeds needs)
    {
        if (needs.id() >= dear_by_needs_.size())
            dear_by_needs_.resize(needs.id() + 1, -1);
        double& dear = dear_by_needs_[needs.id()];
        if (dear < 0) {
            dear = settings_.lambda / 3600;
            for (const GroupView& g : view_.groups)
                if (g.free_capacity() > 0 && view_.serves(needs, g))
                    dear = std::min(dear, g.group->price_per_cpu_second() / g.group->speed);
        }
        return dear;
    }

    const SiteView& view_;
    const ThreadStageSettings& settings_;
    std::unordered_map<std::string, std::uint32_t> widest_in_partition_;
    FreeTaskSlots local_free_;
    std::vector<FreeTaskSlots> group_free_;
    std::vector<std::uint32_t> widest_by_partitions_;
    std::vector<double> dear_by_needs_;
};

std::string change_reason(const Job& job, const ThreadTier& tier, const ScalingFit& fit, std::uint32_t chosen,
                          double chosen_cost, std::uint32_t current, double current_cost)
{
    std::ostringstream why;
    why.precision(2);
    const double single = single_threaded_time(fit, job.size);
    const auto at = [&](std::uint32_t t) { return single * (fit.c / t + 1 - fit.c) / tier.speed; };
    why << "category " << job.category << " scales with c " << std::fixed << fit.c << ", E " << seconds_text(single)
        << ": " << chosen << " CPUs per task on "
        << (tier.group ? "node group " + tier.group->group->name : std::string("local nodes")) << " (expected "
        << seconds_text(at(chosen)) << ") cost " << money(chosen_cost) << ", " << current << " ("
        << seconds_text(at(current)) << ") " << money(current_cost);
    return why.str();
}

} // namespace

ThreadStageOutcome ThreadStage::decide(const ClusterState& state, const ScalingBook& book)
{
    ThreadStageOutcome out;
    const SiteView view = SiteView::of(state);
    SiteTiers tiers(state, view, settings_);
    ThreadQuestion q;
    q.lambda = settings_.lambda;
    q.local_price = settings_.local_price / 3600;
    const std::string* fit_category = nullptr;
    ScalingFit fit;
    for (std::size_t i = 0; i < view.pending.size(); ++i) {
        const Job& job = *view.pending[i];
        ThreadTier tier = tiers.of(i);
        if (job.threads.automatic && !job.category.empty() && (!fit_category || *fit_category != job.category)) {
            fit = book.fit(job.category);
            fit_category = &job.category;
        }
        const bool may_change = job.threads.automatic && !job.category.empty() &&
                                out.actions.size() < settings_.max_changes;
        std::optional<Action> change = may_change ? weigh(job, tier, fit, q) : std::nullopt;
        // A job left as it is takes the cores it has asked for.
        const std::uint64_t copies = std::max<std::uint32_t>(job.array_task_count, 1);
        tier.free->take(change ? std::uint64_t(std::get<SetJobThreads>(change->what).cpus) * copies
                               : std::uint64_t(job.cpus) * copies);
        if (change)
            out.actions.push_back(std::move(*change));
    }
    // A new job of a known category: one task, on local nodes as they are
    // left by the queue, as wide as the widest local node allows.
    AdviceInputs inputs;
    for (std::uint64_t tasks : tiers.local_free().slots())
        inputs.free_tasks.push_back(std::min<std::uint64_t>(tasks, 100)); // sharing's bound
    inputs.widest_node = tiers.widest_local_node();
    inputs.dear_price = tiers.dear_price_of_any_job();
    out.advice_changed = update_advice(book, q, tiers.local_free(), inputs);
    return out;
}

std::optional<Action> ThreadStage::weigh(const Job& job, const ThreadTier& tier, const ScalingFit& fit,
                                         ThreadQuestion& q) const
{
    const std::uint32_t per_task = std::max<std::uint32_t>(job.cpus_per_task, 1);
    const std::uint32_t tasks = std::max<std::uint32_t>(job.cpus / per_task, 1);
    // Counts its tasks fit on its node count of the tier's widest nodes (a
    // task never spans nodes; burstd never changes the node count), within
    // Slurm's CPU count.  A job routed to a group is never made wider: its
    // hires and the budget cap were sized for what it asks.
    const std::uint64_t nodes = std::max<std::uint32_t>(job.node_count, 1);
    q.counts.clear();
    for (std::uint32_t t : settings_.counts)
        if (t <= tier.node_cpus && nodes * (tier.node_cpus / t) >= tasks && std::uint64_t(tasks) * t <= kMaxJobCpus &&
            (!tier.group || t <= per_task))
            q.counts.push_back(t);
    if (q.counts.empty())
        return std::nullopt;
    if (!fit.known)
        return explore(job, tier, tasks, q.counts, fit);
    q.fit = fit;
    q.tasks = tasks;
    q.copies = std::max<std::uint32_t>(job.array_task_count, 1);
    q.size = job.size;
    q.speed = tier.speed;
    q.price = tier.price;
    q.dear_price = tier.dear_price;
    q.free = tier.free;
    const std::uint32_t chosen = allocator_->choose(q);
    const double chosen_cost = allocator_->cost(q, chosen);
    const double current_cost = allocator_->cost(q, per_task);
    const bool allowed = std::find(q.counts.begin(), q.counts.end(), per_task) != q.counts.end();
    if (chosen == per_task || (allowed && !(current_cost > chosen_cost * (1 + settings_.min_gain))))
        return std::nullopt;
    return Action{SetJobThreads{job.id, chosen, tasks * chosen},
                  change_reason(job, tier, fit, chosen, chosen_cost, per_task, current_cost)};
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
        if (!fit.known || q.counts.empty()) {
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
