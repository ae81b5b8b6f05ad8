#pragma once
// Builds each decision's SiteView into storage kept from the one before.
// Decisions come every cycle, most of them on a site that changed little:
// built afresh, a view and its working arrays were some twenty allocations
// a decision, more than the rest of a small site's decision cost.  A policy
// keeps one builder and asks it for the view of every decision.  What a
// much longer queue once needed is given back when the queue shrinks.

#include "model/cluster_state.hpp"
#include "model/node_needs.hpp"
#include "policy/site/node_group_index.hpp"
#include "policy/site/site_view.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace burst {

class SiteViewBuilder {
public:
    // The view of `state` (SiteView::of's); valid until the next build.
    SiteView& build(const ClusterState& state);

    // 8 bytes, so that a million waiting jobs sort in 8 MB and each radix
    // pass streams a quarter of what a key holding (submit, id, job) would.
    struct Key {
        std::uint32_t priority;
        std::uint32_t slot; // index into the pending jobs in snapshot order
    };
    // What the policies read of every waiting job, gathered while the
    // snapshot is walked in order: looking it up through Job pointers in
    // priority order missed the cache (and the TLB) on almost every job at a
    // million jobs.  Read back in priority order, i.e. at random, a slot
    // costs a cache line: aligned to its size, it never straddles two (from
    // malloc's 16-byte alignment every other slot did, when the array
    // started mid-line).
    struct alignas(32) Slot {
        const Job* job;
        std::uint64_t cpus;
        Time since;
        int group;
        BurstOption burst;
        NodeNeeds needs;
    };
    // Radix digits: one byte of ~priority per pass, 256 buckets, which keeps
    // the scatter within the TLB's reach at a million keys.
    static constexpr unsigned kDigitBits = 8, kBuckets = 1u << kDigitBits, kDigits = 32 / kDigitBits;
    using Histograms = std::array<std::array<std::uint32_t, kBuckets>, kDigits>;

private:
    void sort_by_priority();

    NodeGroupIndex node_groups_;
    SiteView view_;
    // Working arrays of a build, kept for their capacity.
    std::vector<Key> keys_;
    std::vector<Key> spare_keys_;
    std::vector<Slot> slots_;
    Histograms count_{};
    std::vector<int> list_group_; // by PartitionSet id
    std::vector<std::uint32_t> down_;
    std::vector<const std::vector<std::string>*> first_features_;
    std::vector<const std::string*> first_gres_text_;
    std::vector<char> gres_listed_;
};

} // namespace burst
