#pragma once
// The simulated site's Slurm scheduler: the queue of eligible jobs in
// priority order, the local cores as one pool with EASY backfill, and the
// node-group partitions' queues of the jobs routed there.
//
// The queue is in priority order, as Slurm's: multifactor priorities
// (SimConfig::priority, sim/priority/priority_model.hpp) are recomputed every
// PriorityCalcPeriod; FCFS (priority/basic) fixes a job's priority at
// submission, so a job held by a dependency takes its submission place once
// eligible, the order the snapshot's priorities show the policy.
//
// A pass starts jobs in queue order on the local pool while they fit, or in
// the group they are routed to; the first that can start nowhere gets a
// reservation on the local pool from the expected ends of the running jobs
// (time limits; without a limit the trace runtime is the estimate), and the
// next bf_max_job_test jobs are backfilled if they end before it or fit in
// the cores it leaves spare.  Then the routed jobs start in their groups in
// priority order.  What a start means to the rest of the site the replay
// does (Starts); a pass runs only when something changed since the last
// one (request_pass()).
//
// Interactive jobs (TraceJob::interactive) are ahead of every batch job, as
// job_submit/burst's priority puts them in Slurm.  With Interactive= cores
// (SimConfig::interactive_cores) the pool keeps burstd's holds: one-core jobs
// of the hold QOS that only interactive jobs preempt.  burstd queues them at
// its decision cycle (keep_holds, the rules of app/warm/interactive_holds);
// a queued hold takes the next free core before any batch job, and an
// interactive job that does not fit in the free cores takes held ones at
// once (preemption at submission).

#include "model/clock.hpp"
#include "model/share.hpp"
#include "sim/engine/sim_config.hpp"
#include "sim/engine/sim_jobs.hpp"
#include "sim/priority/priority_model.hpp"

#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <vector>

namespace burst {

class LocalScheduler {
public:
    // What a pass starts, carried out by the replay.
    class Starts {
    public:
        // The job starts on the local pool, whose cores it now holds.
        virtual void started_local(std::uint32_t j) = 0;
        // Starts the job in the group it is routed to; false when the
        // group has no room for it.
        virtual bool start_in_group(std::uint32_t j) = 0;
        // The free cores of the group's nodes that are not draining.
        virtual std::uint64_t group_room(std::uint32_t g) const = 0;

    protected:
        ~Starts() = default;
    };

    // `site_cores` and `site_nodes` (every local and cloud core and node)
    // size the multifactor job-size factor.  Throws std::invalid_argument
    // for shares the multifactor model cannot take.
    LocalScheduler(const SimConfig& site, const SimJobs& jobs, std::uint64_t site_cores, std::uint32_t site_nodes);

    // A job is submitted: its priority as the snapshot shows it.
    std::uint32_t submitted(std::uint32_t j, Time now);
    std::uint32_t priority(std::uint32_t j) const { return priorities_[j]; }

    // Multifactor: the time of the next PriorityCalcPeriod pass (infinity
    // under FCFS, or when the pass would change nothing: the site is idle,
    // `demand` = some job is eligible and unfinished).
    Time next_priority_pass(bool demand) const;
    // The pass grid, moved on to `t` past the passes skipped.
    void skip_priority_passes(Time t);
    bool priority_pass_due(Time t) const { return priority_ && t == next_priority_pass_; }
    // One pass at `now` over the jobs `live` (submitted and unfinished, in
    // the order their usage is charged); a scheduling pass is due after.
    void priority_pass(Time now, const std::vector<std::uint32_t>& live);
    // The job ended or was requeued at `end`: its usage counts.
    void charge_ended(std::uint32_t j, Time end);
    // The associations' shares as the snapshot shows them (multifactor).
    void fill_shares(std::vector<Share>& shares);

    // An eligible job joins the queue at its priority's place.
    void enqueue(std::uint32_t j);
    // Something changed that may let a job start.
    void request_pass() { pass_due_ = true; }
    // A scheduling pass at `now`, if one is due.
    void pass(Time now, Starts& starts);
    std::uint32_t local_free() const { return local_free_; }
    // A job that ran on the local pool ended: its cores are free.
    void end_local(std::uint32_t j);

    // burstd's cycle keeps the Interactive= holds: none queued while an
    // interactive job waits, and the running ones it needs beyond the free
    // cores given up; none queued either while the first batch job in line
    // and the reserve do not fit the pool together, and the running holds
    // beyond the cores it leaves given up to it (holds never starve a wide
    // job); else holds queued up to the reserve.
    void keep_holds(Time now);
    // Cores running holds keep (not free: policies see them busy).
    std::uint32_t held() const { return held_; }
    // Cores × time holds kept, up to `now`.
    double held_core_seconds(Time now) const { return held_core_seconds_ + double(held_) * (now - held_since_); }

    // The group the job is routed to (-1: none).
    int route(std::uint32_t j) const { return routes_[j]; }
    // Routed to `g`: queued in its partition too, at its priority's place.
    void route_to(std::uint32_t j, std::uint32_t g);
    // Out of its group's partition.
    void unroute(std::uint32_t j);
    // Its group may not launch for it: it loses the route (its entry in
    // the partition's queue goes at the next pass).
    void drop_route(std::uint32_t j) { routes_[j] = -1; }
    // A job taken off its nodes in group `g` is pending again, routed there.
    void requeue(std::uint32_t j, std::uint32_t g);

private:
    void use_multifactor(std::uint64_t site_cores, std::uint32_t site_nodes);
    bool queued_before(std::uint32_t a, std::uint32_t b) const;
    void add_routed(std::uint32_t j); // at its place in priority order
    void backfill_pass(Time now, Starts& starts);
    void group_pass(Starts& starts);
    void sweep_queue();
    void start_local(std::uint32_t j, Time now, Starts& starts);
    bool interactive(std::uint32_t j) const { return jobs_[j].trace->interactive; }
    void set_held(std::uint32_t held, Time now);
    // Running holds end (preempted or cancelled): their cores are free.
    void give_up_holds(std::uint32_t cores, Time now);
    // The job and the reserve (or the holds, if more) do not fit the pool
    // together: first in line, it would wait behind the holds for ever.
    bool starved_by_holds(const SimJob& job) const;
    // The running holds burstd gives up to a batch job first in line that
    // the reserve would starve (0 for any other job).
    std::uint32_t yielded_to(const SimJob& job) const;
    // Queued holds take what they can of `free` (the pass's free cores).
    void take_queued_holds(Time now, std::uint32_t& free);
    // The head's reservation: when the local pool will have room for it
    // (`shadow`) and the cores spare then (`extra`).
    void reservation(std::uint32_t j, std::uint32_t free, Time now, Time& shadow, std::uint64_t& extra) const;

    const SimConfig& site_;
    const SimJobs& jobs_;
    std::uint32_t local_free_ = 0;
    std::multimap<Time, std::uint32_t> local_ends_; // expected end → cores
    std::vector<std::multimap<Time, std::uint32_t>::iterator> local_slots_; // per job on the local pool
    std::deque<std::uint32_t> queue_; // pending jobs in priority order; backfilled ones linger
    std::size_t queue_dead_ = 0;      // lingering entries
    std::vector<std::uint32_t> routed_; // routed jobs that may still be pending
    std::vector<int> routes_;           // per job: the group it may also run in
    bool pass_due_ = false;
    std::uint32_t held_ = 0;         // cores of running holds
    std::uint32_t holds_queued_ = 0; // holds burstd queued that have no core yet
    Time held_since_ = 0;
    Time next_cycle_ = 0;            // when keep_holds runs next
    double held_core_seconds_ = 0;   // until held_since_

    std::unique_ptr<MultifactorPriority> priority_; // null for FCFS
    std::vector<std::uint32_t> associations_; // per job: its user association in the multifactor model
    std::vector<std::uint32_t> priorities_;   // per job: multifactor priority, set at submit and each calc pass
    Time next_priority_pass_ = 0;
    std::vector<std::uint64_t> sort_keys_;
};

} // namespace burst
