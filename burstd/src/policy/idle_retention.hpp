#pragma once
// How long an idle cloud node is worth keeping up, learned from how soon
// the site has needed a node again after one went idle.  Slurm powers an
// idle node down after SuspendTime whatever the workload; this powers it
// down sooner when keeping it is not expected to pay.
//
// Keeping a node idle costs its price per second.  A node kept and reused
// saves what a fresh one costs: its boot billed (price × boot) and the
// boot waited by the cores that take it (λ × cores × boot / 3600); call
// that V.  Keeping a node longer than V / price can never pay, so that is
// the horizon H of the rule.
//
// What is learned, per group: G, the time from a node going idle until the
// group next needs a node (a node enters use: an idle one takes work, or a
// powered-down one is resumed).  Needs are matched to idle events last in,
// first out (a need takes the node idle the shortest time), and an idle
// event no need has matched within H counts as never needed.  The cores
// that wait for a fresh node are those the nodes entering use carry
// (their mean, at most a node; a node's cores until a need is seen).  The
// last `window` gaps are kept, so the rule follows the workload's rhythm.
//
// A node idle for `a` is kept while some T in (a, H] has a lower expected
// cost than powering it down now, over the gaps G > a:
//   keep until T:  price × E[min(G, T) − a] + V × P(T < G ≤ H)
//   power down:    V × P(a < G ≤ H)
// (a need after H costs a fresh node either way).  With no gap past a seen
// yet, it is kept: Slurm's SuspendTime decides, as without the rule.
// Decided at every call, so a node kept at one decision is weighed again
// at the next with the gaps still possible.
//
// Only the site's state is read: node states, group prices and boot times,
// and the decision times; λ is the policy's.

#include "model/clock.hpp"
#include "model/cluster_state.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

class IdleRetention {
public:
    explicit IdleRetention(double lambda, std::size_t window = 512) : lambda_(lambda), window_(window) {}

    // Learns from the node changes since the previous call.  Call once per
    // decision, before release().
    void observe(const ClusterState& state, Time now);

    // Idle nodes of `group` to power down now, longest idle first, at most
    // `spare` of them (idle nodes that jobs already routed will not take).
    std::vector<std::string> release(const NodeGroup& group, Time now, std::uint32_t spare);

    // V / price: past this a kept node has cost more than a fresh one.
    Seconds horizon(const NodeGroup& group) const;

private:
    enum class Use : std::uint8_t { Down, Idle, Busy };
    // What was seen of the node at the same place in the snapshot (slurmctld
    // and burstsim list nodes in a stable order): one string compare per
    // cloud node and decision instead of a lookup by name.
    struct NodeSeen {
        std::string name;
        std::string group; // "" = in no group
        std::size_t group_index = 0;
        Use use = Use::Down;
        Time idle_since = 0;
    };
    struct Learned {
        std::vector<Time> idle_events;    // unmatched, oldest first
        std::vector<Seconds> gaps;        // ring of the last window_ gaps; +inf = never needed
        std::size_t next = 0;             // ring position
        std::vector<Seconds> sorted;      // gaps, ascending (rebuilt when stale)
        bool stale = true;
        double need_cores = 0;            // Σ cores of nodes entering use
        std::uint64_t needs = 0;
    };

    double saving(const NodeGroup& group, const Learned& l) const;
    void add_gap(Learned& l, Seconds gap);
    bool keep(const NodeGroup& group, Learned& l, Seconds age);

    double lambda_;
    std::size_t window_;
    std::vector<NodeSeen> nodes_; // by position in the snapshot
    std::unordered_map<std::string, Learned> groups_;
};

} // namespace burst
