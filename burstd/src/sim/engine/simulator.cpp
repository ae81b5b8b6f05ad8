// The replay's orchestration.  Its parts each keep their own state: the
// jobs and their dependencies (sim_jobs), the timed events (event_queue),
// the snapshot the policies see (sim_snapshot), the CLOUD nodes
// (cloud_fleet), Slurm's queue and backfill (local_scheduler), the spend
// booked against budget lines (budget_booking) and where the decision
// cycle's actions take effect (sim_action_sink).  SimRun runs the clock from
// event to event, moves jobs through the transitions that touch several
// parts (submit, eligible, start, finish, requeue) and hands each decision
// cycle to the shared DecisionCycle.

#include "sim/engine/simulator.hpp"

#include "policy/budget/budget_cap.hpp"
#include "policy/cycle/decision_cycle.hpp"
#include "sim/engine/budget_booking.hpp"
#include "sim/engine/cloud_fleet.hpp"
#include "sim/engine/event_queue.hpp"
#include "sim/engine/group_launches.hpp"
#include "sim/engine/local_scheduler.hpp"
#include "sim/engine/sim_action_sink.hpp"
#include "sim/engine/sim_jobs.hpp"
#include "sim/engine/sim_site.hpp"
#include "sim/engine/sim_snapshot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace burst {
namespace {

constexpr Time kNever = std::numeric_limits<Time>::infinity();
constexpr std::size_t kKeptBudgetNotes = 5;

// The cloud nodes the groups may have, as slurm.conf would define them for
// Slurm's job-size factor: an unlimited group defines none.
std::uint32_t defined_cloud_nodes(const std::vector<NodeGroup>& groups)
{
    std::uint64_t nodes = 0;
    for (const auto& g : groups)
        if (g.capacity() != NodeGroup::kUnlimited)
            nodes += g.capacity();
    return std::uint32_t(std::min<std::uint64_t>(nodes, NodeGroup::kUnlimited));
}

std::uint64_t defined_cloud_cores(const std::vector<NodeGroup>& groups)
{
    std::uint64_t cores = 0;
    for (const auto& g : groups)
        if (g.capacity() != NodeGroup::kUnlimited)
            cores += std::uint64_t(g.capacity()) * g.cpus;
    return cores;
}

// Every local and cloud core (PFA's R): infinite with an unlimited group.
double site_capacity(const SimConfig& site)
{
    for (const auto& g : site.groups)
        if (g.capacity() == NodeGroup::kUnlimited)
            return std::numeric_limits<double>::infinity();
    return double(site.local_cores + defined_cloud_cores(site.groups));
}

class SimRun final : private LocalScheduler::Starts, private JobThreads {
public:
    SimRun(const SimConfig& config, const std::vector<TraceJob>& trace, DecisionCycle& cycle);
    ~SimRun() { cycle_.set_notes_read(notes_read_before_); }
    SimRun(const SimRun&) = delete;
    SimRun& operator=(const SimRun&) = delete;
    SimResult run();

private:
    // One event that is still current.
    void handle(const Event& e);
    // A scheduling pass, if anything changed since the last.
    void schedule();
    void decide();
    // The scheduler's PriorityCalcPeriod pass, and the new priorities in
    // the job views.
    void priority_pass();
    // Books spend up to now (every cycle while there are budget lines) and
    // returns it per interval length for the cap.
    IntervalSpend book_spend();

    // A job's life.
    void submit(std::uint32_t j);
    // Its dependencies met: eligible now, or held until its release.
    void release_or_hold(std::uint32_t j);
    void make_eligible(std::uint32_t j);
    void started_local(std::uint32_t j) override;
    bool start_in_group(std::uint32_t j) override;
    std::uint64_t group_room(std::uint32_t g) const override { return fleet_.room(g); }
    void begin_running(std::uint32_t j, Seconds runtime);
    std::string set_threads(std::uint32_t j, std::uint32_t cpus_per_task) override;
    // A new --threads=auto job takes the thread policy's advice for its
    // category, as job_submit/burst gives it at submission.
    void take_advice(std::uint32_t j);
    void finish(std::uint32_t j);
    void requeue(std::uint32_t j, std::uint32_t lost_node); // lost_node is taken down by the caller

    // What befalls a cloud node and the jobs on it.
    void node_ready(std::uint32_t n);
    void interrupt(std::uint32_t n);
    void launch_failed(std::uint32_t n);
    // What the job's account is charged for `core_seconds` in group `g`.
    void charge(const SimJob& job, std::uint32_t g, double core_seconds);
    // How long a job runs in the group it was allocated in (runtime_in);
    // counts the runs that slower nodes would stretch past its limit.
    Seconds cloud_run(const SimJob& job);

    SimConfig config_;
    DecisionCycle& cycle_;
    bool notes_read_before_ = true; // the cycle's, given back at the end
    ManualClock clock_;
    SimJobs jobs_;
    SimSnapshot snapshot_;
    EventQueue events_;
    CloudFleet fleet_;
    LocalScheduler sched_;
    BudgetBooking booking_;
    SimActionSink sink_;
    std::size_t next_submit_ = 0;
    std::size_t finished_ = 0;
    Time last_end_ = 0;
    std::uint64_t demand_cores_ = 0;  // submitted, not finished

    SuspendTimes suspend_times_;
    SimResult result_;
};

SimRun::SimRun(const SimConfig& config, const std::vector<TraceJob>& trace, DecisionCycle& cycle)
    : config_(replay_site(config)), cycle_(cycle), jobs_(trace, config_.local_cores), snapshot_(config_, jobs_.size()),
      fleet_(config_, jobs_.size(), jobs_.first_submit(), clock_, events_, snapshot_),
      sched_(config_, jobs_, config_.local_cores + defined_cloud_cores(config_.groups),
             snapshot_.local_nodes() + defined_cloud_nodes(config_.groups)),
      booking_(config_.budgets), sink_(config_.groups, jobs_, sched_, fleet_, snapshot_, *this)
{
    result_.jobs_too_wide = jobs_.too_wide();
    result_.runtimes_capped = jobs_.runtimes_capped();
    for (const auto& group : config_.groups)
        result_.group_names.push_back(group.name);
    for (const auto& g : config_.groups)
        suspend_times_[g.name] = std::isinf(suspend_time_of(config_, g))
                                     ? std::nullopt
                                     : std::optional<Seconds>(suspend_time_of(config_, g));
    result_.budget_limits = config_.budgets;
    result_.provisioning.capacity = site_capacity(config_);
    if (ThreadStage* threads = cycle_.threads())
        threads->set_decision_interval(config_.cycle);
    // A replay keeps the budget cap's notes alone.
    notes_read_before_ = cycle_.notes_read();
    cycle_.set_notes_read(false);
}

SimResult SimRun::run()
{
    if (jobs_.empty())
        return std::move(result_);
    result_.first_submit = jobs_.first_submit();
    Time next_decide = result_.first_submit;
    while (true) {
        Time t = events_.next_time();
        if (next_submit_ < jobs_.size())
            t = std::min(t, jobs_[next_submit_].trace->submit);
        const bool deciding = finished_ < jobs_.size();
        // Spend is booked every cycle, past the last job until a booking
        // has seen every instance's billed time end.
        const bool booking = !config_.budgets.empty() && fleet_.unbooked_spend();
        if (deciding || booking)
            t = std::min(t, next_decide);
        // Multifactor priorities are recomputed on their pass grid while
        // a pass may change them.
        if (deciding)
            t = std::min(t, sched_.next_priority_pass(demand_cores_ > 0));
        if (t == kNever)
            break;
        sched_.skip_priority_passes(t);
        clock_.set(t);
        while (const auto e = events_.pop_at(t))
            handle(*e);
        if (deciding && sched_.priority_pass_due(t))
            priority_pass();
        while (next_submit_ < jobs_.size() && jobs_[next_submit_].trace->submit == t)
            submit(std::uint32_t(next_submit_++));
        schedule();
        // Launches that failed in this pass land first: burstd hears of
        // them before its next cycle, and the policy sees the nodes down.
        const bool failing = events_.next_is(t, EventKind::LaunchFailed);
        if ((deciding || booking) && t == next_decide && !failing) {
            if (deciding) {
                decide();
                schedule();
            } else {
                book_spend();
            }
            next_decide = t + config_.cycle;
        }
    }
    result_.booked = booking_.booked();
    result_.held_core_seconds = sched_.held_core_seconds(last_end_);
    fleet_.report(result_, clock_.now());
    sink_.report(result_);
    return std::move(result_);
}

void SimRun::handle(const Event& e)
{
    switch (e.kind) {
    case EventKind::LaunchFailed:
        if (fleet_.booting(e.target, e.token))
            launch_failed(e.target);
        break;
    case EventKind::JobEnd:
        if (jobs_[e.target].run_epoch == e.token && jobs_[e.target].phase == Phase::Running)
            finish(e.target);
        break;
    case EventKind::Interruption:
        if (fleet_.powered_on(e.target, e.token))
            interrupt(e.target);
        break;
    case EventKind::NodeReady:
        // Not a boot of an earlier life, interrupted or released while booting.
        if (fleet_.booting(e.target, e.token))
            node_ready(e.target);
        break;
    case EventKind::Eligible:
        if (jobs_[e.target].phase == Phase::Blocked && jobs_[e.target].waiting_parents == 0)
            make_eligible(e.target);
        break;
    case EventKind::SuspendCheck:
        fleet_.suspend_check(e.target, e.token, finished_ < jobs_.size());
        break;
    }
}

void SimRun::submit(std::uint32_t j)
{
    SimJob& job = jobs_[j];
    take_advice(j);
    snapshot_.add(j, *job.trace, job.cpus, job.cpus_per_task, sched_.submitted(j, clock_.now()));
    const TraceJob& t = *job.trace;
    if (t.release() > clock_.now())
        events_.push(t.release(), EventKind::Eligible, j, 0);
    if (jobs_[j].waiting_parents > 0) {
        jobs_[j].phase = Phase::Blocked;
        std::string dependency;
        for (auto p : t.parents) {
            const std::uint32_t parent = jobs_.find(p);
            if (parent != SimJobs::kNone && jobs_[parent].phase != Phase::Done)
                dependency += (dependency.empty() ? "afterany:" : ":") + std::to_string(p);
        }
        snapshot_.blocked(j, std::move(dependency));
        return;
    }
    release_or_hold(j);
}

void SimRun::release_or_hold(std::uint32_t j)
{
    if (jobs_[j].trace->release() <= clock_.now()) {
        make_eligible(j);
        return;
    }
    // Pending as Slurm shows a job with a begin time ahead or held (its
    // Eligible event releases it).
    jobs_[j].phase = Phase::Blocked;
    snapshot_.held(j);
}

void SimRun::make_eligible(std::uint32_t j)
{
    SimJob& job = jobs_[j];
    job.phase = Phase::Pending;
    job.eligible = clock_.now();
    demand_cores_ += job.cpus;
    sched_.enqueue(j);
    snapshot_.eligible(j, job.eligible);
    sched_.request_pass();
}

void SimRun::priority_pass()
{
    sched_.priority_pass(clock_.now(), snapshot_.shown());
    for (std::uint32_t j : snapshot_.shown())
        if (jobs_[j].phase == Phase::Pending || jobs_[j].phase == Phase::Blocked)
            snapshot_.job(j).priority = sched_.priority(j);
}

void SimRun::schedule()
{
    if (fleet_.take_changes())
        sched_.request_pass();
    sched_.pass(clock_.now(), *this);
}

void SimRun::started_local(std::uint32_t j)
{
    SimJob& job = jobs_[j];
    job.group = -1;
    begin_running(j, job.runtime);
    snapshot_.local_only(j);
}

void SimRun::begin_running(std::uint32_t j, Seconds runtime)
{
    SimJob& job = jobs_[j];
    const Time now = clock_.now();
    job.phase = Phase::Running;
    job.start = now;
    events_.push(now + runtime, EventKind::JobEnd, j, job.run_epoch);
    snapshot_.running(j, now);
}

bool SimRun::start_in_group(std::uint32_t j)
{
    SimJob& job = jobs_[j];
    const auto g = std::uint32_t(sched_.route(j));
    if (!fleet_.allocate(j, g, job.cpus))
        return false;
    job.group = int(g);
    std::vector<std::string> names;
    for (const auto& [n, cores] : fleet_.allocation(j))
        names.push_back(fleet_.name(n));
    snapshot_.allocated(j, g, std::move(names));
    if (fleet_.booting_nodes(j) == 0) {
        begin_running(j, cloud_run(job));
    } else {
        job.phase = Phase::Configuring;
        snapshot_.configuring(j, clock_.now());
    }
    return true;
}

Seconds SimRun::cloud_run(const SimJob& job)
{
    // The job's own runtime: another thread count may have changed it.
    const NodeGroup& group = config_.groups[std::size_t(job.group)];
    const Seconds limit = job.trace->time_limit;
    const Seconds run = job.runtime / group.speed;
    if (limit > 0 && run > limit) {
        ++result_.cloud_runs_cut;
        return limit;
    }
    return run;
}

void SimRun::take_advice(std::uint32_t j)
{
    const SimJob& job = jobs_[j];
    const ThreadStage* stage = cycle_.threads();
    if (!stage || !job.trace->scaling || !job.trace->scaling->automatic)
        return;
    const auto it = stage->advice().find(job.trace->category.text());
    if (it != stage->advice().end() && it->second != job.cpus_per_task && set_threads(j, it->second).empty())
        ++result_.threads_advised;
}

// Slurm's job update of CPUs per task and CPUs together, for a job not
// started yet; its run time follows the category's T(t).
std::string SimRun::set_threads(std::uint32_t j, std::uint32_t cpus_per_task)
{
    SimJob& job = jobs_[j];
    const TraceJob& trace = *job.trace;
    if (!trace.scaling || !trace.scaling->automatic)
        return "job did not ask for --threads=auto";
    if (job.phase != Phase::Future && job.phase != Phase::Pending && job.phase != Phase::Blocked)
        return "job is not pending";
    if (cpus_per_task == 0)
        return "a job runs with one CPU per task at least";
    const std::uint64_t tasks = job.cpus / job.cpus_per_task;
    const std::uint64_t cpus = tasks * cpus_per_task;
    if (cpus > config_.local_cores)
        return "job would be wider than the site's local cores";
    if (job.phase == Phase::Pending) { // eligible: its cores count as demand
        demand_cores_ += cpus;
        demand_cores_ -= job.cpus;
    }
    job.cpus = std::uint32_t(cpus);
    job.cpus_per_task = cpus_per_task;
    job.runtime = std::max<Seconds>(0, trace.runtime) * trace.scaling->stretch(cpus_per_task);
    if (trace.time_limit > 0)
        job.runtime = std::min(job.runtime, trace.time_limit);
    job.estimate = trace.time_limit > 0 ? trace.time_limit : job.runtime;
    if (job.phase != Phase::Future)
        snapshot_.rethreaded(j, job.cpus, cpus_per_task);
    sched_.request_pass();
    return "";
}

// The provider takes the instance back: every job on it is requeued (its
// progress lost, like Slurm requeueing a job whose node failed) and the node
// is retired; burstd powers it down and the policy hires anew.
void SimRun::interrupt(std::uint32_t n)
{
    ++result_.interruptions;
    std::vector<std::uint32_t> hit;
    for (std::uint32_t j : snapshot_.shown()) {
        const SimJob& job = jobs_[j];
        if ((job.phase == Phase::Running || job.phase == Phase::Configuring) &&
            job.group == int(fleet_.group_of(n)) && fleet_.holds(j, n))
            hit.push_back(j);
    }
    for (std::uint32_t j : hit)
        requeue(j, n);
    result_.requeued_jobs += hit.size();
    fleet_.take_back(n);
}

// burstd sets a node whose launch failed or was refused DOWN and Slurm
// requeues the jobs allocated to it.  After a capacity failure a job keeps
// its route and Slurm resumes another node of the group for it (the next
// launch may fail too, until the breaker opens); after a refusal it loses
// the route, as burstd's policy cycle unroutes jobs from a group that may
// not launch, so it may start locally or be routed elsewhere.  A launch that
// never started costs nothing.
void SimRun::launch_failed(std::uint32_t n)
{
    const std::vector<std::uint32_t> hit = fleet_.configuring(n);
    for (std::uint32_t j : hit) {
        requeue(j, n);
        if (fleet_.launch_outcome(n) == LaunchOutcome::Refused) {
            sched_.drop_route(j);
            snapshot_.local_only(j);
        }
    }
    result_.launch_requeues += hit.size();
    fleet_.launch_failed(n);
}

void SimRun::requeue(std::uint32_t j, std::uint32_t lost_node)
{
    SimJob& job = jobs_[j];
    const Time now = clock_.now();
    const std::uint32_t taken_from = std::uint32_t(job.group);
    if (job.phase == Phase::Running) {
        sched_.charge_ended(j, now);
        const double lost = double(job.cpus) * (now - job.start);
        result_.lost_core_seconds += lost;
        // The account used those cores, even if the work is lost.
        charge(job, taken_from, lost);
    }
    ++job.run_epoch;
    fleet_.release(j, lost_node);
    job.group = -1;
    job.phase = Phase::Pending;
    sched_.requeue(j, taken_from);
    snapshot_.requeued(j, taken_from);
    sched_.request_pass();
}

void SimRun::node_ready(std::uint32_t n)
{
    for (std::uint32_t j : fleet_.node_ready(n))
        begin_running(j, cloud_run(jobs_[j]));
}

void SimRun::finish(std::uint32_t j)
{
    SimJob& job = jobs_[j];
    const Time now = clock_.now();
    job.phase = Phase::Done;
    ++finished_;
    last_end_ = now;
    demand_cores_ -= job.cpus;
    JobEnd end;
    end.id = job.trace->id;
    end.category = job.trace->category;
    end.account = job.trace->account;
    end.cpus = job.cpus;
    end.cpus_per_task = job.cpus_per_task;
    end.size = job.trace->scaling ? job.trace->scaling->size : 0;
    end.elapsed = now - job.start;
    end.end_time = now;
    end.eligible_time = job.eligible;
    end.start_time = job.start;
    sched_.charge_ended(j, now);
    if (job.group < 0) {
        sched_.end_local(j);
    } else {
        charge(job, std::uint32_t(job.group), double(job.cpus) * end.elapsed);
        end.node_group = config_.groups[std::size_t(job.group)].name;
        end.nodes = snapshot_.job(j).nodes;
        fleet_.release(j);
    }
    result_.jobs.push_back(JobOutcome{job.trace->id, job.trace->account, job.cpus, job.trace->submit, job.eligible,
                                      job.start, now, job.group, job.trace->interactive});
    snapshot_.remove(j);
    for (auto c : job.children)
        if (--jobs_[c].waiting_parents == 0 && jobs_[c].phase == Phase::Blocked)
            release_or_hold(c);
    booking_.job_ended(end);
    cycle_.observe(end);
    sched_.request_pass();
}

void SimRun::charge(const SimJob& job, std::uint32_t g, double core_seconds)
{
    const double cost = fleet_.charge(g, core_seconds);
    result_.account_cost[job.trace->account] += cost;
}

void SimRun::decide()
{
    const Time now = clock_.now();
    ClusterState& state = snapshot_.begin_cycle(now, config_.local_cores - sched_.local_free(), config_.groups);
    fleet_.show();
    sched_.fill_shares(state.snapshot.shares);

    result_.provisioning.add(double(demand_cores_), double(config_.local_cores + fleet_.up_cores()));

    if (config_.record_timeline)
        result_.timeline.push_back(TimelineSample{now, demand_cores_, config_.local_cores + fleet_.up_cores(),
                                                  fleet_.up_nodes()});

    state.hire_limits = fleet_.hire_limits(now);
    // The cap sees the spend booked so far, as burstd's does.
    std::optional<CycleBudget> budget;
    if (!config_.budgets.empty()) {
        IntervalSpend spent = book_spend();
        if (config_.enforce_budgets)
            budget = CycleBudget{config_.budgets, suspend_times_, std::move(spent)};
    }
    fleet_.begin_decision();
    CycleOutcome outcome = cycle_.run(state, clock_, budget ? &*budget : nullptr, sink_);
    fleet_.end_decision();
    // After the chain, as burstd's PolicyCycle keeps them.
    sched_.keep_holds(now);
    ++result_.decisions;
    for (auto& note : outcome.notes) {
        if (!note.budget)
            continue;
        ++result_.budget_notes;
        if (result_.first_budget_notes.size() < kKeptBudgetNotes)
            result_.first_budget_notes.push_back(
                "at " + std::to_string(std::llround(now - result_.first_submit)) + " s: " + note.text);
    }
    for (const auto& [kind, dropped] : outcome.over_budget)
        result_.over_budget[kind] += dropped;
}

IntervalSpend SimRun::book_spend()
{
    const Time now = clock_.now();
    const std::vector<BilledSpan> spans = fleet_.billed_spans(now, booking_.earliest_interval_start(now));
    return booking_.book(now, spans, snapshot_.state().snapshot.jobs, snapshot_.state().groups);
}

} // namespace

SimResult simulate(const SimConfig& config, const std::vector<TraceJob>& trace, DecisionCycle& cycle)
{
    return SimRun(config, trace, cycle).run();
}

namespace {

// One policy as a chain of one, still owned by the caller.
class BorrowedPolicy final : public Policy {
public:
    explicit BorrowedPolicy(Policy& policy) : policy_(policy) {}
    std::string_view name() const override { return policy_.name(); }
    Decision decide(const ClusterState& state, const Clock& clock) override { return policy_.decide(state, clock); }
    void observe(const JobEnd& end) override { policy_.observe(end); }
    bool wants_decision(const SiteActivity& activity) const override { return policy_.wants_decision(activity); }
    void set_notes_read(bool read) override { policy_.set_notes_read(read); }

private:
    Policy& policy_;
};

} // namespace

SimResult simulate(const SimConfig& config, const std::vector<TraceJob>& trace, Policy& policy)
{
    PolicyChain chain;
    chain.push_back(std::make_unique<BorrowedPolicy>(policy));
    DecisionCycle cycle(std::move(chain));
    return simulate(config, trace, cycle);
}

} // namespace burst
