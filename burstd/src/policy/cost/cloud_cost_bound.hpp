#pragma once
// Upper bounds on what cloud capacity may still cost, for the budget cap: a
// hard cap has to count money already promised, not only money spent.
// Amounts are instance-seconds × the group's price on whole nodes, as
// SpendTracker counts spend (it books an account at most the share of a
// node its job's cores take, so a whole node bounds it).  What a bill
// exceeds a node's uptime by (MinBilled, the rest of a begun hour) is no
// job's: the bounds on capacity no job uses include it.  std::nullopt: no
// bound (a job without a time limit, nodes Slurm never powers down).  A
// boot counts as the group's longest (NodeGroup::boot_bound).
// doc/policies.md, section "Billing bounds and the budget cap".

#include "model/billed_span.hpp"
#include "model/clock.hpp"
#include "model/job.hpp"
#include "model/node_group.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace burst {

// How late a node may power down after its SuspendTime (or its jobs' end):
// Slurm's power-save loop wakes every 10 s, SuspendRate may hold nodes back,
// and the provider's terminate call takes its time.  Late seconds cost
// seconds, but billed by the hour they may begin another hour: the bills
// below allow for that much.
constexpr Seconds kPowerDownLag = 60;

// The longest a boot of a node Slurm resumed can be billed: Slurm gives it up
// at ResumeTimeout and calls ResumeFailProgram (burstctl resume-fail), which
// terminates it within a decision cycle; the provider then takes as long as
// for a power-down.  NodeGroup::longest_boot wherever the boots are real.
inline Seconds slurm_boot_bound(Seconds resume_timeout, Seconds cycle_interval)
{
    return resume_timeout + cycle_interval + kPowerDownLag;
}

// Whole nodes of `group` one task of `job` takes (its node count, CPUs and memory).
std::uint32_t nodes_per_task(const Job& job, const NodeGroup& group);

// A pending job routed to `group`: every task on whole nodes for the
// group's longest boot plus the job's time limit (Slurm starts the limit when
// the nodes are up).
std::optional<double> route_cost_bound(const Job& job, const NodeGroup& group);

// One node of a job running (or configuring) on cloud nodes, until the
// job's time limit; a node still booting adds its group's longest boot.
std::optional<double> running_node_cost_bound(const Job& job, const NodeGroup& group, bool booting, Time now);

// A node up `uptime` (0 for one not hired yet) with no job on it: the rest
// of its boot, then the idle time until Slurm suspends it (SuspendTime;
// std::nullopt = never), billed as the provider bills it, up to
// kPowerDownLag late.
std::optional<double> idle_node_cost_bound(const NodeGroup& group, Seconds uptime, Seconds boot_left,
                                           std::optional<Seconds> suspend_time);

// A node whose instance is being terminated, up `uptime`: billed until the
// provider has it down, should that take kPowerDownLag.
double terminating_node_cost_bound(const NodeGroup& group, Seconds uptime);

// An instance powered down within a billed period: the rest of the period
// from `now` (0 once it has ended).
double billed_after_power_down(const NodeGroup& group, const BilledSpan& span, Time now);

// What SpendTracker books to "" (capacity no job uses) on a node that is not
// idle, from now until it may power down.  The node costs until the last of
// its jobs ends (at its time limit at the latest, plus the boot if it is
// still booting), then SuspendTime idle; each job pays its share of the
// node's cores while it runs.  "" is most when one job runs to its limit and
// the others end at once, leaving their cores idle: the most of that over
// the jobs.  The bill's overrun of the node's uptime (`uptime` now) is added
// at its most for any power-down up to then (and kPowerDownLag).
// std::nullopt: a job without a time limit, or no SuspendTime.
struct BusyNodeBound {
    double unused = 0;   // the bound on ""
    Seconds busy_for = 0; // until the last of its jobs' time limits (and boot), from now
};
std::optional<BusyNodeBound> busy_node_unused_cost_bound(const NodeGroup& group, const std::vector<const Job*>& jobs,
                                                         bool booting, Time now, Seconds uptime,
                                                         std::optional<Seconds> suspend_time);

// A cloud node up or booting with free cores a routed job may land on: how
// many, and how long from now it costs anyway (its jobs' last time limit,
// or the rest of its boot if idle: the idle tail after that is committed
// already).
struct OpenNode {
    std::uint32_t free_cpus = 0;
    Seconds busy_for = 0;
    bool booting = false;
    // How much more of the bill's overrun of its uptime than its bound
    // counts already a job keeping it up longer may add (a node kept past
    // a billed hour starts another).
    Seconds billing_headroom = 0;
};

// The open nodes of one group in the order route_unused_cost_bound reads
// them, kept so as nodes are added rather than sorted for every route.  A
// job extends a node by its time limit (and the boot, if booting) past the
// node's busy_for: among nodes up, and among nodes booting, the least busy
// is extended most.
class OpenNodes {
public:
    // `copies` of `node`.
    void add(const OpenNode& node, std::size_t copies = 1);
    const std::vector<OpenNode>& up() const { return up_; }
    const std::vector<OpenNode>& booting() const { return booting_; }
    // The most billing headroom `nodes` of them have together.
    Seconds billing_headroom(std::size_t nodes) const;

private:
    std::vector<OpenNode> up_, booting_; // each by busy_for, least first
    std::vector<Seconds> headroom_;      // every node's billing_headroom, most first
};

// What a pending job routed to `group` may add to "" where Slurm places its
// cores.  Slurm fills free cores of nodes up or booting first: on those of
// `open` it may keep each node it touches up until its own time limit (at
// worst one core on each of the nodes it extends most), and its cores
// beyond `free_cpus` (what `open` has left) take fresh nodes that boot, run
// its limit and idle SuspendTime; each node it touches may add its billing
// headroom, each fresh node its bill's overrun.  Jobs routed before it may start first
// and take those free cores, so it may as well land on fresh nodes only:
// the larger of the two counts.  It pays its cores' share of every node it
// uses for its limit, which is taken off, but never below the fresh nodes'
// boot and idle tail (a job that ends at once).  std::nullopt: no time
// limit, or no SuspendTime.
std::optional<double> route_unused_cost_bound(const Job& job, const NodeGroup& group, const OpenNodes& open,
                                              std::uint64_t free_cpus, std::optional<Seconds> suspend_time);

// SpendTracker's share of a node a running or routed job pays: its cores
// per node over the node's cores, at most all of it.
double node_share(const Job& job, std::size_t nodes, const NodeGroup& group);

} // namespace burst
