#include "sim/reference/objective_bound.hpp"

#include "sim/reference/bucket_prices.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace burst {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct BoundJob {
    Time release = 0;
    Seconds runtime = 0;       // local
    double cpus = 0;
    Seconds cloud_runtime = 0; // the least of any group: fastest, or cut at its limit
    double cloud_work = 0;     // the least a core of it costs in any group
};

// Subgradient steps start at twice the Polyak step and halve after this
// many steps without a better bound: the usual schedule, which converges
// without knowing the optimum.
constexpr double kFirstStepScale = 2;
constexpr int kStepsBeforeHalving = 20;
// Buckets at most: a trace of years on 300-s buckets would take gigabytes
// of prices; coarser buckets only weaken the bound.
constexpr double kMostBuckets = 1 << 20;

} // namespace

std::optional<double> objective_bound(const SimConfig& config, const std::vector<TraceJob>& trace, double lambda,
                                      double achieved, const ObjectiveBoundOptions& options)
{
    if (lambda < 0 || config.local_cores == 0)
        return std::nullopt;
    std::vector<BoundJob> jobs;
    Time first = kInfinity;
    for (const auto& t : trace) {
        if (!t.parents.empty())
            return std::nullopt;
        if (t.cpus > config.local_cores)
            continue;
        BoundJob j{t.release(), t.true_runtime(), double(t.cpus), kInfinity, kInfinity};
        for (const auto& g : config.groups) {
            const Seconds run = runtime_in(g, t);
            j.cloud_runtime = std::min(j.cloud_runtime, run);
            j.cloud_work = std::min(j.cloud_work, g.price_per_cpu_second() * run);
        }
        jobs.push_back(j);
        first = std::min(first, t.release());
    }
    // Waiting for free: every job starts at once, locally or in the cloud.
    if (jobs.empty() || lambda == 0)
        return 0.0;

    // The cloud: every group's cores at once.
    double cloud_cores = 0;
    for (const auto& g : config.groups)
        cloud_cores += double(simulated_node_count(g)) * g.cpus;
    const bool cloud = !config.groups.empty();
    const double local_cores = config.local_cores;

    // Times from the first release.  The grid reaches well past the last
    // release: the local cores' whole work, were it fluid, plus the longest
    // job.  Capacity past the grid is free, which only weakens the bound.
    double work = 0, last = 0, longest = 0;
    for (auto& j : jobs) {
        j.release -= first;
        work += j.cpus * j.runtime;
        last = std::max(last, j.release);
        longest = std::max(longest, j.runtime);
    }
    const double horizon = last + work / local_cores + longest;
    const Seconds width = std::max({options.bucket, horizon / kMostBuckets, 1.0});
    const auto buckets = std::size_t(std::ceil(horizon / width)) + 1;

    BucketPrices local_price(buckets, width), cloud_price(buckets, width);
    BucketUsage local_use(buckets, width), cloud_use(buckets, width);
    std::vector<double> local_excess, cloud_excess;
    const double wait_price = lambda / 3600;

    double bound = 0; // the prices at 0 bound J by 0
    double step_scale = kFirstStepScale;
    int since_better = 0;
    for (int iteration = 0; iteration < options.iterations; ++iteration) {
        local_use.clear();
        cloud_use.clear();
        double dual = -local_cores * local_price.total() - (cloud ? cloud_cores * cloud_price.total() : 0);
        for (const auto& j : jobs) {
            Placement best;
            improve_placement(best, local_price, j.release, j.runtime, wait_price, 0, false);
            if (cloud)
                improve_placement(best, cloud_price, j.release, j.cloud_runtime, wait_price, j.cloud_work, true);
            dual += j.cpus * best.cost;
            if (best.cloud)
                cloud_use.add(best.start, j.cloud_runtime, j.cpus);
            else
                local_use.add(best.start, j.runtime, j.cpus);
        }
        if (dual > bound) {
            bound = dual;
            since_better = 0;
        } else if (++since_better == kStepsBeforeHalving) {
            step_scale /= 2;
            since_better = 0;
        }

        local_use.excess(local_cores, local_excess);
        double norm = local_price.projected_norm(local_excess);
        if (cloud) {
            cloud_use.excess(cloud_cores, cloud_excess);
            norm += cloud_price.projected_norm(cloud_excess);
        }
        // No capacity is over- or underused at a price: these prices are optimal.
        if (norm == 0)
            break;
        // A target at or under the bound would stall the steps: aim 1% above.
        const double target = std::max(achieved, bound * 1.01);
        const double step = step_scale * (target - dual) / norm;
        local_price.step(local_excess, step);
        if (cloud)
            cloud_price.step(cloud_excess, step);
    }
    return bound;
}

} // namespace burst
