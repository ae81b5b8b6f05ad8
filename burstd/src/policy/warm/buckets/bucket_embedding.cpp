#include "policy/warm/buckets/bucket_embedding.hpp"

#include <algorithm>
#include <numeric>

namespace burst {

std::vector<double> embed_first_fit_increasing(std::vector<ResourceDemand> demands,
                                               const std::vector<ResourceVector>& buckets)
{
    std::vector<double> counts(buckets.size(), 0);
    if (buckets.empty())
        return counts;
    std::vector<std::size_t> order(buckets.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return buckets[a] < buckets[b]; });
    std::sort(demands.begin(), demands.end(),
              [](const ResourceDemand& a, const ResourceDemand& b) { return a.vector < b.vector; });

    std::vector<ResourceVector> sums(buckets.size(), ResourceVector{});
    auto add = [&](std::size_t bucket, const ResourceDemand& d) {
        for (std::size_t r = 0; r < d.vector.size(); ++r)
            sums[bucket][r] += d.vector[r] * d.copies;
    };
    std::size_t next = 0;
    for (std::size_t bucket : order)
        for (; next < demands.size() && !(buckets[bucket] < demands[next].vector); ++next)
            add(bucket, demands[next]);
    // What is larger than every bucket: the first given of the largest.
    const std::size_t largest = *std::find_if(order.begin(), order.end(), [&](std::size_t b) {
        return !(buckets[b] < buckets[order.back()]);
    });
    for (; next < demands.size(); ++next)
        add(largest, demands[next]);
    for (std::size_t b = 0; b < buckets.size(); ++b)
        for (std::size_t r = 0; r < buckets[b].size(); ++r)
            if (buckets[b][r] > 0)
                counts[b] = std::max(counts[b], sums[b][r] / buckets[b][r]);
    return counts;
}

} // namespace burst
