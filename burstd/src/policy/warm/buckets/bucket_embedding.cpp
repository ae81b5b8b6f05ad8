#include "policy/warm/buckets/bucket_embedding.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <unordered_map>

namespace burst {
namespace {

struct VectorHash {
    std::size_t operator()(const ResourceVector& v) const
    {
        std::size_t h = 0;
        for (double x : v) {
            std::uint64_t bits = 0;
            std::memcpy(&bits, &x, sizeof bits);
            h = (h ^ std::size_t(bits)) * 0x100000001b3ull;
        }
        return h;
    }
};

// Algorithm 1's order, over the resources the bucket states: whether
// `vector` is not greater than it.
bool fits(const ResourceVector& vector, const ResourceBucket& bucket)
{
    for (std::size_t r = 0; r < vector.size(); ++r) {
        if (!bucket.stated[r] || vector[r] == bucket.vector[r])
            continue;
        return vector[r] < bucket.vector[r];
    }
    return true;
}

} // namespace

std::vector<double> embed_first_fit_increasing(const std::vector<ResourceDemand>& demands,
                                               const std::vector<ResourceBucket>& buckets)
{
    std::vector<double> counts(buckets.size(), 0);
    if (buckets.empty())
        return counts;
    std::unordered_map<ResourceVector, double, VectorHash> copies;
    for (const ResourceDemand& d : demands)
        copies[d.vector] += d.copies;

    std::vector<std::size_t> increasing(buckets.size());
    std::iota(increasing.begin(), increasing.end(), 0);
    std::stable_sort(increasing.begin(), increasing.end(),
                     [&](std::size_t a, std::size_t b) { return buckets[a].vector < buckets[b].vector; });
    // What fits no bucket: the first given of the largest.
    const std::size_t largest = *std::find_if(increasing.begin(), increasing.end(), [&](std::size_t b) {
        return !(buckets[b].vector < buckets[increasing.back()].vector);
    });
    std::vector<ResourceVector> sums(buckets.size(), ResourceVector{});
    for (const auto& [vector, n] : copies) {
        const auto first_fit = std::find_if(increasing.begin(), increasing.end(),
                                            [&](std::size_t b) { return fits(vector, buckets[b]); });
        const std::size_t bucket = first_fit != increasing.end() ? *first_fit : largest;
        for (std::size_t r = 0; r < vector.size(); ++r)
            sums[bucket][r] += vector[r] * n;
    }
    for (std::size_t b = 0; b < buckets.size(); ++b)
        for (std::size_t r = 0; r < kResourceCount; ++r)
            if (buckets[b].stated[r] && buckets[b].vector[r] > 0)
                counts[b] = std::max(counts[b], sums[b][r] / buckets[b].vector[r]);
    return counts;
}

} // namespace burst
