#include "policy/site/first_fit_index.hpp"

#include <algorithm>
#include <limits>

namespace burst {
namespace {
constexpr std::uint64_t kGone = std::numeric_limits<std::uint64_t>::max();
}

FirstFitIndex::FirstFitIndex(const std::vector<std::uint64_t>& sizes) : n_(sizes.size())
{
    std::size_t leaves = 1;
    while (leaves < n_)
        leaves *= 2;
    min_.assign(2 * leaves, kGone);
    std::copy(sizes.begin(), sizes.end(), min_.begin() + std::ptrdiff_t(leaves));
    for (std::size_t i = leaves - 1; i >= 1; --i)
        min_[i] = std::min(min_[2 * i], min_[2 * i + 1]);
}

std::size_t FirstFitIndex::find(std::size_t from, std::uint64_t limit) const
{
    if (n_ == 0 || from >= n_ || min_[1] > limit)
        return kNone;
    // Up from `from`'s leaf to the first right sibling holding a fit (the
    // leftmost range past `from` that has one), then down to its leftmost
    // fitting leaf: two walks of the tree's height, no recursion.
    const std::size_t leaves = min_.size() / 2;
    std::size_t node = leaves + from;
    if (min_[node] > limit) {
        while (node % 2 == 1 || min_[node + 1] > limit) {
            node /= 2;
            if (node == 1)
                return kNone;
        }
        ++node;
        while (node < leaves)
            node = min_[2 * node] <= limit ? 2 * node : 2 * node + 1;
    }
    return node - leaves;
}

void FirstFitIndex::erase(std::size_t i)
{
    std::size_t node = min_.size() / 2 + i;
    min_[node] = kGone;
    // Ancestors change only as long as the minimum below them does.
    for (node /= 2; node >= 1; node /= 2) {
        const std::uint64_t m = std::min(min_[2 * node], min_[2 * node + 1]);
        if (min_[node] == m)
            break;
        min_[node] = m;
    }
}

} // namespace burst
