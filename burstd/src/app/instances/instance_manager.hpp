#pragma once
// Turns Slurm's power requests (burstctl resume|suspend|resume-fail) into
// provider calls, with the ledger written before every call so a crash at any
// point is repaired by reconcile():
//   resume:  intent (token) -> provider.launch -> mark_launched -> NodeAddr;
//            the node is marked running once a snapshot shows it up.  A launch
//            that fails is marked failed and the node handed back
//            (SlurmActuator::hand_back_node), so Slurm requeues its job at once
//            instead of waiting for ResumeTimeout, and the node is idle~ again.
//   suspend / resume-fail: terminate intent -> provider.terminate -> terminated.
// Failures become recoveries: a throttled or transient launch is retried with
// the same token after a jittered exponential backoff (RetryBackoff, per
// provider); a capacity error moves on to the group's next placement
// (instance type x zone, PlacementBackoff: type-major, placements short of
// capacity lately last) with a new intent recording type and zone; the final outcome of each node's launch feeds its group's
// circuit breaker (GroupHealthBoard), which refuses launches while the group
// backs off, and which the policy cycle turns into hire limits so the
// expander picks other groups meanwhile.  A node Slurm gives up on after its
// instance launched counts as a boot failure (protected mode after several).
// Batched launches: one resume request becomes as few provider calls as the
// provider's API allows (Provider::launch_batch_limit): its nodes are grouped
// by node group, instance type, zone and market, every node's intent is in the
// ledger before the call that carries it, and each node's result is handled
// as a launch of its own (retries, next placement, breaker, hand-back).
// Nodes of a provider that takes one node per launch() (a limit of 1) are
// launched in parallel, one unit of work each.
// All or nothing per job: the nodes SLURM_RESUME_FILE names for one job are
// launched together, in a call of their own that asks the provider for all or
// none of them where its API can; when one of them still gets no instance,
// the instances of the others are terminated at once, every node goes back
// to Slurm and the job is requeued or held (PartialJobLaunch).
// Provider calls block, so they run on a small worker pool, never on the
// io_context; work for one node is serialized so a suspend never overtakes
// the launch it undoes.

#include "app/instances/group_health_board.hpp"
#include "app/logger.hpp"
#include "app/instances/partial_job_launch.hpp"
#include "app/instances/placement_backoff.hpp"
#include "app/instances/provider_outcomes.hpp"
#include "app/instances/random_source.hpp"
#include "app/instances/retry_backoff.hpp"
#include "app/instances/sleeper.hpp"
#include "ledger/ledger.hpp"
#include "ledger/reconciler.hpp"
#include "model/clock.hpp"
#include "model/node.hpp"
#include "model/node_group.hpp"
#include "provider/provider.hpp"
#include "slurm/slurm_actuator.hpp"

#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace burst {

enum class PowerRequestKind { Resume, Suspend, ResumeFail };

struct InstanceManagerSettings {
    InstanceTags owner;               // cluster + burstd_id; the node is filled per launch
    std::vector<NodeGroup> groups;
    Seconds resume_timeout = 60;      // Slurm's ResumeTimeout
    Seconds launch_grace = 60;        // see ReconcileInput::launch_grace
    std::size_t workers = 4;
    ProviderOutcomes* outcomes = nullptr; // counts for metrics; must outlive the manager
    std::map<std::string, RetrySettings> retry; // by provider name; absent = RetrySettings{}
    PartialJobLaunch partial_job = PartialJobLaunch::Requeue;
    // Injected waits and jitter (tests); null = real sleeps, a seeded generator.
    Sleeper* sleeper = nullptr;
    RandomSource* random = nullptr;
};

class InstanceManager {
public:
    // `providers` maps a Provider= name to its implementation; every group's
    // provider must be in it.  All references must outlive the manager.
    InstanceManager(std::map<std::string, std::unique_ptr<Provider>> providers, Ledger& ledger,
                    SlurmActuator& actuator, const Clock& clock, Logger& log, InstanceManagerSettings settings);
    ~InstanceManager(); // waits for queued work
    InstanceManager(const InstanceManager&) = delete;
    InstanceManager& operator=(const InstanceManager&) = delete;

    // Records that `job` waits for these nodes, as SLURM_RESUME_FILE does for
    // nodes Slurm resumes itself, so a node handed back releases the job.
    void remember_resume_jobs(JobId job, const std::vector<std::string>& nodes);
    // Queues one unit of work per node and returns at once.  `jobs` (from
    // SLURM_RESUME_FILE: job -> nodes resumed for it) are released along with
    // a node handed back before it registered.
    void request(PowerRequestKind kind, const std::vector<std::string>& nodes,
                 const std::map<JobId, std::vector<std::string>>& jobs = {});
    // Scavenger work never costs money: a node Slurm resumes only for jobs
    // of this QOS (ScavengerQOS=; "" = none) gets no instance; it goes back
    // to Slurm at once, its jobs requeued.  `job_qos` asks slurmctld for a
    // job's QOS; it is called by the workers, never on the caller's thread.
    void set_scavenger_qos(const std::string& qos);
    void set_job_qos_lookup(std::function<std::string(JobId)> job_qos);
    // PartialJobLaunch= after a reload.
    void set_partial_job_launch(PartialJobLaunch what) { partial_job_ = what; }
    // Launching records whose node a snapshot shows up become Running.
    void observe_nodes(const std::vector<Node>& nodes);
    // Queues a reconcile of ledger x provider listings x `nodes` unless one is
    // still running.  With `wait`, runs it on the caller's thread instead.
    void reconcile(std::vector<Node> nodes, bool wait = false);
    // Reclaims between reconciliations: when `nodes` show the node of a
    // running instance NOT_RESPONDING, DOWN or FAILed (Slurm lost its slurmd),
    // queues a reconcile that lists only those instances' providers.  Each
    // instance triggers this once, so a node that is merely slow costs one
    // list call, not one per cycle.  True when a reconcile was queued.
    bool reconcile_lost_contact(const std::vector<Node>& nodes);
    // Work queued or running right now (for status).
    std::size_t busy() const { return busy_.load(); }
    // The node groups' circuit breakers (hire limits, status, reset).
    GroupHealthBoard& health() { return health_; }
    const GroupHealthBoard& health() const { return health_; }
    // Instance types and zones short of capacity lately.
    const PlacementBackoff& placements() const { return placements_; }
    Time now() const { return clock_.now(); }

private:
    // One node's launch through its placements (instance type x zone).
    struct NodeLaunch {
        // Withdrawn: never launched, or its instance terminated, because its job cannot get all its nodes.
        enum class Outcome { Pending, Launched, Failed, Withdrawn };
        std::string node;
        const NodeGroup* group = nullptr;
        Provider* provider = nullptr;
        Admission admission;
        std::vector<Placement> places; // to try, in order
        std::size_t place = 0;         // places[place] is the one `record` holds
        bool reused = false;           // `record` is an earlier request's, its token reused
        LedgerRecord record;
        // The multi-node job the node is launched for (0 = none): its nodes
        // are a batch of their own, asked for all or nothing.
        JobId job = 0;
        ProviderError last;
        Outcome outcome = Outcome::Pending;
        bool handed_back = false; // to Slurm, with its jobs
    };
    // Nodes whose launches must share work units: a node group whose
    // provider batches, and every job's nodes.  Each unit runs on one worker.
    std::vector<std::vector<std::string>> resume_units(const std::vector<std::string>& nodes,
                                                       const std::map<JobId, std::vector<std::string>>& jobs) const;
    void resume_unit(const std::vector<std::string>& nodes, const std::map<JobId, std::vector<std::string>>& jobs);
    // The node's intent in the ledger, or nothing when it is not to be
    // launched (no group, scavenger work, its group refusing launches).
    std::optional<NodeLaunch> prepare_launch(const std::string& node);
    // Pending nodes whose reused record already has its instance: known from
    // the record, or, when a crash lost the answer, from the provider's
    // listing by node tag.  A batch is one idempotent request only as a
    // whole (CreateFleet's ClientToken covers all its nodes' tokens), so a
    // node is never sent again in a batch of another composition while its
    // instance may exist.
    void adopt_existing_instances(std::vector<NodeLaunch>& launches);
    // Launches every pending node, batch by batch, until each is launched or failed.
    void launch_all(std::vector<NodeLaunch>& launches);
    // One batch, each node repeated with its same token while its error is retryable.
    std::vector<LaunchResult> launch_with_retries(Provider& p, const std::string& provider_name,
                                                  const std::string& group, const std::vector<LaunchRequest>& requests);
    void record_launched(NodeLaunch& launch, const LaunchResult& launched);
    // Moves to the next placement when the error allows one, else ends the launch as failed.
    void record_launch_error(NodeLaunch& launch, const ProviderError& error);
    // Withdraws every job of `jobs` not in `withdrawn` that lacks a node
    // (not launched, failed, or withdrawn for another job), and adds it there.
    void withdraw_incomplete_jobs(const std::map<JobId, std::vector<std::string>>& jobs,
                                  const std::map<std::string, NodeLaunch*>& by_node, std::set<JobId>& withdrawn);
    // A job with a node that gets no instance: its nodes not launched yet are
    // not launched, its instances are terminated, every node not handed back
    // yet goes back to Slurm, and the job is requeued or held.
    void undo_partial_job(JobId job, const std::vector<NodeLaunch*>& nodes);
    // Locks the nodes' mutexes in the one order every multi-node lock uses.
    std::vector<std::unique_lock<std::mutex>> lock_nodes(const std::vector<std::string>& nodes);
    // Nodes of one provider (locked by the caller): one listing, one terminate call.
    void suspend_nodes(const std::vector<std::string>& nodes, bool after_failure);
    // A suspend request's nodes in the units suspend_nodes takes.
    std::vector<std::vector<std::string>> suspend_units(const std::vector<std::string>& nodes) const;
    // `only` = the providers to list; empty = all.  Records of providers not
    // listed are not judged.
    void reconcile_now(const std::vector<Node>& nodes, const std::set<std::string>& only = {});
    bool queue_reconcile(std::vector<Node> nodes, std::set<std::string> only);
    // Running instances whose node Slurm has lost, not reported before:
    // token -> node.  Marks them reported.
    std::map<std::string, LedgerRecord> newly_lost(const std::vector<Node>& nodes);
    void apply(const RepairAction& action);
    void force_down(const std::string& node, const std::string& reason);
    const NodeGroup* group_of(const std::string& node) const;
    Provider* provider(const std::string& name) const;
    std::mutex& node_mutex(const std::string& node);
    // SLURM_RESUME_FILE's jobs of each of `nodes`, for a hand-back to release.
    void remember_jobs_of(const std::vector<std::string>& nodes, const std::map<JobId, std::vector<std::string>>& jobs);
    // Every job the node was resumed for is scavenger work.
    bool resumed_for_scavengers_only(const std::string& node);
    std::vector<JobId> resume_jobs(const std::string& node, bool forget);

    std::map<std::string, std::unique_ptr<Provider>> providers_;
    Ledger& ledger_;
    SlurmActuator& actuator_; // called from several workers: must be thread-safe (LockedActuator)
    const Clock& clock_;
    Logger& log_;
    InstanceManagerSettings settings_;
    ThreadSleeper thread_sleeper_;
    SeededRandom seeded_random_;
    Sleeper& sleeper_;
    RandomSource& random_;
    GroupHealthBoard health_;
    PlacementBackoff placements_;
    std::mutex node_mutexes_guard_;
    std::map<std::string, std::unique_ptr<std::mutex>> node_mutexes_;
    std::mutex resume_jobs_guard_;
    std::mutex scavenger_guard_; // the two below: set by the io thread, read by workers
    std::string scavenger_qos_;
    std::function<std::string(JobId)> job_qos_;
    std::map<std::string, std::vector<JobId>> resume_jobs_; // until the node registers
    std::atomic<PartialJobLaunch> partial_job_;
    std::atomic<bool> reconciling_{false};
    std::mutex lost_guard_;
    std::set<std::string> lost_reported_; // tokens of open records
    std::atomic<std::size_t> busy_{0};
    boost::asio::thread_pool pool_; // last: joined first, while everything it uses still exists
};

} // namespace burst
