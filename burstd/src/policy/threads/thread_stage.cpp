#include "policy/threads/thread_stage.hpp"

#include "model/job_dependency.hpp"
#include "policy/reason_text.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

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
    s.reward = params.get_choice("reward", "time", {"time", "throughput"}) == "time" ? ThreadReward::Time
                                                                                    : ThreadReward::Throughput;
    s.reward_scale = params.get_double("reward_scale", s.reward_scale, 0, 1e15);
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
        // A group's free cores on nodes up or booting that no routed job
        // will take: what a routed job may be widened into without another
        // hire.  They are one lump: a routed job pays the group's price
        // whether its tasks fit or not.
        for (const auto& g : view.groups) {
            const std::uint64_t up = g.free_up_cpus + g.free_booting_cpus;
            group_free_.emplace_back(settings.counts);
            group_free_.back().add_node(up > g.routed_pending_cpus ? up - g.routed_pending_cpus : 0);
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
        return local(job, view_.pending_burst[i]);
    }

    FreeTaskSlots& local_free() { return local_free_; }
    // Local nodes, for a job with this burst option (a held job's is its own:
    // it is not in view.pending).
    ThreadTier local(const Job& job, BurstOption burst)
    {
        ThreadTier tier;
        tier.free = &local_free_;
        tier.price = settings_.local_price / 3600;
        // A job that may not burst can only wait for more cores.
        tier.dear_price = burst == BurstOption::Never ? kNoGroup : dear_price(job.needs);
        tier.node_cpus = widest_node(job.partitions);
        return tier;
    }
    std::uint32_t widest_local_node() const
    {
        std::uint32_t widest = 0;
        for (const auto& [partition, cpus] : widest_in_partition_)
            widest = std::max(widest, cpus);
        return widest;
    }
    // Beyond the free local cores: the cheapest group with room (kNoGroup: none).
    double dear_price_of_any_job() const
    {
        double dear = kNoGroup;
        for (const GroupView& g : view_.groups)
            if (g.free_capacity() > 0)
                dear = std::min(dear, g.group->price_per_cpu_second() / g.group->speed);
        return dear;
    }

private:
    static constexpr std::uint32_t kUnknown = ~std::uint32_t(0);
    static constexpr double kNoGroup = std::numeric_limits<double>::infinity();

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
            dear = kNoGroup;
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

// The queue's dependency chains: for each job, the pending job that waits
// for it (the first whose dependency names it), and the running jobs the
// held auto jobs wait for.
class ChainIndex {
public:
    static constexpr std::size_t kMaxStages = 16;

    ChainIndex(const ClusterState& state, const SiteView& view, const ScalingBook& book)
    {
        std::unordered_set<JobId> awaited;
        for (const Job& job : state.snapshot.jobs) {
            if (!job.awaiting_dependency() || job.dependency.empty())
                continue;
            const std::vector<JobId> parents = ended_dependency_job_ids(job.dependency);
            for (JobId p : parents)
                next_.emplace(p, &job);
            if (job.threads.automatic && !job.category.empty() && !parents.empty()) {
                // afterok:a?afterok:b waits for either parent, a,b for both.
                held_.push_back(HeldJob{&job, parents, job.dependency.find('?') != std::string::npos});
                awaited.insert(parents.begin(), parents.end());
            }
        }
        if (awaited.empty())
            return;
        for (std::size_t i = 0; i < view.running.size(); ++i)
            if (awaited.count(view.running[i]->id))
                running_.emplace(view.running[i]->id,
                                 RunningParent{view.running[i]->cpus, view.running_group[i],
                                               expected_end(*view.running[i], book, state.snapshot.time)});
        for (HeldJob& held : held_) {
            held.expected_start = held.any_parent ? kUnknownEnd : 0;
            for (JobId p : held.parents) {
                const auto it = running_.find(p);
                const Time end = it == running_.end() ? kUnknownEnd : it->second.expected_end;
                held.expected_start = held.any_parent ? std::min(held.expected_start, end)
                                                      : std::max(held.expected_start, end);
            }
        }
        std::stable_sort(held_.begin(), held_.end(), [](const HeldJob& a, const HeldJob& b) {
            return a.expected_start != b.expected_start ? a.expected_start < b.expected_start
                                                        : a.job->priority > b.job->priority;
        });
    }

    // The jobs after `job` in its chain, with their categories' fits.
    void rest_of(const Job& job, const ScalingBook& book, std::vector<ChainStage>& rest) const
    {
        rest.clear();
        JobId at = job.id;
        for (auto it = next_.find(at); it != next_.end() && rest.size() < kMaxStages; it = next_.find(at)) {
            const Job& n = *it->second;
            const std::uint32_t per_task = std::max<std::uint32_t>(n.cpus_per_task, 1);
            rest.push_back(ChainStage{n.id, &n.category, book.fit(n.category), std::max<std::uint32_t>(n.cpus / per_task, 1),
                                      n.size, per_task, n.threads.automatic, n.time_limit});
            at = n.id;
        }
    }

    struct HeldJob {
        const Job* job;
        std::vector<JobId> parents;
        bool any_parent = false;  // waits for one of them ('?'), not all
        Time expected_start = 0;  // its parents' expected end (latest, or earliest for any_parent)
    };
    // Held auto jobs, those expected to start first first, then highest
    // priority first.
    const std::vector<HeldJob>& held() const { return held_; }
    // The cores of `parents` no earlier held job has claimed, if every one
    // of them is running on local nodes; none otherwise.
    std::optional<std::uint64_t> running_parents_cores(const std::vector<JobId>& parents) const
    {
        std::uint64_t cores = 0;
        for (JobId p : parents) {
            const auto it = running_.find(p);
            if (it == running_.end() || it->second.group >= 0)
                return std::nullopt;
            cores += it->second.cpus;
        }
        return cores;
    }
    // A held job will take `cores` of its parents' when they end: its
    // siblings held on the same parents see what is left.
    void claim_parents_cores(const std::vector<JobId>& parents, std::uint64_t cores)
    {
        for (JobId p : parents) {
            std::uint32_t& left = running_.at(p).cpus;
            const std::uint64_t taken = std::min<std::uint64_t>(left, cores);
            left -= std::uint32_t(taken);
            cores -= taken;
        }
    }

private:
    static constexpr Time kUnknownEnd = std::numeric_limits<Time>::infinity();

    // When a running job is expected to end: now when it is completing;
    // after its category's fitted run time at its CPUs per task, or now
    // when it has run past that (runs scatter around their fit), unless it
    // has run twice that (a sized category's job without a size hint, one
    // that was suspended: a long one); else at its time limit; unknown
    // without either.
    static Time expected_end(const Job& job, const ScalingBook& book, Time now)
    {
        if (job.state == JobState::Completing)
            return now;
        if (const ScalingFit fit = book.fit(job.category); fit.known) {
            const double per_task = std::max<std::uint32_t>(job.cpus_per_task, 1);
            const Seconds run = single_threaded_time(fit, job.size) * (fit.c / per_task + 1 - fit.c);
            if (now <= job.start_time + 2 * run)
                return std::max(job.start_time + run, now);
        }
        return job.time_limit > 0 ? std::max(now, job.start_time + job.time_limit) : kUnknownEnd;
    }

    std::unordered_map<JobId, const Job*> next_; // the first job found waiting for it
    struct RunningParent {
        std::uint32_t cpus; // less what held jobs have claimed
        int group;          // -1: local nodes
        Time expected_end;
    };
    std::unordered_map<JobId, RunningParent> running_;
    std::vector<HeldJob> held_;
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
    const SiteView& view = site_.build(state);
    SiteTiers tiers(state, view, settings_);
    ChainIndex chains(state, view, book);
    ThreadQuestion q;
    q.lambda = settings_.lambda;
    q.reward = settings_.reward;
    q.reward_scale = settings_.reward_scale;
    q.local_price = settings_.local_price / 3600;
    const Time now = state.snapshot.time;
    // Under the time reward the rest of a chain changes only a plan's choice.
    const bool chains_matter = allocator_->plans_chains() || settings_.reward == ThreadReward::Throughput;
    const auto ask_about = [&](const Job& job, const ScalingFit& fit) {
        q.job = job.id;
        q.category = &job.category;
        q.elapsed = std::max<Seconds>(0, now - job.submit_time);
        q.rest.clear();
        if (fit.known && chains_matter)
            chains.rest_of(job, book, q.rest);
    };
    for (std::size_t i = 0; i < view.pending.size(); ++i) {
        const Job& job = *view.pending[i];
        ThreadTier tier = tiers.of(i);
        const ScalingFit& fit = book.fit(job.category);
        const bool may_change = job.threads.automatic && !job.category.empty() &&
                                out.actions.size() < settings_.max_changes;
        if (may_change)
            ask_about(job, fit);
        std::optional<Action> change = may_change ? weigh(job, tier, fit, q) : std::nullopt;
        // A job left as it is takes the cores it has asked for; a routed
        // job's are already out of its group's free cores.
        const std::uint64_t copies = std::max<std::uint32_t>(job.array_task_count, 1);
        const std::uint64_t cores =
            std::uint64_t(change ? std::get<SetJobThreads>(change->what).cpus : job.cpus) * copies;
        const std::uint64_t claimed = tier.group ? std::uint64_t(job.cpus) * copies : 0;
        tier.free->take(cores > claimed ? cores - claimed : 0);
        if (change)
            out.actions.push_back(std::move(*change));
    }
    // Held jobs whose parents all run locally start on the cores those
    // leave, and on what the queue leaves; those expected to start before
    // the next cycle take what they choose from the held jobs after them
    // and from the advice (this cycle's choice is the one they start with).
    // The later ones claim nothing: each is sized for what is idle now, the
    // best guess for a parent that ends earlier than its fit says.
    FreeTaskSlots& local = tiers.local_free();
    for (const auto& held : chains.held()) {
        if (out.actions.size() >= settings_.max_changes)
            break;
        const auto parents_cores = chains.running_parents_cores(held.parents);
        if (!parents_cores)
            continue;
        const Job& job = *held.job;
        const bool due = held.expected_start <= now + decision_interval_;
        FreeTaskSlots free = local;
        free.add_node(*parents_cores);
        ThreadTier tier = tiers.local(job, job.burst);
        tier.free = &free;
        const ScalingFit& held_fit = book.fit(job.category);
        ask_about(job, held_fit);
        std::optional<Action> change = weigh(job, tier, held_fit, q);
        const std::uint64_t cores =
            std::uint64_t(change ? std::get<SetJobThreads>(change->what).cpus : job.cpus) *
            std::max<std::uint32_t>(job.array_task_count, 1);
        chains.claim_parents_cores(held.parents, cores);
        if (due)
            local.take(cores > *parents_cores ? cores - *parents_cores : 0);
        if (change)
            out.actions.push_back(std::move(*change));
    }
    allocator_->forget_unless([&, pending = std::optional<std::unordered_set<JobId>>()](JobId id) mutable {
        if (!pending) {
            pending.emplace();
            for (const Job& job : state.snapshot.jobs)
                if (job.pending())
                    pending->insert(job.id);
        }
        return pending->count(id) > 0;
    });
    // A new job of a known category: one task, on local nodes as they are
    // left by the queue, as wide as the widest local node allows.
    AdviceInputs inputs;
    for (std::uint64_t tasks : local.slots())
        inputs.free_tasks.push_back(std::min<std::uint64_t>(tasks, 100)); // sharing's bound
    inputs.widest_node = tiers.widest_local_node();
    inputs.dear_price = tiers.dear_price_of_any_job();
    out.advice_changed = update_advice(book, q, local, inputs);
    return out;
}

std::optional<Action> ThreadStage::weigh(const Job& job, const ThreadTier& tier, const ScalingFit& fit,
                                         ThreadQuestion& q)
{
    const std::uint32_t per_task = std::max<std::uint32_t>(job.cpus_per_task, 1);
    const std::uint32_t tasks = std::max<std::uint32_t>(job.cpus / per_task, 1);
    // Counts its tasks fit on its node count of the tier's widest nodes (a
    // task never spans nodes; burstd never changes the node count), within
    // Slurm's CPU count.  A job routed to a group is made wider only into
    // cores the group has up or booting and nobody claims: its hires and
    // the budget cap were sized for what it asks.
    const std::uint64_t nodes = std::max<std::uint32_t>(job.node_count, 1);
    const std::uint64_t copies = std::max<std::uint32_t>(job.array_task_count, 1);
    q.counts.clear();
    const std::uint64_t own = std::uint64_t(job.cpus) * copies;
    for (std::uint32_t t : settings_.counts)
        if (t <= tier.node_cpus && nodes * (tier.node_cpus / t) >= tasks && std::uint64_t(tasks) * t <= kMaxJobCpus &&
            (!tier.group || t <= per_task || std::uint64_t(tasks) * t * copies <= own + tier.free->cores()))
            q.counts.push_back(t);
    if (q.counts.empty())
        return std::nullopt;
    if (!fit.known)
        return explore(job, tier, tasks, q.counts, fit);
    q.fit = fit;
    q.tasks = tasks;
    q.copies = copies;
    q.size = job.size;
    q.speed = tier.speed;
    q.price = tier.price;
    // A routed job pays its group's price however wide; a local one may
    // always wait instead of paying a group.
    q.dear_price = tier.group ? tier.dear_price : std::min(tier.dear_price, waiting_price(q));
    q.free = tier.free;
    const std::uint32_t chosen = allocator_->choose(q);
    if (chosen == per_task)
        return std::nullopt;
    const double chosen_cost = allocator_->cost(q, chosen);
    const double current_cost = allocator_->cost(q, per_task);
    const bool allowed = std::find(q.counts.begin(), q.counts.end(), per_task) != q.counts.end();
    // Costs may be negative (a throughput reward): the gain is measured
    // against the choice's magnitude.
    const bool worth_it = current_cost - chosen_cost > settings_.min_gain * std::abs(chosen_cost);
    if (allowed && !allocator_->committed(q) && !worth_it)
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
    q.job = 0;
    q.rest.clear();
    q.elapsed = 0;
    q.tasks = 1;
    q.copies = 1;
    q.size = 0;
    q.speed = 1;
    q.price = q.local_price;
    q.free = &local;
    const bool redo = !(inputs == advice_inputs_) || advice_version_ == 0;
    if (!redo && advice_version_ == book.version())
        return false;
    bool changed = false;
    book.for_each_changed_since(redo ? 0 : advice_version_, [&](const JobCategory& of, const ScalingFit& fit) {
        const std::string& category = of.text();
        auto it = advice_.find(category);
        if (!fit.known || q.counts.empty()) {
            if (it != advice_.end())
                advice_.erase(it), changed = true;
            return;
        }
        q.fit = fit;
        q.category = &of;
        q.dear_price = std::min(inputs.dear_price, waiting_price(q));
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
