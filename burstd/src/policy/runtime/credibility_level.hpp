#pragma once
// One level of a hierarchical estimate (e.g. a user's jobs of one name
// within their category): per key, Bühlmann's credibility estimate
//
//   Z · (the key's mean) + (1 − Z) · (its parent's estimate),
//   Z = n / (n + σ² / τ²)
//
// with σ² the variance of values within a key and τ² that of the keys'
// true offsets from their parents, both estimated from every key of the
// level (Bühlmann and Straub).  Nothing to tune: the data set how far each
// level shrinks.  A key adds nothing to its parent until the level can tell
// its keys apart.  The key's mean is a recent one (the newest of n
// observations weighs 1/min(n, kRecentRuns), n capped likewise in Z) so
// that a key follows a change in what its jobs do; a weighted mean of
// means, the estimate stays within the values seen.  A key the level drops
// (recent_keys.hpp) still counts in σ² and τ², which describe the level.

#include "policy/runtime/recent_keys.hpp"

#include <cstdint>
#include <limits>
#include <string>

namespace burst {

// How many runs a recent mean weighs before older ones start to fade.
inline constexpr double kRecentRuns = 50;

class CredibilityLevel {
    struct Node;

public:
    // Where a key's mean is kept, remembered by a caller that estimates the
    // same key again and again: found again only when the level's keys
    // changed since.  A place belongs to the level that filled it in.
    class Place {
        friend class CredibilityLevel;
        const Node* node_ = nullptr;
        std::uint64_t stamp_ = UINT64_MAX;
    };

    explicit CredibilityLevel(std::size_t key_capacity = kRecentKeys) : nodes_(key_capacity) {}
    // The estimate for `key` given its parent's estimate `parent`.
    double estimate(const std::string& key, double parent) const;
    double estimate(const std::string& key, double parent, Place& place) const;
    // `key` took value `x` where its parent estimated `parent` (before
    // learning x).
    void observe(const std::string& key, double parent, double x);
    // σ²/τ²: how many observations of a key weigh as much as its parent;
    // +inf while the level cannot tell its keys apart.
    double prior_weight() const;
    // Keys whose mean is kept.
    std::size_t keys() const { return nodes_.size(); }

private:
    double estimate(const Node* node, double parent) const;

    struct Node {
        std::uint64_t n = 0;
        double recent = 0; // recent-weighted mean value
        double mean = 0;   // mean offset (Welford)
        double m2 = 0;     // sum of squared deviations from it
    };
    RecentKeys<Node> nodes_;
    // Over every key observed, kept or dropped: how many, Σ m2, Σ (n − 1),
    // Σ n·mean², Σ n.
    std::uint64_t keys_observed_ = 0;
    double sum_m2_ = 0;
    double sum_n_mean2_ = 0;
    std::uint64_t sum_df_ = 0;
    std::uint64_t total_ = 0;
};

} // namespace burst
