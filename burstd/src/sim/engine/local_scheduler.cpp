#include "sim/engine/local_scheduler.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace burst {
namespace {

constexpr Time kNever = std::numeric_limits<Time>::infinity();
// Above every batch job's, FCFS or multifactor, as the plugin's 4294901761
// is above every batch job's and hold's in Slurm.
constexpr std::uint32_t kInteractivePriority = std::numeric_limits<std::uint32_t>::max();

} // namespace

LocalScheduler::LocalScheduler(const SimConfig& site, const SimJobs& jobs, std::uint64_t site_cores,
                               std::uint32_t site_nodes)
    : site_(site), jobs_(jobs), local_free_(site.local_cores), local_slots_(jobs.size()), routes_(jobs.size(), -1),
      associations_(jobs.size(), 0), priorities_(jobs.size(), 0), next_priority_pass_(jobs.first_submit())
{
    if (site_.priority.type == PriorityType::Multifactor)
        use_multifactor(site_cores, site_nodes);
}

// Every (account, user) of the trace gets a user association under its
// account; the job-size factor counts every local and cloud core and node.
void LocalScheduler::use_multifactor(std::uint64_t site_cores, std::uint32_t site_nodes)
{
    // Traces have few associations and many jobs: each distinct pair is
    // looked up once.
    std::map<std::pair<std::string_view, std::string_view>, std::uint32_t> index;
    for (const auto& j : jobs_)
        index.emplace(std::make_pair(std::string_view(j.trace->account), std::string_view(j.trace->user)), 0);
    std::vector<std::pair<std::string, std::string>> users; // the model sorts them
    for (const auto& [key, a] : index)
        users.emplace_back(key.first, key.second);
    priority_ = std::make_unique<MultifactorPriority>(site_.priority, users, site_cores, site_nodes);
    for (auto& [key, a] : index)
        a = priority_->association(std::string(key.first), std::string(key.second));
    for (std::uint32_t j = 0; j < jobs_.size(); ++j)
        associations_[j] = index.at({jobs_[j].trace->account, jobs_[j].trace->user});
}

std::uint32_t LocalScheduler::submitted(std::uint32_t j, Time now)
{
    if (interactive(j)) {
        priorities_[j] = kInteractivePriority;
        return kInteractivePriority;
    }
    // Jobs are replayed in submit order, so FCFS is "earlier is higher",
    // every batch job below the interactive ones.
    if (!priority_)
        return kInteractivePriority - 1 - j;
    priorities_[j] = priority_->priority(now, now, associations_[j], jobs_[j].cpus);
    return priorities_[j];
}

Time LocalScheduler::next_priority_pass(bool demand) const
{
    // Passes over an idle site (nothing eligible, no usage since the last
    // pass) only decay every account alike, which leaves the factors as
    // they are: they are skipped, and the pass grid resumes after.
    if (priority_ && (demand || priority_->usage_since_pass()))
        return next_priority_pass_;
    return kNever;
}

void LocalScheduler::skip_priority_passes(Time t)
{
    if (priority_ && t > next_priority_pass_) {
        const Seconds period = site_.priority.calc_period;
        next_priority_pass_ += std::ceil((t - next_priority_pass_) / period) * period;
    }
}

// One PriorityCalcPeriod pass of Slurm's decay thread: decay and the running
// jobs' new usage (classic takes its factors before, Fair Tree after them),
// new priorities for pending jobs (and blocked ones, which accrue no age
// yet), then the queue in the new order.
void LocalScheduler::priority_pass(Time now, const std::vector<std::uint32_t>& live)
{
    priority_->begin_pass(now);
    for (std::uint32_t j : live)
        if (jobs_[j].phase == Phase::Running)
            priority_->charge_running(associations_[j], jobs_[j].cpus, jobs_[j].start);
    priority_->end_charges();
    for (std::uint32_t j : live) {
        const SimJob& job = jobs_[j];
        if ((job.phase == Phase::Pending || job.phase == Phase::Blocked) && !interactive(j))
            priorities_[j] =
                priority_->priority(now, job.phase == Phase::Pending ? job.eligible : now, associations_[j], job.cpus);
    }
    // Sorted as one 64-bit key per job (priority high first, then submit
    // order), which is queued_before's order; a deep queue is re-sorted every
    // pass, so the keys keep the comparisons out of the jobs.
    sort_keys_.clear();
    for (std::uint32_t j : queue_)
        if (jobs_[j].phase == Phase::Pending)
            sort_keys_.push_back(std::uint64_t(std::numeric_limits<std::uint32_t>::max() - priorities_[j]) << 32 | j);
    if (!std::is_sorted(sort_keys_.begin(), sort_keys_.end()))
        std::sort(sort_keys_.begin(), sort_keys_.end());
    queue_.resize(sort_keys_.size());
    std::transform(sort_keys_.begin(), sort_keys_.end(), queue_.begin(),
                   [](std::uint64_t key) { return std::uint32_t(key); });
    queue_dead_ = 0;
    // Node-group partitions schedule their routed jobs by priority too.
    std::sort(routed_.begin(), routed_.end(), [&](std::uint32_t a, std::uint32_t b) { return queued_before(a, b); });
    pass_due_ = true;
    next_priority_pass_ = now + site_.priority.calc_period;
}

void LocalScheduler::charge_ended(std::uint32_t j, Time end)
{
    if (priority_)
        priority_->charge_ended(associations_[j], jobs_[j].cpus, jobs_[j].start, end);
}

void LocalScheduler::fill_shares(std::vector<Share>& shares)
{
    if (priority_)
        priority_->fill_shares(shares);
}

bool LocalScheduler::queued_before(std::uint32_t a, std::uint32_t b) const
{
    // Slurm sorts by priority, then submit time; jobs are in submit order
    // (under FCFS every priority here is 0: submission decides).
    if (priorities_[a] != priorities_[b])
        return priorities_[a] > priorities_[b];
    return a < b;
}

void LocalScheduler::enqueue(std::uint32_t j)
{
    // Started jobs lingering in the queue keep their place: the queue stays
    // sorted between passes.
    queue_.insert(std::upper_bound(queue_.begin(), queue_.end(), j,
                                   [&](std::uint32_t a, std::uint32_t b) { return queued_before(a, b); }),
                  j);
}

void LocalScheduler::add_routed(std::uint32_t j)
{
    // Slurm schedules a partition's jobs by priority, which routing leaves
    // as it was: under FCFS (priority/basic) by submission, so a job routed
    // late still goes ahead of later-submitted ones routed before it.
    routed_.insert(std::upper_bound(routed_.begin(), routed_.end(), j,
                                    [&](std::uint32_t a, std::uint32_t b) { return queued_before(a, b); }),
                   j);
}

void LocalScheduler::route_to(std::uint32_t j, std::uint32_t g)
{
    if (routes_[j] < 0)
        add_routed(j);
    routes_[j] = int(g);
}

void LocalScheduler::unroute(std::uint32_t j)
{
    routes_[j] = -1;
    routed_.erase(std::remove(routed_.begin(), routed_.end(), j), routed_.end());
}

void LocalScheduler::requeue(std::uint32_t j, std::uint32_t g)
{
    routes_[j] = int(g);
    // Back in the queue at its priority's place: its entry may still linger
    // there from when it started.
    if (std::find(queue_.begin(), queue_.end(), j) != queue_.end())
        --queue_dead_;
    else
        enqueue(j);
    if (std::find(routed_.begin(), routed_.end(), j) == routed_.end())
        add_routed(j);
}

void LocalScheduler::reservation(std::uint32_t j, std::uint32_t free, Time now, Time& shadow,
                                  std::uint64_t& extra) const
{
    // Held cores come free for an interactive head now (it preempts
    // holds); for a batch head the holds would starve, those it needs at
    // burstd's next cycle, which gives them up to it; for any other job
    // never.
    const SimJob& head = jobs_[j];
    const std::uint32_t given = interactive(j) ? held_ : yielded_to(head);
    const Time held_free_at = interactive(j) ? now : std::max(now, next_cycle_);
    bool held_counted = given == 0;
    std::uint64_t avail = free;
    auto it = local_ends_.begin();
    // Every core coming free at `at` counts: it is spare for backfill too.
    const auto add_all_at = [&](Time at) {
        for (; it != local_ends_.end() && it->first == at; ++it)
            avail += it->second;
        if (!held_counted && held_free_at == at) {
            avail += given;
            held_counted = true;
        }
    };
    while (it != local_ends_.end() || !held_counted) {
        const Time at = !held_counted && (it == local_ends_.end() || held_free_at < it->first) ? held_free_at
                                                                                               : it->first;
        add_all_at(at);
        if (avail >= head.cpus) {
            shadow = at;
            extra = avail - head.cpus;
            return;
        }
    }
    shadow = kNever; // cannot happen: wider jobs are not replayed
    extra = 0;
}

void LocalScheduler::pass(Time now, Starts& starts)
{
    if (!pass_due_)
        return;
    pass_due_ = false;
    backfill_pass(now, starts);
    group_pass(starts);
    sweep_queue();
}

void LocalScheduler::backfill_pass(Time now, Starts& starts)
{
    std::uint32_t free = local_free_;
    bool blocked = false;
    // Queued holds come after the interactive jobs (all at the head of the
    // queue) and before every batch job; none takes a core an interactive
    // job waits for.
    bool holds_placed = holds_queued_ == 0;
    Time shadow = kNever;
    std::uint64_t extra = 0;
    std::uint32_t tested = 0;
    for (std::size_t i = 0; i < queue_.size(); ++i) {
        const std::uint32_t j = queue_[i];
        const SimJob& job = jobs_[j];
        if (job.phase != Phase::Pending)
            continue;
        if (!holds_placed && !interactive(j)) {
            holds_placed = true;
            if (!blocked)
                take_queued_holds(now, free);
        }
        if (!blocked) {
            if (job.cpus <= free) {
                start_local(j, now, starts);
                free -= job.cpus;
                continue;
            }
            if (interactive(j) && job.cpus <= free + held_) {
                // Slurm preempts as many holds as the job needs.
                give_up_holds(job.cpus - free, now);
                start_local(j, now, starts);
                free = 0;
                continue;
            }
            if (routes_[j] >= 0 && starts.start_in_group(j)) {
                ++queue_dead_;
                continue;
            }
            blocked = true;
            reservation(j, free, now, shadow, extra);
            continue;
        }
        if (free == 0 || ++tested > site_.bf_max_job_test)
            break;
        if (job.cpus > free)
            continue;
        const bool ends_before = now + job.estimate <= shadow;
        if (ends_before || job.cpus <= extra) {
            start_local(j, now, starts);
            free -= job.cpus;
            if (!ends_before)
                extra -= job.cpus;
        }
    }
    if (!holds_placed && !blocked)
        take_queued_holds(now, free);
}

void LocalScheduler::take_queued_holds(Time now, std::uint32_t& free)
{
    const std::uint32_t taken = std::min(holds_queued_, free);
    if (taken == 0)
        return;
    holds_queued_ -= taken;
    set_held(held_ + taken, now);
    local_free_ -= taken;
    free -= taken;
}

void LocalScheduler::give_up_holds(std::uint32_t cores, Time now)
{
    set_held(held_ - cores, now);
    local_free_ += cores;
}

void LocalScheduler::set_held(std::uint32_t held, Time now)
{
    held_core_seconds_ += double(held_) * (now - held_since_);
    held_since_ = now;
    held_ = held;
}

bool LocalScheduler::starved_by_holds(const SimJob& job) const
{
    return job.cpus + std::max(held_, site_.interactive_cores) > site_.local_cores;
}

std::uint32_t LocalScheduler::yielded_to(const SimJob& job) const
{
    if (!starved_by_holds(job))
        return 0;
    // It can wait for running work to end; what it cannot wait for is the
    // holds beyond the cores it leaves.
    return std::min<std::uint32_t>(held_, job.cpus + held_ > site_.local_cores ? job.cpus + held_ - site_.local_cores : 0);
}

void LocalScheduler::keep_holds(Time now)
{
    const std::uint32_t reserve = site_.interactive_cores;
    if (reserve == 0)
        return;
    next_cycle_ = now + site_.cycle;
    // burstd gives holds up once per waiting interactive job; here no hold
    // is queued while one waits, so one given up for it is never replaced
    // and the held cores it needs beyond the free ones are all given at once.
    bool interactive_waits = false;
    std::uint64_t waiting = 0;
    const SimJob* first_batch = nullptr;
    for (std::uint32_t j : queue_) {
        if (jobs_[j].phase != Phase::Pending)
            continue;
        if (!interactive(j)) {
            first_batch = &jobs_[j];
            break;
        }
        interactive_waits = true;
        waiting += jobs_[j].cpus;
    }
    std::uint32_t given_up = 0;
    if (interactive_waits) {
        holds_queued_ = 0;
        given_up = std::uint32_t(std::min<std::uint64_t>(held_, waiting > local_free_ ? waiting - local_free_ : 0));
    } else if (first_batch && starved_by_holds(*first_batch)) {
        holds_queued_ = 0;
        given_up = yielded_to(*first_batch);
    } else {
        holds_queued_ = reserve > held_ ? reserve - held_ : 0;
    }
    give_up_holds(given_up, now);
    request_pass();
}

void LocalScheduler::group_pass(Starts& starts)
{
    // Routed jobs are also queued in their group's partition, where Slurm
    // schedules them in priority order regardless of the local queue.
    // Room per group is counted once, so a long list of routed jobs facing a
    // full group costs one comparison each.
    std::vector<std::uint64_t> room(site_.groups.size());
    for (std::uint32_t g = 0; g < room.size(); ++g)
        room[g] = starts.group_room(g);
    std::size_t keep = 0;
    for (std::size_t i = 0; i < routed_.size(); ++i) {
        const std::uint32_t j = routed_[i];
        if (jobs_[j].phase != Phase::Pending || routes_[j] < 0)
            continue;
        std::uint64_t& left = room[std::size_t(routes_[j])];
        if (jobs_[j].cpus <= left && starts.start_in_group(j)) {
            ++queue_dead_;
            left -= jobs_[j].cpus;
        } else {
            routed_[keep++] = j;
        }
    }
    routed_.resize(keep);
}

void LocalScheduler::sweep_queue()
{
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

void LocalScheduler::start_local(std::uint32_t j, Time now, Starts& starts)
{
    const SimJob& job = jobs_[j];
    local_free_ -= job.cpus;
    ++queue_dead_;
    local_slots_[j] = local_ends_.emplace(now + job.estimate, job.cpus);
    starts.started_local(j);
}

void LocalScheduler::end_local(std::uint32_t j)
{
    local_free_ += jobs_[j].cpus;
    local_ends_.erase(local_slots_[j]);
}

} // namespace burst
