#include "sim/engine/simulator.hpp"

#include "policy/cost/billing_boundary.hpp"
#include "policy/budget/budget_spend.hpp"
#include "policy/cycle/decision_cycle.hpp"
#include "policy/site/site_view.hpp"
#include "sim/engine/event_queue.hpp"
#include "sim/engine/group_launches.hpp"
#include "sim/engine/sim_jobs.hpp"
#include "sim/engine/sim_snapshot.hpp"
#include "sim/priority/priority_model.hpp"
#include "sim/unit_draw.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <random>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace burst {
namespace {

constexpr std::uint32_t kNone = SimJobs::kNone;
constexpr Time kNever = std::numeric_limits<Time>::infinity();
constexpr std::size_t kKeptBudgetNotes = 5;

enum class Power { Down, Booting, Up };

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
    std::vector<std::uint32_t> configuring; // jobs waiting for this node to boot
    std::uint32_t view = 0;       // index of its view in the snapshot's node list
    std::uint64_t life = 0;       // power-ups so far: an interruption hits one life only
    LaunchOutcome launch = LaunchOutcome::Launched; // of this life's launch
};

void validate(const SimConfig& c)
{
    if (c.local_cores == 0)
        throw SimConfigError("local cores must be at least 1");
    if (c.local_node_cores == 0)
        throw SimConfigError("local node cores must be at least 1");
    if (!(c.cycle > 0))
        throw SimConfigError("decision cycle must be > 0 s");
    if (!(c.suspend_time >= 0))
        throw SimConfigError("suspend time must be >= 0 s");
    for (const auto& [group, suspend] : c.group_suspend_time)
        if (!(suspend >= 0))
            throw SimConfigError("node group " + group + ": suspend time must be >= 0 s");
    if (!(c.boot_jitter >= 0 && c.boot_jitter < 1))
        throw SimConfigError("boot jitter must be in [0, 1)");
    for (const auto& [group, jitter] : c.group_boot_jitter)
        if (!(jitter >= 0 && jitter < 1))
            throw SimConfigError("node group " + group + ": boot jitter must be in [0, 1)");
    if (c.bf_max_job_test == 0)
        throw SimConfigError("bf_max_job_test must be at least 1");
    std::set<std::string> names;
    for (const auto& g : c.groups) {
        if (g.name.empty() || !names.insert(g.name).second)
            throw SimConfigError("node group names must be non-empty and unique ('" + g.name + "')");
        if (g.cpus == 0)
            throw SimConfigError("node group " + g.name + ": cpus must be at least 1");
        if (g.nodes.empty() && g.max_count == 0)
            throw SimConfigError("node group " + g.name + ": needs node names or max > 0");
        if (!(g.price_per_hour >= 0) || !(g.boot_time >= 0) || !(g.min_billed >= 0) || !(g.speed > 0))
            throw SimConfigError("node group " + g.name + ": price, boot time and min billed must be >= 0, speed > 0");
        if (!(g.interruptions_per_hour >= 0) || !std::isfinite(g.interruptions_per_hour) ||
            (g.interruptions_per_hour > 0 && !g.spot))
            throw SimConfigError("node group " + g.name + ": interruptions need a spot group and a rate >= 0");
    }
    for (const auto& [name, shortage] : c.shortages) {
        if (!names.count(name))
            throw SimConfigError("capacity shortage for node group " + name + ", which is not configured");
        if (!(shortage.rate >= 0 && shortage.rate <= 1))
            throw SimConfigError("node group " + name + ": stock-out rate must be in [0, 1]");
    }
    std::set<std::string> accounts;
    for (const auto& b : c.budgets) {
        if (b.account.empty() || !accounts.insert(b.account).second)
            throw SimConfigError("budget accounts must be non-empty and have one line each ('" + b.account + "')");
        if (!(b.amount >= 0) || !std::isfinite(b.amount) || !(b.interval > 0) || !std::isfinite(b.interval))
            throw SimConfigError("budget of " + b.account + ": amount must be >= 0 and interval > 0 s");
    }
}

class SimRun {
public:
    SimRun(const SimConfig& config, const std::vector<TraceJob>& trace, DecisionCycle& cycle);
    SimResult run();

private:
    // Trace and time.
    void submit(std::uint32_t j);
    void make_eligible(std::uint32_t j);
    // Its dependencies met: eligible now, or held until its release.
    void release_or_hold(std::uint32_t j);
    // One event that is still current.
    void handle(const Event& e);
    void schedule();
    void decide();

    // The queue is in priority order, as Slurm's: multifactor priorities are
    // recomputed every PriorityCalcPeriod; FCFS (priority/basic) fixes a
    // job's priority at submission, so a job held by a dependency takes its
    // submission place once eligible, the order the snapshot's priorities
    // show the policy.
    bool queued_before(std::uint32_t a, std::uint32_t b) const;
    void enqueue(std::uint32_t j); // at its place in priority order
    void add_routed(std::uint32_t j); // at its place in priority order
    void start_multifactor();

    void priority_pass();
    // Applies the decision cycle's actions as burstd's actuator plus Slurm would.
    class Sink;
    std::string apply(const Action& action);
    // Books spend up to now (every cycle while there are budget lines) and
    // returns it per interval length for the cap.
    IntervalSpend book_spend();

    // Local pool.
    void start_local(std::uint32_t j);
    void reservation(const SimJob& head, std::uint32_t free, Time& shadow, std::uint64_t& extra) const;

    // Cloud nodes.
    std::uint64_t group_room(std::uint32_t g) const;
    bool start_cloud(std::uint32_t j);
    void power_up(std::uint32_t n);
    // Closes the idle period of an up node that gets work or powers down.
    void end_idle(std::uint32_t n, bool powering_down);
    void power_down(std::uint32_t n);
    void node_ready(std::uint32_t n);
    void node_idle(std::uint32_t n);
    void begin_running(std::uint32_t j, Seconds runtime);
    void finish(std::uint32_t j);
    void interrupt(std::uint32_t n);
    void launch_failed(std::uint32_t n);
    void retire(std::uint32_t n);
    void requeue(std::uint32_t j, std::uint32_t lost_node); // lost_node is retired by the caller
    Seconds sample_boot(const NodeGroup& g);
    // How long a job runs in the group it was allocated in (runtime_in);
    // counts the runs that slower nodes would stretch past its limit.
    Seconds cloud_run(const SimJob& job);
    double bill(const NodeGroup& g, Seconds up) const;

    // Node views.
    void sync_node(std::uint32_t n);

    SimConfig config_;
    DecisionCycle& cycle_;
    ManualClock clock_;
    std::mt19937_64 rng_;
    // Its own stream: adding spot groups leaves every boot time as it was.
    std::mt19937_64 interruption_rng_;
    SimJobs jobs_;
    SimSnapshot snapshot_;
    EventQueue events_;
    std::size_t next_submit_ = 0;
    std::size_t finished_ = 0;
    bool dirty_ = false;
    std::uint64_t demand_cores_ = 0;  // submitted, not finished
    std::uint64_t cloud_up_cores_ = 0; // powered on (booting or up)
    std::uint32_t cloud_up_nodes_ = 0;

    std::uint32_t local_free_ = 0;
    std::multimap<Time, std::uint32_t> local_ends_; // expected end → cores
    std::deque<std::uint32_t> queue_; // pending jobs in priority order; backfilled ones linger
    std::size_t queue_dead_ = 0;      // lingering entries
    std::vector<std::uint32_t> routed_;              // routed jobs that may still be pending

    std::vector<CloudNode> nodes_;
    std::unordered_map<std::string, std::uint32_t> node_by_name_;
    std::vector<std::vector<std::uint32_t>> group_nodes_;
    // Per group, its last kRecentBoots boots, oldest first (ClusterState::boots).
    std::vector<std::deque<NodeBoot>> boots_;
    std::vector<std::uint32_t> warm_; // KeepPlaceholders per group
    std::optional<GroupLaunches> launches_; // from the first submission on

    std::unique_ptr<MultifactorPriority> priority_; // null for FCFS
    Time next_priority_pass_ = 0;
    std::vector<std::uint64_t> sort_keys_;

    SuspendTimes suspend_times_;
    BudgetSpend budget_spend_;
    std::deque<BilledSpan> closed_spans_;        // powered down, in that order
    std::map<Seconds, SpendView> open_booking_;  // interval length -> its current interval
    bool unbooked_spend_ = false;                // cloud instances billed since the last booking
    double closed_cost_ = 0;
    double attributed_cost_ = 0;
    SimResult result_;
};

// The site as the replay runs it: checked, and every group with its nodes
// named (max_count nodes "<group>-<i>" when it names none) and a provider.
SimConfig site_of(const SimConfig& config)
{
    validate(config);
    SimConfig site = config;
    for (NodeGroup& group : site.groups) {
        const std::uint32_t count = simulated_node_count(group);
        if (group.nodes.empty())
            for (std::uint32_t i = 0; i < count; ++i)
                group.nodes.push_back(group.name + "-" + std::to_string(i + 1));
        if (group.provider.empty())
            group.provider = "sim";
        group.nodes.resize(count);
    }
    return site;
}

SimRun::SimRun(const SimConfig& config, const std::vector<TraceJob>& trace, DecisionCycle& cycle)
    : config_(site_of(config)), cycle_(cycle), rng_(config.seed), interruption_rng_(config.seed ^ 0x5eed5907ULL),
      jobs_(trace, config_.local_cores), snapshot_(config_, jobs_.size())
{
    result_.jobs_too_wide = jobs_.too_wide();
    result_.runtimes_capped = jobs_.runtimes_capped();
    local_free_ = config_.local_cores;

    group_nodes_.resize(config_.groups.size());
    boots_.resize(config_.groups.size());
    warm_.assign(config_.groups.size(), 0);
    for (std::size_t g = 0; g < config_.groups.size(); ++g) {
        const NodeGroup& group = config_.groups[g];
        for (const auto& name : group.nodes) {
            if (node_by_name_.count(name))
                throw SimConfigError("node " + name + " is in more than one node group");
            CloudNode cn;
            cn.group = std::uint32_t(g);
            cn.cpus = group.cpus;
            cn.view = snapshot_.local_nodes() + std::uint32_t(nodes_.size());
            node_by_name_.emplace(name, std::uint32_t(nodes_.size()));
            group_nodes_[g].push_back(std::uint32_t(nodes_.size()));
            nodes_.push_back(std::move(cn));
            sync_node(std::uint32_t(nodes_.size() - 1));
        }
        result_.group_names.push_back(group.name);
    }
    launches_.emplace(config_.groups, config_.shortages, config_.seed, jobs_.first_submit());
    for (const auto& g : config_.groups)
        suspend_times_[g.name] = std::isinf(suspend_time_of(config_, g))
                                     ? std::nullopt
                                     : std::optional<Seconds>(suspend_time_of(config_, g));
    result_.budget_limits = config_.budgets;
    result_.provisioning.capacity = config_.local_cores;
    for (const auto& node : nodes_)
        result_.provisioning.capacity += node.cpus;
    if (config_.priority.type == PriorityType::Multifactor)
        start_multifactor();
}

// Every (account, user) of the trace gets a user association under its
// account; the job-size factor counts every local and cloud core and node.
void SimRun::start_multifactor()
{
    // Traces have few associations and many jobs: each distinct pair is
    // looked up once.
    std::map<std::pair<std::string_view, std::string_view>, std::uint32_t> index;
    for (const auto& j : jobs_)
        index.emplace(std::make_pair(std::string_view(j.trace->account), std::string_view(j.trace->user)), 0);
    std::vector<std::pair<std::string, std::string>> users; // the model sorts them
    for (const auto& [key, a] : index)
        users.emplace_back(key.first, key.second);
    priority_ = std::make_unique<MultifactorPriority>(config_.priority, users,
                                                      std::uint64_t(result_.provisioning.capacity),
                                                      snapshot_.local_nodes() + std::uint32_t(nodes_.size()));
    for (auto& [key, a] : index)
        a = priority_->association(std::string(key.first), std::string(key.second));
    for (auto& j : jobs_)
        j.association = index.at({j.trace->account, j.trace->user});
}

SimResult SimRun::run()
{
    if (jobs_.empty())
        return std::move(result_);
    result_.first_submit = jobs_.first_submit();
    Time next_decide = result_.first_submit;
    next_priority_pass_ = result_.first_submit;
    while (true) {
        Time t = events_.next_time();
        if (next_submit_ < jobs_.size())
            t = std::min(t, jobs_[next_submit_].trace->submit);
        const bool deciding = finished_ < jobs_.size();
        // Spend is booked every cycle, past the last job until a booking
        // has seen every instance's billed time end.
        const bool booking = !config_.budgets.empty() && unbooked_spend_;
        if (deciding || booking)
            t = std::min(t, next_decide);
        // Passes over an idle site (nothing eligible, no usage since the last
        // pass) only decay every account alike, which leaves the factors as
        // they are: they are skipped, and the pass grid resumes after.
        if (priority_ && deciding && (demand_cores_ > 0 || priority_->usage_since_pass()))
            t = std::min(t, next_priority_pass_);
        if (t == kNever)
            break;
        if (priority_ && t > next_priority_pass_) {
            const Seconds period = config_.priority.calc_period;
            next_priority_pass_ += std::ceil((t - next_priority_pass_) / period) * period;
        }
        clock_.set(t);
        while (const auto e = events_.pop_at(t))
            handle(*e);
        if (priority_ && deciding && t == next_priority_pass_) {
            priority_pass();
            next_priority_pass_ = t + config_.priority.calc_period;
        }
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
    for (auto& [interval, view] : open_booking_)
        result_.booked.push_back(BookedInterval{interval, view.interval_start, std::move(view.accounts)});
    std::stable_sort(result_.booked.begin(), result_.booked.end(),
                     [](const BookedInterval& a, const BookedInterval& b) { return a.interval < b.interval; });
    result_.cloud_cost = closed_cost_;
    result_.group_backoff = launches_->backoff(clock_.now());
    for (auto& j : jobs_)
        j.cloud_alloc.clear();
    return std::move(result_);
}

void SimRun::handle(const Event& e)
{
    const Time t = e.time;
    switch (e.kind) {
    case EventKind::LaunchFailed:
        if (nodes_[e.target].life == e.token && nodes_[e.target].power == Power::Booting)
            launch_failed(e.target);
        break;
    case EventKind::JobEnd:
        if (jobs_[e.target].run_epoch == e.token && jobs_[e.target].phase == Phase::Running)
            finish(e.target);
        break;
    case EventKind::Interruption:
        if (nodes_[e.target].life == e.token && nodes_[e.target].power != Power::Down)
            interrupt(e.target);
        break;
    case EventKind::NodeReady:
        // Not a boot of an earlier life, interrupted or released while booting.
        if (nodes_[e.target].life == e.token && nodes_[e.target].power == Power::Booting)
            node_ready(e.target);
        break;
    case EventKind::Eligible:
        if (jobs_[e.target].phase == Phase::Blocked && jobs_[e.target].waiting_parents == 0)
            make_eligible(e.target);
        break;
    case EventKind::SuspendCheck: {
        CloudNode& n = nodes_[e.target];
        if (n.power != Power::Up || n.alloc != 0 || n.idle_epoch != e.token)
            break;
        std::uint32_t in_use = 0;
        for (auto m : group_nodes_[n.group])
            in_use += nodes_[m].power != Power::Down;
        // A placeholder holds the node warm while the workload lasts.
        if (finished_ < jobs_.size() && in_use <= warm_[n.group])
            events_.push(t + std::max<Seconds>(suspend_time_of(config_, config_.groups[n.group]), 1),
                         EventKind::SuspendCheck, e.target, e.token);
        else
            power_down(e.target);
        break;
    }
    }
}

void SimRun::submit(std::uint32_t j)
{
    SimJob& job = jobs_[j];
    // Jobs are replayed in submit order, so FCFS is "earlier is higher".
    std::uint32_t priority = std::numeric_limits<std::uint32_t>::max() - j;
    if (priority_) {
        job.priority = priority_->priority(clock_.now(), clock_.now(), job.association, job.cpus);
        priority = job.priority;
    }
    snapshot_.add(j, *job.trace, job.cpus, priority);
    const TraceJob& t = *job.trace;
    if (t.release() > clock_.now())
        events_.push(t.release(), EventKind::Eligible, j, 0);
    if (jobs_[j].waiting_parents > 0) {
        jobs_[j].phase = Phase::Blocked;
        std::string dependency;
        for (auto p : t.parents) {
            const std::uint32_t parent = jobs_.find(p);
            if (parent != kNone && jobs_[parent].phase != Phase::Done)
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
    enqueue(j);
    snapshot_.eligible(j, job.eligible);
    dirty_ = true;
}

bool SimRun::queued_before(std::uint32_t a, std::uint32_t b) const
{
    // Slurm sorts by priority, then submit time; jobs_ is in submit order
    // (under FCFS every priority here is 0: submission decides).
    if (jobs_[a].priority != jobs_[b].priority)
        return jobs_[a].priority > jobs_[b].priority;
    return a < b;
}

void SimRun::add_routed(std::uint32_t j)
{
    // Slurm schedules a partition's jobs by priority, which routing leaves
    // as it was: under FCFS (priority/basic) by submission, so a job routed
    // late still goes ahead of later-submitted ones routed before it.
    routed_.insert(std::upper_bound(routed_.begin(), routed_.end(), j,
                                    [&](std::uint32_t a, std::uint32_t b) { return queued_before(a, b); }),
                   j);
}

void SimRun::enqueue(std::uint32_t j)
{
    // Started jobs lingering in the queue keep their place: the queue stays
    // sorted between passes.
    queue_.insert(std::upper_bound(queue_.begin(), queue_.end(), j,
                                   [&](std::uint32_t a, std::uint32_t b) { return queued_before(a, b); }),
                  j);
}

// One PriorityCalcPeriod pass of Slurm's decay thread: decay and the running
// jobs' new usage (classic takes its factors before, Fair Tree after them),
// new priorities for pending jobs (and blocked ones, which accrue no age
// yet), then the queue in the new order.
void SimRun::priority_pass()
{
    const Time now = clock_.now();
    priority_->begin_pass(now);
    for (std::uint32_t j : snapshot_.shown())
        if (jobs_[j].phase == Phase::Running)
            priority_->charge_running(jobs_[j].association, jobs_[j].cpus, jobs_[j].start);
    priority_->end_charges();
    for (std::uint32_t j : snapshot_.shown()) {
        SimJob& job = jobs_[j];
        if (job.phase == Phase::Pending || job.phase == Phase::Blocked) {
            job.priority =
                priority_->priority(now, job.phase == Phase::Pending ? job.eligible : now, job.association, job.cpus);
            snapshot_.job(j).priority = job.priority;
        }
    }
    // Sorted as one 64-bit key per job (priority high first, then submit
    // order), which is queued_before's order; a deep queue is re-sorted every
    // pass, so the keys keep the comparisons out of jobs_.
    sort_keys_.clear();
    for (std::uint32_t j : queue_)
        if (jobs_[j].phase == Phase::Pending)
            sort_keys_.push_back(std::uint64_t(std::numeric_limits<std::uint32_t>::max() - jobs_[j].priority) << 32 | j);
    if (!std::is_sorted(sort_keys_.begin(), sort_keys_.end()))
        std::sort(sort_keys_.begin(), sort_keys_.end());
    queue_.resize(sort_keys_.size());
    std::transform(sort_keys_.begin(), sort_keys_.end(), queue_.begin(),
                   [](std::uint64_t key) { return std::uint32_t(key); });
    queue_dead_ = 0;
    // Node-group partitions schedule their routed jobs by priority too.
    std::sort(routed_.begin(), routed_.end(), [&](std::uint32_t a, std::uint32_t b) { return queued_before(a, b); });
    dirty_ = true;
}

void SimRun::reservation(const SimJob& head, std::uint32_t free, Time& shadow, std::uint64_t& extra) const
{
    std::uint64_t avail = free;
    for (auto it = local_ends_.begin(); it != local_ends_.end(); ++it) {
        avail += it->second;
        if (avail >= head.cpus) {
            // Every job ending at the shadow time frees its cores then:
            // they are spare for backfill too, not only the first ones.
            shadow = it->first;
            for (auto same = std::next(it); same != local_ends_.end() && same->first == shadow; ++same)
                avail += same->second;
            extra = avail - head.cpus;
            return;
        }
    }
    shadow = kNever; // cannot happen: wider jobs are not replayed
    extra = 0;
}

void SimRun::schedule()
{
    if (!dirty_)
        return;
    dirty_ = false;
    const Time now = clock_.now();
    std::uint32_t free = local_free_;
    bool blocked = false;
    Time shadow = kNever;
    std::uint64_t extra = 0;
    std::uint32_t tested = 0;
    for (std::size_t i = 0; i < queue_.size(); ++i) {
        const std::uint32_t j = queue_[i];
        SimJob& job = jobs_[j];
        if (job.phase != Phase::Pending)
            continue;
        if (!blocked) {
            if (job.cpus <= free) {
                start_local(j);
                free -= job.cpus;
                continue;
            }
            if (job.routed >= 0 && start_cloud(j))
                continue;
            blocked = true;
            reservation(job, free, shadow, extra);
            continue;
        }
        if (free == 0 || ++tested > config_.bf_max_job_test)
            break;
        if (job.cpus > free)
            continue;
        const bool ends_before = now + job.estimate <= shadow;
        if (ends_before || job.cpus <= extra) {
            start_local(j);
            free -= job.cpus;
            if (!ends_before)
                extra -= job.cpus;
        }
    }
    // Routed jobs are also queued in their group's partition, where Slurm
    // schedules them in priority order regardless of the local queue.
    // Room per group is counted once, so a long list of routed jobs facing a
    // full group costs one comparison each.
    std::vector<std::uint64_t> room(config_.groups.size());
    for (std::uint32_t g = 0; g < room.size(); ++g)
        room[g] = group_room(g);
    std::size_t keep = 0;
    for (std::size_t i = 0; i < routed_.size(); ++i) {
        const std::uint32_t j = routed_[i];
        if (jobs_[j].phase != Phase::Pending || jobs_[j].routed < 0)
            continue;
        std::uint64_t& left = room[std::size_t(jobs_[j].routed)];
        if (jobs_[j].cpus <= left && start_cloud(j))
            left -= jobs_[j].cpus;
        else
            routed_[keep++] = j;
    }
    routed_.resize(keep);
    // Started jobs leave the head at once; those started from deeper in the
    // queue are swept out when they are a quarter of it (amortized O(1)).
    while (!queue_.empty() && jobs_[queue_.front()].phase != Phase::Pending) {
        queue_.pop_front();
        --queue_dead_;
    }
    if (queue_dead_ > 64 && queue_dead_ > queue_.size() / 4) {
        queue_.erase(std::remove_if(queue_.begin(), queue_.end(),
                                    [&](std::uint32_t j) { return jobs_[j].phase != Phase::Pending; }),
                     queue_.end());
        queue_dead_ = 0;
    }
}

void SimRun::start_local(std::uint32_t j)
{
    SimJob& job = jobs_[j];
    const Time now = clock_.now();
    local_free_ -= job.cpus;
    ++queue_dead_;
    job.local_slot = local_ends_.emplace(now + job.estimate, job.cpus);
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

std::uint64_t SimRun::group_room(std::uint32_t g) const
{
    std::uint64_t room = 0;
    for (auto n : group_nodes_[g]) {
        const CloudNode& node = nodes_[n];
        if (!node.draining)
            room += node.cpus - node.alloc;
    }
    return room;
}

bool SimRun::start_cloud(std::uint32_t j)
{
    SimJob& job = jobs_[j];
    const auto g = std::uint32_t(job.routed);
    if (group_room(g) < job.cpus)
        return false;
    std::uint32_t need = job.cpus;
    // Like Slurm: nodes already up first, then booting ones, then resume more.
    for (Power pass : {Power::Up, Power::Booting, Power::Down}) {
        for (auto n : group_nodes_[g]) {
            if (need == 0)
                break;
            CloudNode& node = nodes_[n];
            if (node.power != pass || node.draining || node.alloc == node.cpus)
                continue;
            if (node.power == Power::Down)
                power_up(n);
            end_idle(n, false);
            const std::uint32_t take = std::min(need, node.cpus - node.alloc);
            node.alloc += take;
            ++node.idle_epoch;
            need -= take;
            job.cloud_alloc.emplace_back(n, take);
            if (node.power == Power::Booting) {
                node.configuring.push_back(j);
                ++job.nodes_booting;
            }
            sync_node(n);
        }
    }
    job.group = int(g);
    ++queue_dead_;
    std::vector<std::string> names;
    for (const auto& [n, cores] : job.cloud_alloc)
        names.push_back(snapshot_.node(nodes_[n].view).name);
    snapshot_.allocated(j, g, std::move(names));
    if (job.nodes_booting == 0) {
        begin_running(j, cloud_run(job));
    } else {
        job.phase = Phase::Configuring;
        snapshot_.configuring(j, clock_.now());
    }
    return true;
}

Seconds SimRun::cloud_run(const SimJob& job)
{
    const NodeGroup& group = config_.groups[std::size_t(job.group)];
    const Seconds run = runtime_in(group, *job.trace);
    if (run < job.trace->true_runtime() / group.speed)
        ++result_.cloud_runs_cut;
    return run;
}

Seconds SimRun::sample_boot(const NodeGroup& g)
{
    return g.boot_time * (1 + boot_jitter_of(config_, g) * (2 * unit_draw(rng_) - 1));
}

double SimRun::bill(const NodeGroup& g, Seconds up) const
{
    return billed_seconds(g, up) * g.price_per_hour / 3600;
}

void SimRun::power_up(std::uint32_t n)
{
    CloudNode& node = nodes_[n];
    const Time now = clock_.now();
    node.power = Power::Booting;
    cloud_up_cores_ += node.cpus;
    ++cloud_up_nodes_;
    node.launched = now;
    node.ready = 0;
    node.draining = false;
    ++node.idle_epoch;
    ++node.life;
    // Slurm has allocated the node already when burstd's launch fails: the
    // failure lands right after, as a node that goes down.
    node.launch = launches_->launch(node.group, now);
    if (node.launch != LaunchOutcome::Launched) {
        events_.push(now, EventKind::LaunchFailed, n, node.life);
        sync_node(n);
        return;
    }
    ++result_.instances_launched;
    unbooked_spend_ = true;
    const NodeGroup& g = config_.groups[node.group];
    events_.push(now + sample_boot(g), EventKind::NodeReady, n, node.life);
    if (g.spot && g.interruptions_per_hour > 0) {
        // Poisson process: exponential time to the interruption of this life.
        events_.push(now - std::log1p(-unit_draw(interruption_rng_)) * 3600 / g.interruptions_per_hour, EventKind::Interruption, n, node.life);
    }
    sync_node(n);
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
        if ((job.phase == Phase::Running || job.phase == Phase::Configuring) && job.group == int(nodes_[n].group) &&
            std::any_of(job.cloud_alloc.begin(), job.cloud_alloc.end(), [&](const auto& a) { return a.first == n; }))
            hit.push_back(j);
    }
    for (std::uint32_t j : hit)
        requeue(j, n);
    result_.requeued_jobs += hit.size();
    nodes_[n].configuring.clear();
    power_down(n);
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
    CloudNode& node = nodes_[n];
    const std::vector<std::uint32_t> hit = node.configuring;
    for (std::uint32_t j : hit) {
        requeue(j, n);
        if (node.launch == LaunchOutcome::Refused) {
            jobs_[j].routed = -1;
            snapshot_.local_only(j);
        }
    }
    result_.launch_requeues += hit.size();
    node.configuring.clear();
    retire(n);
}

void SimRun::requeue(std::uint32_t j, std::uint32_t lost_node)
{
    SimJob& job = jobs_[j];
    const Time now = clock_.now();
    const NodeGroup& g = config_.groups[std::size_t(job.group)];
    if (job.phase == Phase::Running) {
        if (priority_)
            priority_->charge_ended(job.association, job.cpus, job.start, now);
        const double lost = double(job.cpus) * (now - job.start);
        result_.lost_core_seconds += lost;
        // The account used those cores, even if the work is lost.
        const double cost = lost * g.price_per_cpu_second();
        attributed_cost_ += cost;
        result_.account_cost[job.trace->account] += cost;
        snapshot_.charged(job.trace->account, cost);
    }
    ++job.run_epoch;
    const std::uint32_t taken_from = std::uint32_t(job.group);
    for (const auto& [m, cores] : job.cloud_alloc) {
        CloudNode& other = nodes_[m];
        other.alloc -= cores;
        other.configuring.erase(std::remove(other.configuring.begin(), other.configuring.end(), j),
                                other.configuring.end());
        sync_node(m);
        if (m != lost_node && other.alloc == 0 && other.power == Power::Up)
            node_idle(m);
    }
    job.cloud_alloc.clear();
    job.nodes_booting = 0;
    job.group = -1;
    job.phase = Phase::Pending;
    job.routed = int(taken_from);
    // Back in the queue at its priority's place: its entry may still linger
    // there from when it started.
    if (std::find(queue_.begin(), queue_.end(), j) != queue_.end())
        --queue_dead_;
    else
        enqueue(j);
    if (std::find(routed_.begin(), routed_.end(), j) == routed_.end())
        add_routed(j);
    snapshot_.requeued(j, taken_from);
    dirty_ = true;
}

void SimRun::end_idle(std::uint32_t n, bool powering_down)
{
    CloudNode& node = nodes_[n];
    if (node.idle_since < 0)
        return;
    const double idle = double(node.cpus) * (clock_.now() - node.idle_since);
    result_.idle_core_seconds += idle;
    if (powering_down)
        result_.idle_before_down_core_seconds += idle;
    node.idle_since = -1;
}

void SimRun::power_down(std::uint32_t n)
{
    end_idle(n, true);
    CloudNode& node = nodes_[n];
    const Seconds up = clock_.now() - node.launched;
    closed_cost_ += bill(config_.groups[node.group], up);
    result_.instance_seconds += up;
    const NodeGroup& group = config_.groups[node.group];
    result_.instances.push_back(InstanceSpan{int(node.group), node.cpus, group.price_per_hour, node.launched,
                                             clock_.now(), node.power == Power::Up ? node.ready : clock_.now(),
                                             billed_until(group, node.launched, clock_.now())});
    const BilledSpan span{snapshot_.node(node.view).name, group.name, node.launched, clock_.now()};
    if (!config_.budgets.empty())
        closed_spans_.push_back(span);
    snapshot_.instance_ended(span);
    retire(n);
}

void SimRun::retire(std::uint32_t n)
{
    CloudNode& node = nodes_[n];
    node.power = Power::Down;
    cloud_up_cores_ -= node.cpus;
    --cloud_up_nodes_;
    node.draining = false;
    ++node.idle_epoch;
    sync_node(n);
    dirty_ = true;
}

void SimRun::node_ready(std::uint32_t n)
{
    CloudNode& node = nodes_[n];
    node.power = Power::Up;
    node.ready = clock_.now();
    launches_->registered(node.group, node.ready);
    std::deque<NodeBoot>& boots = boots_[node.group];
    boots.push_back(NodeBoot{config_.groups[node.group].name, node.launched, node.ready});
    if (boots.size() > kRecentBoots)
        boots.pop_front();
    for (auto j : node.configuring) {
        SimJob& job = jobs_[j];
        if (--job.nodes_booting == 0)
            begin_running(j, cloud_run(job));
    }
    node.configuring.clear();
    sync_node(n);
    if (node.alloc == 0)
        node_idle(n);
    dirty_ = true;
}

void SimRun::node_idle(std::uint32_t n)
{
    CloudNode& node = nodes_[n];
    node.idle_since = clock_.now();
    if (node.draining) {
        power_down(n);
        return;
    }
    const Seconds suspend = suspend_time_of(config_, config_.groups[node.group]);
    ++node.idle_epoch;
    if (!std::isinf(suspend)) // else Slurm never suspends it
        events_.push(clock_.now() + suspend, EventKind::SuspendCheck, n, node.idle_epoch);
}

void SimRun::finish(std::uint32_t j)
{
    SimJob& job = jobs_[j];
    const Time now = clock_.now();
    job.phase = Phase::Done;
    ++finished_;
    demand_cores_ -= job.cpus;
    JobEnd end;
    end.id = job.trace->id;
    end.category = job.trace->category;
    end.account = job.trace->account;
    end.cpus = job.cpus;
    end.elapsed = now - job.start;
    end.end_time = now;
    end.eligible_time = job.eligible;
    end.start_time = job.start;
    if (priority_)
        priority_->charge_ended(job.association, job.cpus, job.start, now);
    if (job.group < 0) {
        local_free_ += job.cpus;
        local_ends_.erase(job.local_slot);
    } else {
        const NodeGroup& g = config_.groups[std::size_t(job.group)];
        const double cost = double(job.cpus) * end.elapsed * g.price_per_cpu_second();
        attributed_cost_ += cost;
        result_.account_cost[job.trace->account] += cost;
        snapshot_.charged(job.trace->account, cost);
        end.node_group = g.name;
        end.nodes = snapshot_.job(j).nodes;
        for (const auto& [n, cores] : job.cloud_alloc) {
            nodes_[n].alloc -= cores;
            sync_node(n);
            if (nodes_[n].alloc == 0 && nodes_[n].power == Power::Up)
                node_idle(n);
        }
        job.cloud_alloc.clear();
    }
    result_.jobs.push_back(JobOutcome{job.trace->id, job.trace->account, job.cpus, job.trace->submit, job.eligible,
                                      job.start, now, job.group});
    snapshot_.remove(j);
    for (auto c : job.children)
        if (--jobs_[c].waiting_parents == 0 && jobs_[c].phase == Phase::Blocked)
            release_or_hold(c);
    if (!config_.budgets.empty())
        budget_spend_.job_ended(end);
    cycle_.observe(end);
    dirty_ = true;
}

void SimRun::sync_node(std::uint32_t n)
{
    const CloudNode& node = nodes_[n];
    Node& view = snapshot_.node(node.view);
    view.alloc_cpus = node.alloc;
    view.base = node.alloc == 0 ? NodeBaseState::Idle
                                : (node.alloc < node.cpus ? NodeBaseState::Mixed : NodeBaseState::Allocated);
    view.flags = kNodeCloud;
    if (node.power == Power::Down)
        view.flags |= kNodePoweredDown;
    else if (node.power == Power::Booting)
        view.flags |= kNodePoweringUp;
    if (node.draining)
        view.flags |= kNodeDrain;
}

class SimRun::Sink final : public ActionSink {
public:
    explicit Sink(SimRun& run) : run_(run) {}
    std::string apply(const Action& action, const ClusterState&) override { return run_.apply(action); }

private:
    SimRun& run_;
};

void SimRun::decide()
{
    const Time now = clock_.now();
    ClusterState& state = snapshot_.begin_cycle(now, config_.local_cores - local_free_, config_.groups);
    for (const auto& group : boots_)
        state.boots.insert(state.boots.end(), group.begin(), group.end());
    double open_cost = 0;
    for (std::uint32_t n = 0; n < nodes_.size(); ++n) {
        const CloudNode& node = nodes_[n];
        if (node.power == Power::Down)
            continue;
        const NodeGroup& g = config_.groups[node.group];
        Instance inst;
        inst.node = snapshot_.node(node.view).name;
        inst.node_group = g.name;
        inst.provider_id = "sim-" + inst.node;
        inst.instance_type = g.instance_types.empty() ? g.name : g.instance_types.front();
        inst.state = node.power == Power::Up ? InstanceState::Running : InstanceState::Launching;
        inst.requested_at = node.launched;
        inst.launched_at = node.launched;
        inst.running_since = node.power == Power::Up ? node.ready : 0;
        inst.spot = g.spot;
        state.instances.push_back(std::move(inst));
        open_cost += bill(g, now - node.launched);
    }
    state.spend[""] = std::max(0.0, closed_cost_ + open_cost - attributed_cost_);
    if (priority_)
        priority_->fill_shares(state.snapshot.shares);

    result_.provisioning.add(double(demand_cores_), double(config_.local_cores + cloud_up_cores_));

    if (config_.record_timeline)
        result_.timeline.push_back(TimelineSample{now, demand_cores_, config_.local_cores + cloud_up_cores_,
                                                  cloud_up_nodes_});

    state.hire_limits = launches_->hire_limits(now);
    // The cap sees the spend booked so far, as burstd's does.
    std::optional<CycleBudget> budget;
    if (!config_.budgets.empty()) {
        IntervalSpend spent = book_spend();
        if (config_.enforce_budgets)
            budget = CycleBudget{config_.budgets, suspend_times_, std::move(spent)};
    }
    Sink sink(*this);
    CycleOutcome outcome = cycle_.run(state, clock_, budget ? &*budget : nullptr, sink);
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
    // A span billed to its end before every tracked interval began counts in
    // none (spans are kept in power-down order, so one billed longer may
    // keep a few more until it goes).
    Time earliest = now;
    for (const auto& b : config_.budgets)
        earliest = std::min(earliest, Time(std::floor(now / b.interval) * b.interval));
    const auto billed_to = [&](const BilledSpan& s) {
        return billed_until(*snapshot_.state().group(s.node_group), s.from, s.until.value_or(now));
    };
    while (!closed_spans_.empty() && billed_to(closed_spans_.front()) <= earliest)
        closed_spans_.pop_front();
    std::vector<BilledSpan> spans(closed_spans_.begin(), closed_spans_.end());
    for (const auto& node : nodes_)
        if (node.power != Power::Down)
            spans.push_back(BilledSpan{snapshot_.node(node.view).name, config_.groups[node.group].name,
                                       node.launched, std::nullopt});
    IntervalSpend spent =
        budget_spend_.update(now, config_.budgets, spans, snapshot_.state().snapshot.jobs, snapshot_.state().groups);
    for (const auto& [interval, tracker] : budget_spend_.trackers()) {
        SpendView& open = open_booking_[interval];
        const SpendView& last = tracker.last();
        if (open.interval > 0 && open.interval_start != last.interval_start)
            result_.booked.push_back(BookedInterval{interval, open.interval_start, std::move(open.accounts)});
        open = last;
    }
    unbooked_spend_ = cloud_up_nodes_ > 0 || std::any_of(closed_spans_.begin(), closed_spans_.end(),
                                                         [&](const BilledSpan& s) { return billed_to(s) > now; });
    return spent;
}

std::string SimRun::apply(const Action& action)
{
    auto group_index = [&](const std::string& name) -> int {
        for (std::size_t g = 0; g < config_.groups.size(); ++g)
            if (config_.groups[g].name == name)
                return int(g);
        return -1;
    };
    std::string error;
    if (const auto* route = std::get_if<RouteToCloud>(&action.what)) {
        const std::uint32_t j = jobs_.find(route->job);
        const int g = group_index(route->group);
        if (j == kNone || g < 0 || jobs_[j].phase != Phase::Pending ||
            std::uint64_t(jobs_[j].cpus) >
                std::uint64_t(config_.groups[std::size_t(g)].cpus) * config_.groups[std::size_t(g)].capacity()) {
            error = g < 0 ? "unknown node group"
                    : j == kNone || jobs_[j].phase != Phase::Pending ? "job is not pending"
                                                                      : "job is wider than the group";
        } else {
            SimJob& job = jobs_[j];
            if (job.routed < 0)
                add_routed(j);
            job.routed = g;
            snapshot_.routed(j, std::size_t(g));
            dirty_ = true;
        }
    } else if (const auto* unroute = std::get_if<UnrouteJob>(&action.what)) {
        const std::uint32_t j = jobs_.find(unroute->job);
        if (j == kNone || jobs_[j].phase != Phase::Pending || jobs_[j].routed != group_index(unroute->group)) {
            error = "job is not pending in the group";
        } else {
            SimJob& job = jobs_[j];
            job.routed = -1;
            routed_.erase(std::remove(routed_.begin(), routed_.end(), j), routed_.end());
            snapshot_.local_only(j);
            dirty_ = true;
        }
    } else if (const auto* hire = std::get_if<HireNodes>(&action.what)) {
        const int g = group_index(hire->group);
        if (g < 0) {
            error = "unknown node group";
        } else {
            std::uint32_t left = hire->count;
            for (auto n : group_nodes_[std::size_t(g)])
                if (left > 0 && nodes_[n].power == Power::Down) {
                    power_up(n);
                    --left;
                }
            result_.hire_shortfall += left;
            dirty_ = true;
        }
    } else if (const auto* release = std::get_if<ReleaseNodes>(&action.what)) {
        // A forced power-down would kill running jobs; the simulator drains
        // instead, so a policy cannot gain by killing work.
        for (const auto& name : release->nodes) {
            auto it = node_by_name_.find(name);
            if (it == node_by_name_.end() || nodes_[it->second].power == Power::Down) {
                error = "node " + name + " is not up";
                continue;
            }
            CloudNode& node = nodes_[it->second];
            node.draining = true;
            sync_node(it->second);
            if (node.power == Power::Up && node.alloc == 0)
                power_down(it->second);
        }
    } else if (std::get_if<SetJobThreads>(&action.what)) {
        ++result_.thread_actions_ignored;
        return "thread counts are not simulated";
    } else if (const auto* keep = std::get_if<KeepPlaceholders>(&action.what)) {
        const int g = group_index(keep->group);
        if (g < 0) {
            error = "unknown node group";
        } else {
            warm_[std::size_t(g)] = keep->count;
            std::uint32_t in_use = 0;
            for (auto n : group_nodes_[std::size_t(g)])
                in_use += nodes_[n].power != Power::Down;
            for (auto n : group_nodes_[std::size_t(g)])
                if (in_use < keep->count && nodes_[n].power == Power::Down) {
                    power_up(n);
                    ++in_use;
                }
        }
    }
    ++(error.empty() ? result_.actions_applied : result_.actions_rejected);
    return error;
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
