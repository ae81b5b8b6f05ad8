#include "policy/first_fit_index.hpp"

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
    return find(1, 0, min_.size() / 2, from, limit);
}

std::size_t FirstFitIndex::find(std::size_t node, std::size_t lo, std::size_t hi, std::size_t from,
                                std::uint64_t limit) const
{
    if (hi <= from || min_[node] > limit)
        return kNone;
    if (hi - lo == 1)
        return lo;
    const std::size_t mid = lo + (hi - lo) / 2;
    const std::size_t left = find(2 * node, lo, mid, from, limit);
    return left != kNone ? left : find(2 * node + 1, mid, hi, from, limit);
}

void FirstFitIndex::erase(std::size_t i)
{
    std::size_t node = min_.size() / 2 + i;
    min_[node] = kGone;
    for (node /= 2; node >= 1; node /= 2)
        min_[node] = std::min(min_[2 * node], min_[2 * node + 1]);
}

} // namespace burst
