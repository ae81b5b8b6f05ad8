#pragma once
// The CLOUD nodes of the simulated node groups, as Slurm's power saving and
// burstd's instance manager run them.  A powered-down node is resumed for a
// job allocated to it or hired by a policy; its launch succeeds, fails for
// capacity or is refused (GroupLaunches).  A launched node boots for the
// group's boot time, drawn with the jitter, joins Slurm and starts the jobs
// waiting for it; a spot instance may be taken back, a Poisson process of
// interruptions_per_hour per instance-hour.  An idle node powers down after
// its SuspendTime, unless placeholders keep it warm, and at once when a
// release has it draining.  With ScavengeWarmNodes (SimConfig::scavenger_run)
// scavenger jobs run on the idle nodes the warm pool holds, one cycle after
// it holds them and two cycles apart (burstd's pins), until real work takes
// the node or the pool lets it go.  Instances are billed from launch to power-down,
// at least min_billed, per second or per started hour.
//
// A group's nodes are the ones ever powered up, named and shown from their
// first power-up on, and a count of the rest (SimSnapshot::list_cloud_node),
// so that what a replay costs grows with the nodes it uses, not with the
// group's max_count.  Resuming a powered-down node, Slurm takes the group's
// first in its order: nodes used before first, then the next never used.
//
// The fleet shows its nodes in the snapshot as Slurm does (CLOUD,
// POWERED_DOWN, POWERING_UP, DRAIN, their allocated cores) whenever they
// change, and each decision cycle its instances and recent boots (show()).  Random draws: boot times from the
// run's seed, interruptions from a stream of their own, launch outcomes
// from GroupLaunches', each in the order the nodes are powered up.

#include "model/billed_span.hpp"
#include "model/clock.hpp"
#include "model/cluster_state.hpp"
#include "model/node_boot.hpp"
#include "model/node_group.hpp"
#include "sim/engine/event_queue.hpp"
#include "sim/engine/group_launches.hpp"
#include "sim/engine/sim_config.hpp"
#include "sim/engine/sim_snapshot.hpp"
#include "sim/engine/simulator.hpp"

#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace burst {

enum class Power { Down, Booting, Up };

class CloudFleet {
public:
    static constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();
    // A job's cores on cloud nodes: (node, cores) per node.
    using Allocation = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

    // `site` is the replay's (replay_site); room for the allocations of
    // `jobs` jobs; `origin` is the first submission.  Throws SimConfigError
    // when a node is in more than one group.  Nodes are numbered in the
    // order they are first powered up.
    CloudFleet(const SimConfig& site, std::uint32_t jobs, Time origin, const Clock& clock, EventQueue& events,
               SimSnapshot& snapshot);

    std::uint64_t up_cores() const { return up_cores_; } // powered on (booting or up)
    std::uint32_t up_nodes() const { return up_nodes_; }
    std::uint32_t group_of(std::uint32_t n) const { return nodes_[n].group; }
    const std::string& name(std::uint32_t n) const { return snapshot_.node(nodes_[n].view).name; }

    // Whether an event pushed in a node's life `life` still holds: the node
    // is still booting in it, or still powered on.
    bool booting(std::uint32_t n, std::uint64_t life) const;
    bool powered_on(std::uint32_t n, std::uint64_t life) const;

    // Free cores of the group's nodes that are not draining, powered down
    // or not, never used or not.
    std::uint64_t room(std::uint32_t g) const;
    // Allocates `cpus` cores of group `g` to job `j`, as Slurm does: nodes
    // already up first, then booting ones, then resuming more.  False when
    // the group has no room for them.
    bool allocate(std::uint32_t j, std::uint32_t g, std::uint32_t cpus);
    const Allocation& allocation(std::uint32_t j) const { return jobs_[j].nodes; }
    // How many of the job's nodes are still booting.
    std::uint32_t booting_nodes(std::uint32_t j) const { return jobs_[j].booting; }
    bool holds(std::uint32_t j, std::uint32_t n) const;
    // The job ended or is requeued: its cores are free again, and a node it
    // leaves idle starts its idle period, but for `lost`, which the caller
    // takes down.
    void release(std::uint32_t j, std::uint32_t lost = kNoNode);

    // The node booted and joined Slurm; returns the jobs that were waiting
    // for it and for no other node, in the order they were allocated.
    std::vector<std::uint32_t> node_ready(std::uint32_t n);
    // A launch that failed or was refused: how, and the jobs allocated to
    // the node, which the caller requeues before the node goes down.
    LaunchOutcome launch_outcome(std::uint32_t n) const { return nodes_[n].launch; }
    const std::vector<std::uint32_t>& configuring(std::uint32_t n) const { return nodes_[n].configuring; }
    void launch_failed(std::uint32_t n);
    // The provider took the instance back (its jobs are requeued): burstd
    // powers it down.
    void take_back(std::uint32_t n);
    // SuspendTime has passed since the node went idle in idle period
    // `token`.  `workload_lasts`: some job has not ended yet.
    void suspend_check(std::uint32_t n, std::uint64_t token, bool workload_lasts);

    // The actions on nodes: power up `count` more of the group's nodes
    // (returns how many it had not), drain a node (false: none of that name
    // is powered on), keep `count` of the group's nodes powered on.
    std::uint32_t hire(std::uint32_t g, std::uint32_t count);
    bool drain(const std::string& node);
    // Whether that changed the count kept or powered a node up.
    bool keep_warm(std::uint32_t g, std::uint32_t count);

    // What `core_seconds` of the group's cores cost at its per-core price,
    // charged to a job's account (the rest of the bill is nobody's).
    double charge(std::uint32_t g, double core_seconds) const;
    // The spans billed in some interval that begins at `earliest` or later:
    // every powered-on instance and the ended ones billed past `earliest`.
    std::vector<BilledSpan> billed_spans(Time now, Time earliest);
    // Cloud instances were billed since the last billed_spans().
    bool unbooked_spend() const { return unbooked_spend_; }

    // The instances of the nodes powered on are kept in the snapshot's
    // state (SimSnapshot::state()) as they power up, come up and go down;
    // each decision cycle shows the recent boots there too.
    void show();
    // Between the two, what the decision's actions power up or down is
    // shown only after it: every link of a chain sees the instances the
    // cycle began with, as burstd's ledger shows them (a hired node is
    // powering up in the snapshot, with no instance yet).
    void begin_decision();
    void end_decision();
    // Groups that may not hire freely now -> how many nodes they may.
    std::map<std::string, std::uint32_t> hire_limits(Time now) const { return launches_->hire_limits(now); }
    // Whether a node went down or came up since the last call: the
    // scheduler has a pass to make.
    bool take_changes();
    // Billing, instances, idle time, scavenger work and back-off into
    // `result`; back-off and scavenger work still running are cut at `end`.
    void report(SimResult& result, Time end);

private:
    struct CloudNode {
        std::uint32_t group = 0;
        std::uint32_t cpus = 0;
        Power power = Power::Down;
        std::uint32_t alloc = 0;
        Time launched = 0;
        Time ready = 0;
        bool draining = false;        // ReleaseNodes on a busy node: no new work
        std::uint64_t idle_epoch = 0; // invalidates stale suspend checks
        Time idle_since = -1;         // up with nothing allocated since then (-1: not idle)
        Time scavenging_since = -1;   // idle, held warm, running scavenger work since then
        std::vector<std::uint32_t> configuring; // jobs waiting for this node to boot
        std::uint32_t view = 0;       // index of its view in the snapshot's node list
        std::uint64_t life = 0;       // power-ups so far: an interruption hits one life only
        LaunchOutcome launch = LaunchOutcome::Launched; // of this life's launch
    };
    struct JobNodes {
        Allocation nodes;
        std::uint32_t booting = 0;
    };
    struct ClosedSpan {
        BilledSpan span;
        Time billed_until = 0;
    };

    enum class Shown { PoweredUp, CameUp, WentDown };
    // Shows what happened to node n's instance in the state's instances, or
    // once the decision under way ends.
    void show_change(Shown change, std::uint32_t n);

    // The group's nodes never powered up (NodeGroup::kUnlimited: no end).
    std::uint32_t never_used(std::uint32_t g) const;
    // Lists the group's next node never powered up (never_used(g) > 0);
    // returns its number.
    std::uint32_t list_node(std::uint32_t g);
    void power_up(std::uint32_t n);
    // Closes the idle period of an up node that gets work or powers down.
    void end_idle(std::uint32_t n, bool powering_down);
    void power_down(std::uint32_t n);
    void retire(std::uint32_t n);
    void node_idle(std::uint32_t n);
    // The warm pool holds idle node n from now: scavenger work starts on it.
    void start_scavenging(std::uint32_t n);
    // Scavenger work on node n ends at `at`: runs done, and the one cut
    // short lost.
    void stop_scavenging(std::uint32_t n, Time at);
    std::uint32_t powered_on_in(std::uint32_t g) const;
    Seconds sample_boot(const NodeGroup& g);
    double bill(const NodeGroup& g, Seconds up) const;
    void sync_node(std::uint32_t n);

    const SimConfig& site_;
    const Clock& clock_;
    EventQueue& events_;
    SimSnapshot& snapshot_;
    std::mt19937_64 rng_;
    // Its own stream: adding spot groups leaves every boot time as it was.
    std::mt19937_64 interruption_rng_;
    std::vector<CloudNode> nodes_;
    std::unordered_map<std::string, std::uint32_t> node_by_name_;
    std::vector<std::vector<std::uint32_t>> group_nodes_; // the nodes ever powered up, in the group's order
    std::vector<JobNodes> jobs_;
    // Per group, its last kRecentBoots boots, oldest first (ClusterState::boots).
    std::vector<std::deque<NodeBoot>> boots_;
    std::vector<std::uint32_t> warm_; // KeepPlaceholders per group
    double warm_held_core_seconds_ = 0;
    double scavenger_done_core_seconds_ = 0;
    double scavenger_lost_core_seconds_ = 0;
    std::optional<GroupLaunches> launches_; // from the first submission on
    std::uint64_t up_cores_ = 0;
    std::uint32_t up_nodes_ = 0;
    bool changed_ = false;
    // The nodes whose instances the snapshot's state shows, in the order
    // it shows them (ascending).
    std::vector<std::uint32_t> shown_;
    bool deciding_ = false;
    std::vector<std::pair<Shown, std::uint32_t>> deferred_; // during a decision
    bool boots_changed_ = true; // since show() last showed them

    std::deque<ClosedSpan> closed_spans_; // powered down, in that order (kept with budget lines)
    bool unbooked_spend_ = false;         // cloud instances billed since the last booking
    double closed_cost_ = 0;
    double instance_seconds_ = 0;
    std::uint64_t instances_launched_ = 0;
    double idle_core_seconds_ = 0;
    double idle_before_down_core_seconds_ = 0;
    std::vector<InstanceSpan> instances_;
};

} // namespace burst
