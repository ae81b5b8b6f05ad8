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

struct Key {
    std::uint32_t priority;
    Time submit;
    JobId id;
    int group;
    const Job* job;
    bool operator<(const Key& o) const
    {
        if (priority != o.priority)
            return priority > o.priority;
        if (submit != o.submit)
            return submit < o.submit;
        return id < o.id;
    }
};

void sort_by_priority(std::vector<Key>& keys)
{
    constexpr unsigned kBits = 11, kBuckets = 1u << kBits;
    std::vector<Key> spare(keys.size());
    std::vector<std::size_t> count(kBuckets);
    for (unsigned shift = 0; shift < 32; shift += kBits) {
        std::fill(count.begin(), count.end(), 0);
        // Descending priority: sort on the complement.
        auto digit = [shift](const Key& k) { return (~k.priority >> shift) & (kBuckets - 1); };
        for (const auto& k : keys)
            ++count[digit(k)];
        if (*std::max_element(count.begin(), count.end()) == keys.size())
            continue; // every key has this digit: the pass would change nothing
        std::size_t sum = 0;
        for (auto& c : count)
            sum += std::exchange(c, sum);
        for (const auto& k : keys)
            spare[count[digit(k)]++] = k;
        keys.swap(spare);
    }
    for (auto run = keys.begin(); run != keys.end();) {
        auto end = std::find_if(run, keys.end(), [p = run->priority](const Key& k) { return k.priority != p; });
        if (end - run > 1 && !std::is_sorted(run, end))
            std::sort(run, end);
        run = end;
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
    // Slurm priorities are 32-bit: a stable radix sort on them is O(n), and
    // only runs of equal priority need comparing on (submit, id).
    std::vector<Key> keys;
    keys.reserve(state.snapshot.jobs.size());
    for (const auto& job : state.snapshot.jobs) {
        if (job.awaiting_dependency())
            continue; // cannot start anywhere yet, so it is nobody's demand
        if (job.pending()) {
            const int g = view.group_of(job);
            if (g >= 0)
                view.groups[std::size_t(g)].routed_pending_cpus += job.total_cpus();
            keys.push_back(Key{job.priority, job.submit_time, job.id, g, &job});
        } else if (job.running()) {
            view.running.push_back(&job);
        }
    }
    if (!std::is_sorted(keys.begin(), keys.end()))
        sort_by_priority(keys);
    view.pending.reserve(keys.size());
    view.pending_group.reserve(keys.size());
    for (const auto& k : keys) {
        view.pending.push_back(k.job);
        view.pending_group.push_back(k.group);
    }
    return view;
}

} // namespace burst
