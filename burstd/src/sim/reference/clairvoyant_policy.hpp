#pragma once
// A hindsight router for burstsim, not a deployable policy: it is handed the
// set of jobs to burst (and where) by someone who knows every arrival and
// true runtime (clairvoyant_reference.hpp chooses the set), and acts on it
// with the actions every policy has:
//  - route: each chosen job at the first decision at or after its arrival
//    (or after a given time, to route no earlier than a baseline could);
//  - pre-hire: nodes for a chosen job are hired `lead` before that decision
//    (burst_plan below), so they are up when it is routed instead of booting
//    after it (the boot is paid either way, the wait is not);
//  - release: an idle, up node is powered down at the first decision where
//    no chosen job that is running, pending or due for hiring needs it (and
//    keeping it to the next decision would cost money), instead of idling
//    until SuspendTime.  Where the group's node limit binds, a waiting job
//    needs nodes only from shortly before it has room (it starts on those
//    that running jobs leave).
// A job with parents (a workflow task) becomes eligible at a time only a
// replay tells: it is routed, not hired for ahead, unless it is routed no
// earlier than a given time (hired for ahead of that).

#include "policy/policy.hpp"
#include "sim/engine/sim_config.hpp"
#include "sim/trace/trace.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

using BurstSet = std::unordered_map<JobId, std::string>; // job → group

// The first decision of a replay: burstsim decides at first + k × cycle,
// first being the earliest submit of a job it replays.
Time first_decision(const SimConfig& config, const std::vector<TraceJob>& trace);

// How a job known in advance bursts to one group, and what that costs in
// J(λ).  It is routed at the first decision at or after its arrival
// (route_at); its nodes are hired `lead` = k cycles before (never before the
// first decision), with k minimizing the expected idle node time before
// routing (price × nodes) plus the expected late boot (λ × cores), boots
// being uniform in boot × (1 ± jitter).  cost = price/3600 × node-seconds +
// λ × cores × wait/3600, where wait = route_at − submit + the expected late
// boot and node-seconds = nodes × max(min_billed, boot + the expected idle
// before routing + runtime/speed + the idle until the decision after it
// ends).  With `shared`, a job narrower than a node pays only its cores'
// share of the node's boot and run (other burst jobs use the rest).
struct BurstPlan {
    int group = -1;   // index into SimConfig::groups; -1 when no group can hold it (cost +inf)
    double cost = 0;
    Time route_at = 0;
    Time hire_at = 0; // route_at without pre-hire (a job with parents)
    Seconds wait = 0; // expected
};

// The cheapest group's plan.
BurstPlan burst_plan(const SimConfig& config, const TraceJob& job, double lambda, Time first, bool shared = false);

// The first decision at or after t.
Time decision_after(Time t, Time first, Seconds cycle);

class ClairvoyantPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "clairvoyant";
    // `trace` must outlive the policy; jobs of `route` not in it are routed
    // but not hired for.  A job in `not_before` is routed at the first
    // decision at or after both its arrival and that time.
    ClairvoyantPolicy(const SimConfig& config, const std::vector<TraceJob>& trace, BurstSet route, double lambda,
                      const std::unordered_map<JobId, Time>& not_before = {});
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;

    const BurstSet& route() const { return route_; }

private:
    struct Planned {
        const TraceJob* job;
        std::size_t group;
        Time route_at;
        Time hire_at;
    };
    void hire_and_release(const ClusterState& state, Time now, Decision& d);
    // Index into config_.groups; config_.groups.size() for none.
    std::size_t group_index(const std::string& name) const;

    SimConfig config_;
    std::vector<std::string> partitions_; // per group, its Slurm partition
    BurstSet route_;
    std::unordered_map<JobId, Time> route_at_; // jobs routed later than at arrival
    std::unordered_map<JobId, const TraceJob*> trace_;
    std::vector<Planned> by_hire_; // chosen jobs without parents, by hire_at
    std::size_t next_hire_ = 0;    // by_hire_[next_hire_..] are not yet due
    std::vector<Planned> due_;     // due for hiring, not yet arrived
};

} // namespace burst
