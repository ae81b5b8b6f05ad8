#pragma once
// How long an idle cloud node is worth keeping up, learned per group from
// how soon a node was needed again after one went idle (the last `window`
// such gaps, so the rule follows the workload's rhythm).  Slurm powers an
// idle node down after SuspendTime whatever the workload; this powers it
// down sooner when keeping it is not expected to pay against what a fresh
// node costs (its billed boot, and the boot its cores wait, at λ).  A node
// within its billed period until the next decision is kept (it is paid
// for), and so is one idle longer than any gap seen (SuspendTime decides).
// The rule: doc/policies.md, section "forecast" (idle retention).  Only the
// site's state is read, so burstd and burstsim learn alike.

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
