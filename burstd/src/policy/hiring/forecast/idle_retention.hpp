#pragma once
// How long an idle cloud node is worth keeping up, learned from how soon
// the site has needed a node again after one went idle.  Slurm powers an
// idle node down after SuspendTime whatever the workload; this powers it
// down sooner when keeping it is not expected to pay.
//
// Keeping a node idle costs what its provider bills past what it has
// already billed: nothing until the node's next billing boundary (the next
// hour from launch with per-hour billing, MinBilled from launch otherwise),
// its price per second after.  A node kept and reused saves what a fresh one
// costs: its billed minimum (price × max(MinBilled, boot)) and the boot
// waited by the cores that take it (λ × cores × boot / 3600); call that V.
// Past its billing boundary, keeping a node longer than V / price can never
// pay, so that is the horizon H of the rule.
//
// What is learned, per group: G, the time from a node going idle until the
// group next needs a node (a node enters use: an idle one takes work, or a
// powered-down one is resumed).  Needs are matched to idle events last in,
// first out (a need takes the node idle the shortest time), and an idle
// event no need has matched within H counts as never needed.  The cores
// that wait for a fresh node are those the nodes entering use carry (their
// mean, at most a node, over the nodes entering use with cores allocated: a
// node another policy hired carries none yet; a node's cores until such a
// need is seen).  The last `window` gaps are kept, so the rule follows the
// workload's rhythm.  The first call only sees how nodes are: nodes busy
// then are no needs, and nodes idle then have no known idle time, so the
// rule leaves them to SuspendTime.
//
// A node idle for `a` whose billing boundary is further away than the time
// between the last two decisions is kept: keeping it until the next
// decision is free.  Otherwise it is kept while some T in (a, H] has a lower
// expected cost than powering it down now, over the gaps G > a:
//   keep until T:  E[billed(min(G, T) − a)] + V × P(T < G ≤ H)
//   power down:    V × P(a < G ≤ H)
// where billed(d) is what keeping it d longer adds to its bill (a need
// after H costs a fresh node either way).  With no gap past a seen yet, it
// is kept: Slurm's SuspendTime decides, as without the rule.  Decided at
// every call, so a node kept at one decision is weighed again at the next
// with the gaps still possible.
//
// Only the site's state is read: node states, group prices, billing and
// boot times, burstd's instances (launch times), and the decision times; λ
// is the policy's.

#include "model/clock.hpp"
#include "model/cluster_state.hpp"
#include "policy/site/node_instances.hpp"
#include "policy/site/site_view.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

class IdleRetention {
public:
    explicit IdleRetention(double lambda, std::size_t window = 512) : lambda_(lambda), window_(window) {}

    // Learns from the node changes since the previous call (`view` is
    // SiteView::of(state)).  Call once per decision, before release().
    void observe(const ClusterState& state, const SiteView& view, Time now);

    // Idle nodes of the group to power down now, longest idle first, at most
    // `spare` of them (idle nodes that jobs already routed will not take).
    // Only nodes idle in this decision's view are named.
    std::vector<std::string> release(const GroupView& group, NodeInstances& instances, Time now, std::uint32_t spare);

    // V / price: past this a kept node has cost more than a fresh one.
    Seconds horizon(const NodeGroup& group) const;

private:
    enum class Use : std::uint8_t { Down, Idle, Busy };
    // What was seen of the node at the same place in the previous snapshot:
    // one string compare per group node and decision instead of a lookup by
    // name while the order holds (slurmctld and burstsim keep it).  A slot
    // whose name or group no longer matches, or that now holds a node in no
    // group or none, is forgotten, and the node is seen afresh where it now
    // is: a change of order costs what was learned of the nodes' idle times,
    // never names a node that is not idle now.
    struct NodeSeen {
        std::string name;
        int group = -1; // index into ClusterState::groups
        Use use = Use::Down;
    };
    struct Learned {
        std::vector<Time> idle_events;    // unmatched, oldest first
        std::vector<Seconds> gaps;        // ring of the last window_ gaps; +inf = never needed
        std::size_t next = 0;             // ring position
        std::vector<Seconds> sorted;      // gaps, ascending (rebuilt when stale)
        bool stale = true;
        double need_cores = 0;            // Σ cores of nodes entering use with some
        std::uint64_t needs = 0;          // how many entered use with some cores
    };

    double saving(const NodeGroup& group, const Learned& l) const;
    void add_gap(Learned& l, Seconds gap);
    bool keep(const NodeGroup& group, Learned& l, Seconds age, Seconds uptime);
    // Forgets what a slot knew of its node before it holds another.
    void forget(NodeSeen& seen);

    double lambda_;
    std::size_t window_;
    std::vector<NodeSeen> nodes_; // by position in the snapshot
    // When each node idle now went idle, by name: changed only when a node
    // goes idle or leaves idle, read only for the view's idle nodes.  Nodes
    // idle at the first call have none.
    std::unordered_map<std::string, Time> idle_since_;
    bool seeded_ = false;
    Time last_ = 0;
    Seconds step_ = 0; // between the last two decisions
    std::unordered_map<std::string, Learned> groups_;
};

} // namespace burst
