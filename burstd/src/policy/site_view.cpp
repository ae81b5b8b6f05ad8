#include "policy/site_view.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace burst {

const std::string& group_partition(const NodeGroup& group)
{
    return group.partition.empty() ? group.name : group.partition;
}

int SiteView::group_of(const Job& job) const
{
    for (const auto& p : job.partitions)
        for (const auto& [name, index] : partition_group_)
            if (p == name)
                return index;
    return -1;
}

namespace {

// 8 bytes, so that a million waiting jobs sort in 8 MB: below glibc's
// largest mmap threshold (32 MB) the buffers come back from the heap on the
// next decision instead of being faulted in page by page, and each radix
// pass streams a quarter of what a key holding (submit, id, job) would.
struct Key {
    std::uint32_t priority;
    std::uint32_t slot; // index into the pending jobs in snapshot order
};

// What the policies read of every waiting job, gathered while the snapshot
// is walked in order: looking it up through Job pointers in priority order
// missed the cache (and the TLB) on almost every job at a million jobs.
struct Slot {
    std::uint64_t cpus;
    Time since;
    int group;
    BurstOption burst;
};

bool before(const Job& a, const Job& b)
{
    if (a.submit_time != b.submit_time)
        return a.submit_time < b.submit_time;
    return a.id < b.id;
}

// Stable LSD radix sort on descending priority, one byte per pass: 256
// buckets keep the scatter within the TLB's reach at a million keys.  Passes
// whose byte is the same for every key are skipped (priorities rarely use
// all 32 bits).
void sort_by_priority(std::vector<Key>& keys)
{
    constexpr unsigned kBits = 8, kBuckets = 1u << kBits;
    std::vector<Key> spare(keys.size());
    std::vector<std::size_t> count(kBuckets);
    for (unsigned shift = 0; shift < 32; shift += kBits) {
        std::fill(count.begin(), count.end(), 0);
        auto digit = [shift](const Key& k) { return (~k.priority >> shift) & (kBuckets - 1); };
        for (const auto& k : keys)
            ++count[digit(k)];
        if (*std::max_element(count.begin(), count.end()) == keys.size())
            continue;
        std::size_t sum = 0;
        for (auto& c : count)
            sum += std::exchange(c, sum);
        for (const auto& k : keys)
            spare[count[digit(k)]++] = k;
        keys.swap(spare);
    }
}

} // namespace

SiteView SiteView::of(const ClusterState& state)
{
    SiteView view;
    std::unordered_map<std::string, int> node_group;
    view.groups.resize(state.groups.size());
    for (std::size_t g = 0; g < state.groups.size(); ++g) {
        const NodeGroup& group = state.groups[g];
        view.groups[g].group = &group;
        view.partition_group_.emplace_back(group_partition(group), int(g));
        for (const auto& n : group.nodes)
            node_group.emplace(n, int(g));
    }
    std::vector<std::uint32_t> down(state.groups.size(), 0);
    for (const auto& node : state.snapshot.nodes) {
        auto it = node_group.find(node.name);
        if (it == node_group.end()) {
            if (node.cloud() || !node.usable())
                continue;
            view.local_cpus += node.cpus;
            view.local_alloc_cpus += std::min(node.alloc_cpus, node.cpus);
            view.local_free_cpus += node.free_cpus();
            continue;
        }
        GroupView& gv = view.groups[std::size_t(it->second)];
        if (node.has(kNodePoweredDown) || node.has(kNodePoweringDown)) {
            if (!node.has(kNodeDrain) && !node.has(kNodeFail))
                ++down[std::size_t(it->second)];
        } else if (node.has(kNodePoweringUp)) {
            ++gv.booting_nodes;
            gv.alloc_cpus += node.alloc_cpus;
            if (!node.has(kNodeDrain))
                gv.free_booting_cpus += node.free_cpus();
        } else if (node.usable()) {
            ++gv.up_nodes;
            gv.alloc_cpus += node.alloc_cpus;
            gv.free_up_cpus += node.free_cpus();
            if (node.alloc_cpus == 0)
                gv.idle_nodes.push_back(node.name);
        }
    }
    for (std::size_t g = 0; g < view.groups.size(); ++g) {
        GroupView& gv = view.groups[g];
        const std::uint32_t in_use = gv.up_nodes + gv.booting_nodes;
        const std::uint32_t cap = gv.group->capacity();
        gv.hireable_nodes = std::min(down[g], cap > in_use ? cap - in_use : 0);
        if (auto limit = state.hire_limits.find(gv.group->name); limit != state.hire_limits.end())
            gv.hireable_nodes = std::min(gv.hireable_nodes, limit->second);
    }
    // Slurm priorities are 32-bit: a stable radix sort on them is O(n).  Jobs
    // come in (submit, id) order from slurmctld and burstsim alike, and the
    // sort keeps that order among equal priorities; only when they do not are
    // runs of equal priority compared on (submit, id).
    std::vector<Key> keys;
    std::vector<const Job*> jobs;
    std::vector<Slot> slots;
    keys.reserve(state.snapshot.jobs.size());
    jobs.reserve(state.snapshot.jobs.size());
    slots.reserve(state.snapshot.jobs.size());
    bool submit_order = true;
    for (const auto& job : state.snapshot.jobs) {
        if (job.awaiting_dependency())
            continue; // cannot start anywhere yet, so it is nobody's demand
        if (job.pending()) {
            const int g = view.group_of(job);
            if (g >= 0)
                view.groups[std::size_t(g)].routed_pending_cpus += job.total_cpus();
            if (!jobs.empty() && before(job, *jobs.back()))
                submit_order = false;
            keys.push_back(Key{job.priority, std::uint32_t(jobs.size())});
            jobs.push_back(&job);
            slots.push_back(Slot{job.total_cpus(), std::max(job.submit_time, job.eligible_time), g, job.burst});
        } else if (job.running()) {
            view.running.push_back(&job);
        }
    }
    auto higher = [](const Key& a, const Key& b) { return a.priority > b.priority; };
    if (!std::is_sorted(keys.begin(), keys.end(), higher))
        sort_by_priority(keys);
    if (!submit_order)
        for (auto run = keys.begin(); run != keys.end();) {
            auto end = std::find_if(run, keys.end(), [p = run->priority](const Key& k) { return k.priority != p; });
            if (end - run > 1)
                std::sort(run, end, [&jobs](const Key& a, const Key& b) { return before(*jobs[a.slot], *jobs[b.slot]); });
            run = end;
        }
    view.pending.reserve(keys.size());
    view.pending_group.reserve(keys.size());
    view.pending_cpus.reserve(keys.size());
    view.pending_since.reserve(keys.size());
    view.pending_burst.reserve(keys.size());
    for (const auto& k : keys) {
        const Slot& s = slots[k.slot];
        view.pending.push_back(jobs[k.slot]);
        view.pending_group.push_back(s.group);
        view.pending_cpus.push_back(s.cpus);
        view.pending_since.push_back(s.since);
        view.pending_burst.push_back(s.burst);
    }
    return view;
}

} // namespace burst
