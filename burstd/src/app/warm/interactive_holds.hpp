#pragma once
// Interactive readiness (Spišaková et al.): burstd.conf's Interactive=
// keeps a number of cores of each named partition's local nodes ready for
// interactive jobs (salloc, srun outside an allocation).  Each core is held
// by a one-core hold job of InteractiveHoldQOS at the highest priority, so
// that a hold takes the next core to come free before any batch job; only
// InteractiveQOS, which job_submit/burst gives script-less jobs, may
// preempt it, and Slurm does so when such a job is submitted: it starts on
// the held cores without waiting for batch work to end.  Holds never run
// on node groups' nodes (a hold must not power up a cloud node).
//
// While an interactive job that could start waits in the partition, no
// hold is queued there (it would take the next free core first) and running
// holds are cancelled for its cores should Slurm not have preempted them.
// A hold has the partition's default time limit; one near it is replaced
// ahead of time.  Holds are found in each snapshot by QOS and name, so a
// restart of burstd picks up the ones it left.

#include "app/warm/settling_jobs.hpp"
#include "model/clock.hpp"
#include "model/cluster_state.hpp"
#include "slurm/slurm_actuator.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace burst {

struct InteractiveHoldPlan {
    std::uint32_t submit = 0;  // one-core holds
    std::vector<JobId> cancel; // in the order to cancel
    std::vector<JobId> served; // waiting interactive jobs held cores were (or needed not be) given up for
    std::string why;           // why holds yield now ("" when they keep the reserve)
};

// A partition's reserve as of a snapshot.
struct InteractiveReadiness {
    std::uint32_t held = 0;    // cores running holds hold
    std::uint32_t queued = 0;  // holds waiting for a core
    std::uint32_t waiting = 0; // interactive jobs that could start, waiting
};

// The holds burstd submitted, in `state`, of `partition`, leaving out
// `cancelled` ones and those ending.
std::vector<const Job*> interactive_holds_of(const std::string& partition, const ClusterState& state,
                                             const std::vector<JobId>& cancelled);

InteractiveReadiness interactive_readiness(const std::string& partition, const ClusterState& state,
                                           const std::string& interactive_qos, const std::vector<JobId>& cancelled);

// How long before a running hold reaches its time limit (the partition's
// default) a replacement is queued.
constexpr Seconds kHoldRenewalLead = 120;

// What keeps `reserve` held in `state`, with `in_flight` holds submitted
// that the snapshot does not show yet; holds are given up at most once for
// each waiting interactive job (`served` ones are not again).
InteractiveHoldPlan plan_interactive_holds(const InteractiveReserve& reserve, const ClusterState& state,
                                           const std::string& interactive_qos, std::uint32_t in_flight,
                                           const std::vector<JobId>& cancelled, const std::set<JobId>& served = {});

class InteractiveHolds {
public:
    explicit InteractiveHolds(SlurmActuator& actuator) : actuator_(actuator) {}

    struct Settings {
        std::vector<InteractiveReserve> reserves; // Interactive=
        std::string interactive_qos;              // InteractiveQOS=
        std::string hold_qos;                     // InteractiveHoldQOS=
    };
    // Keeps every reserve of `settings` held, and cancels the holds of
    // partitions it no longer names.  Returns what it did in words, one
    // entry per partition acted on; `errors` receives what failed.
    std::vector<std::string> keep(const Settings& settings, const ClusterState& state, Time now,
                                  std::vector<std::string>& errors);
    bool cancelled(JobId job) const { return settling_.is_cancelled(job); }

private:
    std::string apply(const InteractiveHoldPlan& plan, const std::string& partition, const std::string& hold_qos,
                      const ClusterState& state, Time now, std::string_view reason, std::string& error);

    SlurmActuator& actuator_;
    SettlingJobs settling_;   // owners: partitions
    std::set<JobId> served_;  // waiting interactive jobs holds were given up for
};

} // namespace burst
