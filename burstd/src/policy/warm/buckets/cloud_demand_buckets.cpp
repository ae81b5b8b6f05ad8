#include "policy/warm/buckets/cloud_demand_buckets.hpp"

#include "model/gres.hpp"
#include "policy/warm/buckets/bucket_embedding.hpp"
#include "policy/warm/whole_nodes.hpp"

#include <algorithm>

namespace burst {
namespace {

// What Slurm reports for a node whose slurm.conf line gives no RealMemory.
constexpr std::uint64_t kSlurmDefaultRealMemoryMb = 1;
// Jobs ahead whose lines are fetched while one is read, as SiteView::of does.
constexpr std::size_t kPrefetchAhead = 8;

double gpus_in(const std::vector<GresCount>& gres)
{
    double gpus = 0;
    for (const auto& g : gres)
        if (g.name == "gpu")
            gpus += double(g.count);
    return gpus;
}

// GPUs per node of each distinct NodeNeeds, parsed once per call: a queue
// holds few distinct needs, and most jobs ask for none.
class GpusPerNode {
public:
    double of(NodeNeeds needs)
    {
        if (needs.empty() || !needs.error().empty())
            return 0;
        if (needs.id() >= known_.size())
            known_.resize(std::size_t(needs.id()) + 1, -1);
        double& gpus = known_[needs.id()];
        // Needs without an error() were read when interned: this parse succeeds.
        if (gpus < 0)
            gpus = gpus_in(parse_gres_request(needs.gres()));
        return gpus;
    }

private:
    std::vector<double> known_; // by NodeNeeds::id(); -1 = not yet parsed
};

ResourceAmounts amounts_of(const Job& job, GpusPerNode& gpus)
{
    return ResourceAmounts{gpus.of(job.needs) * job.node_count, double(job.memory_mb), double(job.cpus)};
}

} // namespace

std::vector<std::uint32_t> cloud_demand_buckets(const SiteView& view, const ResourceOrder& order)
{
    GpusPerNode gpus;
    std::vector<ResourceDemand> demands;
    demands.reserve(view.running.size() + view.pending.size());
    for (std::size_t r = 0; r < view.running.size(); ++r)
        if (view.running_group[r] >= 0)
            demands.push_back(ResourceDemand{order.vector(amounts_of(*view.running[r], gpus)), 1});
    // Priority order is random order in the snapshot: each job's first two
    // lines (model/job.hpp: the sizes are on the second) are asked for
    // ahead of time, or nearly every read waits for memory.
    const std::size_t n = view.pending.size();
    for (std::size_t p = 0; p < n; ++p) {
        if (p + kPrefetchAhead < n) {
            const char* ahead = reinterpret_cast<const char*>(view.pending[p + kPrefetchAhead]);
            __builtin_prefetch(ahead);
            __builtin_prefetch(ahead + 64);
        }
        if (view.pending_burst[p] != BurstOption::Never)
            demands.push_back(ResourceDemand{order.vector(amounts_of(*view.pending[p], gpus)),
                                             double(view.pending[p]->array_task_count)});
    }
    std::vector<ResourceBucket> buckets;
    for (const auto& g : view.groups) {
        ResourceBucket bucket{order.vector(
            ResourceAmounts{gpus_in(g.offer.gres), double(g.offer.memory_mb), double(g.offer.cpus)})};
        bucket.stated[order.position(Resource::Memory)] = g.offer.memory_mb > kSlurmDefaultRealMemoryMb;
        buckets.push_back(bucket);
    }
    const std::vector<double> counts = embed_first_fit_increasing(demands, buckets);
    std::vector<std::uint32_t> nodes(counts.size());
    for (std::size_t g = 0; g < counts.size(); ++g)
        nodes[g] = std::uint32_t(std::min(whole_nodes(counts[g]), double(view.groups[g].group->capacity())));
    return nodes;
}

} // namespace burst
