#include "policy/site/site_view_builder.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <utility>

namespace burst {
namespace {

using Key = SiteViewBuilder::Key;
using Slot = SiteViewBuilder::Slot;
using Histograms = SiteViewBuilder::Histograms;
constexpr unsigned kDigitBits = SiteViewBuilder::kDigitBits;
constexpr unsigned kBuckets = SiteViewBuilder::kBuckets;
constexpr unsigned kDigits = SiteViewBuilder::kDigits;
static_assert(sizeof(Slot) == 32, "a slot is half a cache line: aligned to its size, it never straddles two");

std::uint32_t digit(std::uint32_t priority, unsigned d)
{
    return (~priority >> (d * kDigitBits)) & (kBuckets - 1);
}

// Counted while the keys are made, so that each pass of the sort is one
// scatter instead of a count and a scatter over the keys.
void count_digits(Histograms& count, std::uint32_t priority)
{
    for (unsigned d = 0; d < kDigits; ++d)
        ++count[d][digit(priority, d)];
}

// Far enough ahead to hide a load from memory behind the work on the jobs
// between, near enough not to evict what is still to be read.
constexpr std::size_t kPrefetchAhead = 8;

bool before(const Job& a, const Job& b)
{
    if (a.submit_time != b.submit_time)
        return a.submit_time < b.submit_time;
    return a.id < b.id;
}

// A node's gres; none where the text cannot be read (burstd.conf's parser
// refuses such a Gres=, and slurmctld writes only what it read).
std::vector<GresCount> readable_gres(const std::string& text)
{
    try {
        return parse_node_gres(text);
    } catch (const std::invalid_argument&) {
        return {};
    }
}

// Marks a partition list whose group this decision has not worked out yet.
constexpr int kUnresolved = -2;

// Kept storage more than four times what this build needs (and beyond a
// few thousand entries) goes back to the heap: a queue of a million jobs,
// once drained, should not pin some 90 MB per policy.
template <class T>
void release_excess(std::vector<T>& kept, std::size_t needed)
{
    if (kept.capacity() > 4 * needed + 4096)
        std::vector<T>().swap(kept);
}

} // namespace

// Stable LSD radix sort of keys_ on descending priority.  Passes whose byte
// is the same for every key are skipped (priorities rarely use all 32 bits).
void SiteViewBuilder::sort_by_priority()
{
    spare_keys_.resize(keys_.size());
    for (unsigned d = 0; d < kDigits; ++d) {
        auto& bucket = count_[d];
        if (*std::max_element(bucket.begin(), bucket.end()) == keys_.size())
            continue;
        std::uint32_t sum = 0;
        for (auto& c : bucket)
            sum += std::exchange(c, sum);
        for (const auto& k : keys_)
            spare_keys_[bucket[digit(k.priority, d)]++] = k;
        keys_.swap(spare_keys_);
    }
}

SiteView& SiteViewBuilder::build(const ClusterState& state)
{
    SiteView& view = view_;
    const std::size_t jobs = state.snapshot.jobs.size();
    release_excess(keys_, jobs);
    release_excess(spare_keys_, jobs);
    release_excess(slots_, jobs);
    release_excess(view.pending, jobs);
    release_excess(view.pending_group, jobs);
    release_excess(view.pending_cpus, jobs);
    release_excess(view.pending_since, jobs);
    release_excess(view.pending_burst, jobs);
    release_excess(view.pending_needs, jobs);
    release_excess(view.pending_time_limit, jobs);
    release_excess(view.running, jobs);
    release_excess(view.running_group, jobs);
    view.local_cpus = view.local_free_cpus = view.local_alloc_cpus = 0;
    view.unservable_jobs = view.unchecked_jobs = view.too_long_jobs = 0;
    view.first_unservable = NodeNeeds();
    view.running.clear();
    view.running_group.clear();
    view.needs_row_.clear();
    view.served_.clear();
    view.served_anywhere_.clear();
    view.partition_group_.clear();
    const std::size_t groups = state.groups.size();
    view.groups.assign(groups, GroupView{});
    for (std::size_t g = 0; g < groups; ++g) {
        const NodeGroup& group = state.groups[g];
        view.groups[g].group = &group;
        view.groups[g].index = g;
        view.partition_group_.emplace_back(group_partition(group), int(g));
        view.groups[g].max_time = state.snapshot.max_time_of(group_partition(group));
    }
    const bool any_max_time =
        std::any_of(view.groups.begin(), view.groups.end(), [](const GroupView& gv) { return gv.max_time > 0; });
    view.longest_max_time_ = 0;
    if (std::none_of(view.groups.begin(), view.groups.end(), [](const GroupView& gv) { return gv.max_time == 0; }))
        for (const GroupView& gv : view.groups)
            view.longest_max_time_ = std::max(view.longest_max_time_, gv.max_time);
    view.node_group = node_groups_.of(state);
    down_.assign(groups, 0);
    first_features_.assign(groups, nullptr);
    first_gres_text_.assign(groups, nullptr);
    gres_listed_.assign(groups, 0);
    for (std::size_t i = 0; i < state.snapshot.nodes.size(); ++i) {
        const Node& node = state.snapshot.nodes[i];
        const int g = view.node_group[i];
        if (g >= 0) {
            // A group's offer is what every one of its nodes has: a job
            // routed there may get any of them.  Its nodes mostly list the
            // same features in the same order as its first node, which
            // costs one comparison.
            NodeOffer& offer = view.groups[std::size_t(g)].offer;
            // A node listing no gres has none: the group then offers none.
            const std::string*& first_gres = first_gres_text_[std::size_t(g)];
            if (first_gres == nullptr || node.gres != *first_gres) {
                const std::vector<GresCount> gres = readable_gres(node.gres);
                offer.gres = first_gres == nullptr ? gres : common_gres(offer.gres, gres);
                if (first_gres == nullptr)
                    first_gres = &node.gres;
            }
            gres_listed_[std::size_t(g)] |= !node.gres.empty();
            if (node.cpus > 0)
                offer.cpus = offer.cpus ? std::min(offer.cpus, node.cpus) : node.cpus;
            if (node.memory_mb > 0)
                offer.memory_mb = offer.memory_mb ? std::min(offer.memory_mb, node.memory_mb) : node.memory_mb;
            auto& offered = offer.features;
            const std::vector<std::string>*& first_listed = first_features_[std::size_t(g)];
            const bool first = first_listed == nullptr;
            if (first)
                first_listed = &node.features;
            if (first || node.features != *first_listed) {
                std::vector<std::string> features = node.features;
                std::sort(features.begin(), features.end());
                if (first) {
                    offered = std::move(features);
                } else {
                    std::vector<std::string> common;
                    std::set_intersection(offered.begin(), offered.end(), features.begin(), features.end(),
                                          std::back_inserter(common));
                    offered = std::move(common);
                }
            }
        }
        if (g < 0) {
            if (node.cloud() || !node.usable())
                continue;
            view.local_cpus += node.cpus;
            view.local_alloc_cpus += std::min(node.alloc_cpus, node.cpus);
            view.local_free_cpus += node.free_cpus();
            continue;
        }
        GroupView& gv = view.groups[std::size_t(g)];
        if (node.has(kNodePoweredDown) || node.has(kNodePoweringDown)) {
            if (!node.has(kNodeDrain) && !node.has(kNodeFail))
                ++down_[std::size_t(g)];
        } else if (node.has(kNodePoweringUp)) {
            ++gv.booting_nodes;
            gv.alloc_cpus += node.alloc_cpus;
            if (!node.has(kNodeDrain))
                gv.free_booting_cpus += node.free_cpus();
        } else if (node.usable()) {
            ++gv.up_nodes;
            gv.alloc_cpus += node.alloc_cpus;
            gv.up_alloc_cpus += node.alloc_cpus;
            gv.free_up_cpus += node.free_cpus();
            if (node.alloc_cpus == 0)
                gv.idle_nodes.push_back(node.name);
        }
    }
    for (std::size_t g = 0; g < groups; ++g) {
        GroupView& gv = view.groups[g];
        // Nodes Slurm does not list (burstsim's, a snapshot not yet in),
        // or lists no gres for: the group's own Cpus=, MemoryMB= and Gres=.
        if (gv.offer.cpus == 0)
            gv.offer.cpus = gv.group->cpus;
        if (gv.offer.memory_mb == 0)
            gv.offer.memory_mb = gv.group->memory_mb;
        if (!gres_listed_[g])
            gv.offer.gres = readable_gres(gv.group->gres);
        const std::uint32_t in_use = gv.up_nodes + gv.booting_nodes;
        const std::uint32_t cap = gv.group->capacity();
        // Nodes the snapshot does not list are powered down and never used:
        // counted, not walked.
        const auto powered_down = std::uint32_t(
            std::min<std::uint64_t>(std::uint64_t(down_[g]) + gv.group->unlisted_nodes, NodeGroup::kUnlimited));
        gv.hireable_nodes = std::min(powered_down, cap > in_use ? cap - in_use : 0);
        if (auto limit = state.hire_limits.find(gv.group->name); limit != state.hire_limits.end())
            gv.hireable_nodes = std::min(gv.hireable_nodes, limit->second);
    }
    // Slurm priorities are 32-bit: a stable radix sort on them is O(n).  Jobs
    // come in (submit, id) order from slurmctld, and the sort keeps that
    // order among equal priorities; only when they do not (burstsim's
    // snapshot, where ended jobs are swapped out) are runs of equal priority
    // compared on (submit, id).
    keys_.clear();
    slots_.clear();
    keys_.reserve(jobs);
    slots_.reserve(jobs);
    count_ = {};
    bool submit_order = true;
    // The group of each partition list, by its id, worked out the first
    // time a job with that list comes up.  Every list in the snapshot was
    // interned before id_bound() is read here, so the table has room for
    // all of them; the check below keeps a list interned otherwise from
    // indexing past it rather than relying on that.
    list_group_.assign(PartitionSet::id_bound(), kUnresolved);
    auto group = [&](const PartitionSet& partitions) {
        const std::uint32_t id = partitions.id();
        if (id >= list_group_.size())
            list_group_.resize(std::size_t(id) + 1, kUnresolved);
        int& g = list_group_[id];
        if (g == kUnresolved)
            g = view.group_of(partitions);
        return g;
    };
    const auto& all = state.snapshot.jobs;
    for (std::size_t i = 0; i < all.size(); ++i) {
        // The one line of the Job this loop reads (model/job.hpp).
        if (i + 2 * kPrefetchAhead < all.size())
            __builtin_prefetch(&all[i + 2 * kPrefetchAhead]);
        const Job& job = all[i];
        // Every job's, running and held ones too: pfa's token waves ask of
        // them all, and a row answers in a lookup where met_by parses none
        // but walks the expression.
        const bool served = job.needs.empty() || view.served_anywhere(job.needs);
        if (job.running()) {
            view.running.push_back(&job);
            view.running_group.push_back(group(job.partitions));
            continue;
        }
        if (!job.pending() || job.blocked())
            continue; // cannot start anywhere yet, so it is nobody's demand
        int g = group(job.partitions);
        if (g >= 0 && !within_max_time(job.time_limit, view.groups[std::size_t(g)].max_time))
            g = -1; // routed where Slurm will not start it: still local work
        const std::uint64_t cpus = job.total_cpus();
        if (g >= 0)
            view.groups[std::size_t(g)].routed_pending_cpus += cpus;
        if (!slots_.empty() && before(job, *slots_.back().job))
            submit_order = false;
        keys_.push_back(Key{job.priority, std::uint32_t(slots_.size())});
        count_digits(count_, job.priority);
        BurstOption burst = job.burst;
        if (job.needs.unchecked())
            ++view.unchecked_jobs;
        if (g < 0 && burst != BurstOption::Never && !served) {
            burst = BurstOption::Never;
            if (view.unservable_jobs++ == 0)
                view.first_unservable = job.needs;
        } else if (g < 0 && burst != BurstOption::Never && any_max_time &&
                   std::none_of(view.groups.begin(), view.groups.end(), [&](const GroupView& gv) {
                       return within_max_time(job.time_limit, gv.max_time) && view.serves(job.needs, gv);
                   })) {
            burst = BurstOption::Never;
            ++view.too_long_jobs;
        }
        slots_.push_back(Slot{&job, cpus, std::max(job.submit_time, job.eligible_time), g, burst, job.needs});
    }
    auto higher = [](const Key& a, const Key& b) { return a.priority > b.priority; };
    if (!std::is_sorted(keys_.begin(), keys_.end(), higher))
        sort_by_priority();
    if (!submit_order)
        for (auto run = keys_.begin(); run != keys_.end();) {
            auto end = std::find_if(run, keys_.end(), [p = run->priority](const Key& k) { return k.priority != p; });
            if (end - run > 1)
                std::sort(run, end, [this](const Key& a, const Key& b) {
                    return before(*slots_[a.slot].job, *slots_[b.slot].job);
                });
            run = end;
        }
    const std::size_t n = keys_.size();
    view.pending.resize(n);
    view.pending_group.resize(n);
    view.pending_cpus.resize(n);
    view.pending_since.resize(n);
    view.pending_burst.resize(n);
    view.pending_needs.resize(n);
    view.pending_time_limit.resize(any_max_time ? n : 0);
    for (std::size_t i = 0; i < n; ++i) {
        // Priority order is random order in `slots_`: 32 MB at a million
        // jobs, beyond the cache, so each slot is asked for ahead of time.
        if (i + kPrefetchAhead < n)
            __builtin_prefetch(&slots_[keys_[i + kPrefetchAhead].slot]);
        const Slot& s = slots_[keys_[i].slot];
        view.pending[i] = s.job;
        view.pending_group[i] = s.group;
        view.pending_cpus[i] = s.cpus;
        view.pending_since[i] = s.since;
        view.pending_burst[i] = s.burst;
        view.pending_needs[i] = s.needs;
        if (any_max_time)
            view.pending_time_limit[i] = s.job->time_limit;
    }
    return view;
}

} // namespace burst
