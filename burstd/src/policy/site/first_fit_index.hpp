#pragma once
// First-fit search over a queue of core requests: "the first job at or after
// position i that needs at most `free` cores" in O(log n), so that playing a
// deep queue forward costs O((jobs started + events) · log n) instead of a
// scan of the whole queue at every release.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace burst {

class FirstFitIndex {
public:
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

    explicit FirstFitIndex(const std::vector<std::uint64_t>& sizes);
    // Smallest index >= from whose size is <= limit and not erased, or kNone.
    std::size_t find(std::size_t from, std::uint64_t limit) const;
    void erase(std::size_t i);
    std::size_t size() const { return n_; }

private:
    std::size_t n_;
    std::vector<std::uint64_t> min_; // implicit binary tree, min over each node's range
};

} // namespace burst
