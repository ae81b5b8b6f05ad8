#include "app/instances/allocation_follower.hpp"

#include "model/hostlist.hpp"

namespace burst {

namespace {

std::chrono::steady_clock::duration to_duration(Seconds s)
{
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

} // namespace

AllocationFollower::AllocationFollower(JobAllocationProbe& probe, Ownership ours, Launcher launch, Logger& log,
                                       AllocationFollowerSettings settings)
    : probe_(probe), ours_(std::move(ours)), launch_(std::move(launch)), log_(log), settings_(settings),
      thread_([this] { run(); })
{
}

AllocationFollower::~AllocationFollower()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void AllocationFollower::set_allocation_observer(AllocationObserver observer)
{
    std::lock_guard<std::mutex> lock(mutex_);
    observe_allocation_ = std::move(observer);
}

void AllocationFollower::follow(JobId job)
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        deadlines_[job] = std::chrono::steady_clock::now() + to_duration(settings_.window);
        ++counters_.followed;
    }
    wake_.notify_all();
}

AllocationFollowerCounters AllocationFollower::counters() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    AllocationFollowerCounters now = counters_;
    now.following = deadlines_.size();
    return now;
}

void AllocationFollower::run()
{
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || !deadlines_.empty(); });
        if (stopping_)
            return;
        std::map<JobId, SteadyTime> round = deadlines_;
        lock.unlock();
        std::vector<JobId> done;
        for (const auto& [job, deadline] : round)
            if (settle(job, deadline))
                done.push_back(job);
        lock.lock();
        for (JobId job : done) {
            // A follow() during the probe renewed the window: keep that one.
            auto it = deadlines_.find(job);
            if (it != deadlines_.end() && it->second == round[job])
                deadlines_.erase(it);
        }
        if (!deadlines_.empty())
            wake_.wait_for(lock, to_duration(settings_.poll), [this] { return stopping_; });
    }
}

bool AllocationFollower::settle(JobId job, SteadyTime deadline)
{
    JobAllocation a = probe_.probe(job);
    switch (a.phase) {
    case JobAllocation::Phase::Pending:
        if (std::chrono::steady_clock::now() < deadline)
            return false;
        log_.verbose("job " + std::to_string(job) + " still pending after " + std::to_string(int(settings_.window)) +
                     " s: its nodes will be launched when Slurm calls ResumeProgram");
        {
            std::lock_guard<std::mutex> lock(mutex_);
            ++counters_.expired;
        }
        return true;
    case JobAllocation::Phase::Gone:
        log_.verbose("job " + std::to_string(job) + ": no longer followed (" +
                     (a.error.empty() ? std::string("gone") : a.error) + ")");
        {
            std::lock_guard<std::mutex> lock(mutex_);
            ++counters_.probe_errors;
        }
        return true;
    case JobAllocation::Phase::Started:
        return true;
    case JobAllocation::Phase::Configuring:
        break;
    }
    if (observe_allocation_) {
        std::vector<std::string> allocated;
        for (const auto& n : a.nodes)
            if (ours_(n))
                allocated.push_back(n);
        if (!allocated.empty())
            observe_allocation_(job, allocated);
    }
    std::vector<std::string> nodes;
    for (const auto& n : a.powered_down_nodes)
        if (ours_(n))
            nodes.push_back(n);
    if (nodes.empty())
        return true;
    std::vector<std::string> launched = launch_(job, nodes);
    if (launched.empty()) {
        log_.verbose("job " + std::to_string(job) + " was allocated " + compress_hostlist(a.nodes) + ": " +
                     compress_hostlist(nodes) + " already launching");
        return true;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        ++counters_.launched_jobs;
        counters_.launched_nodes += launched.size();
    }
    log_.info("job " + std::to_string(job) + " was allocated " + compress_hostlist(a.nodes) + ": launched " +
              compress_hostlist(launched) + " now, ahead of Slurm's ResumeProgram call");
    return true;
}

} // namespace burst
