#include "policy/cost/waiting_cost_gate.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace burst {
namespace {

// What a node of `group` costs running `runtime` after a `boot`.
double node_cost(const NodeGroup& group, Seconds boot, Seconds runtime)
{
    return group.price_per_hour * std::max(group.min_billed, boot + runtime / group.speed) / 3600;
}

} // namespace

bool WaitingCostGate::off() const
{
    return std::isinf(lambda_);
}

Seconds WaitingCostGate::horizon(const NodeGroup& group, std::uint64_t cores, Seconds runtime) const
{
    if (!(lambda_ > 0) || cores == 0)
        return HUGE_VAL;
    const std::uint64_t per_node = group.cpus ? group.cpus : 1;
    const double nodes = double((cores + per_node - 1) / per_node);
    const Seconds boot = boots_.expected(group);
    return boot + nodes * node_cost(group, boot, runtime) * 3600 / (lambda_ * double(cores));
}

std::uint32_t WaitingCostGate::worth(const NodeGroup& group, std::uint32_t nodes, std::vector<WaitingJob> waiting) const
{
    if (off())
        return nodes;
    const std::uint64_t per_node = group.cpus ? group.cpus : 1;
    std::stable_sort(waiting.begin(), waiting.end(),
                     [](const WaitingJob& a, const WaitingJob& b) { return a.wait > b.wait; });
    std::uint64_t hired = 0; // whole nodes of the worthy jobs
    std::uint64_t narrow = 0; // cores of the worthy jobs narrower than a node
    std::vector<std::pair<std::uint64_t, double>> narrow_jobs; // (cores, saved), most waiting first
    std::vector<Seconds> narrow_runtime;
    const Seconds boot = boots_.expected(group);
    for (const auto& job : waiting) {
        if (job.cores == 0)
            continue;
        const double saved = lambda_ * double(job.cores) * (job.wait - boot) / 3600;
        if (job.cores >= per_node) {
            // Wide jobs take whole nodes of their own.
            const std::uint64_t n = (job.cores + per_node - 1) / per_node;
            if (saved > double(n) * node_cost(group, boot, job.runtime))
                hired += n;
        } else if (saved > double(job.cores) / double(per_node) * node_cost(group, boot, job.runtime)) {
            narrow += job.cores;
            narrow_jobs.emplace_back(job.cores, saved);
            narrow_runtime.push_back(job.runtime);
        }
    }
    hired += narrow / per_node;
    // The least waiting of the narrow jobs fill the last node partly.
    std::uint64_t tail = narrow % per_node;
    double tail_saved = 0;
    Seconds tail_runtime = 0;
    for (std::size_t k = narrow_jobs.size(); tail > 0 && k-- > 0;) {
        const auto [cores, saved] = narrow_jobs[k];
        const std::uint64_t on_tail = std::min(cores, tail);
        tail_saved += saved * double(on_tail) / double(cores);
        tail_runtime = std::max(tail_runtime, narrow_runtime[k]);
        tail -= on_tail;
    }
    if (narrow % per_node > 0 && tail_saved > node_cost(group, boot, tail_runtime))
        ++hired;
    return std::uint32_t(std::min<std::uint64_t>(hired, nodes));
}

} // namespace burst
