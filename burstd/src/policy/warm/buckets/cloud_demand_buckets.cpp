#include "policy/warm/buckets/cloud_demand_buckets.hpp"

#include "model/gres.hpp"
#include "policy/site/site_view.hpp"

#include <cmath>

namespace burst {
namespace {

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

std::vector<std::uint32_t> cloud_demand_buckets(const ClusterState& state, const ResourceOrder& order)
{
    const SiteView view = SiteView::of(state);
    GpusPerNode gpus;
    std::vector<ResourceDemand> demands;
    for (std::size_t r = 0; r < view.running.size(); ++r)
        if (view.running_group[r] >= 0)
            demands.push_back(ResourceDemand{order.vector(amounts_of(*view.running[r], gpus)), 1});
    for (std::size_t p = 0; p < view.pending.size(); ++p)
        if (view.pending_burst[p] != BurstOption::Never)
            demands.push_back(ResourceDemand{order.vector(amounts_of(*view.pending[p], gpus)),
                                             double(view.pending[p]->array_task_count)});
    std::vector<ResourceVector> buckets;
    for (const auto& g : view.groups)
        buckets.push_back(order.vector(
            ResourceAmounts{gpus_in(g.offer.gres), double(g.offer.memory_mb), double(g.offer.cpus)}));
    const std::vector<double> counts = embed_first_fit_increasing(std::move(demands), buckets);
    std::vector<std::uint32_t> nodes(counts.size());
    // Sums of fractions (memory over a node's) land a hair above a whole
    // number they equal.
    for (std::size_t g = 0; g < counts.size(); ++g)
        nodes[g] = std::uint32_t(std::ceil(counts[g] - 1e-9));
    return nodes;
}

} // namespace burst
