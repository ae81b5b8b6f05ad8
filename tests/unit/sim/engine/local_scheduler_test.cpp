#include "sim/engine/local_scheduler.hpp"
#include "sim/engine/sim_jobs.hpp"

#include <cstdint>
#include <limits>
#include <vector>

#include "sim/sim_fixtures.hpp"

using namespace burst;
using namespace burst::test;

namespace {

// Starts what a pass asks for: the local pool always (it has counted its
// cores), one group while it has `room`.
class Recorder final : public LocalScheduler::Starts {
public:
    explicit Recorder(SimJobs& jobs) : jobs_(jobs) {}
    std::vector<std::uint32_t> local, cloud;
    std::uint64_t room = 0;

    void started_local(std::uint32_t j) override
    {
        jobs_[j].phase = Phase::Running;
        local.push_back(j);
    }
    bool start_in_group(std::uint32_t j) override
    {
        if (room < jobs_[j].cpus)
            return false;
        room -= jobs_[j].cpus;
        jobs_[j].phase = Phase::Running;
        cloud.push_back(j);
        return true;
    }
    std::uint64_t group_room(std::uint32_t) const override { return room; }

private:
    SimJobs& jobs_;
};

// `cores` local cores and one cloud group (its nodes are the Recorder's).
SimConfig site(std::uint32_t cores)
{
    SimConfig c = local_site(cores, cores, 60);
    c.groups = {cloud_group("g", 2, 1, 30, 4, 0)};
    return c;
}

// A scheduler over `trace` with its first `submitted` jobs (all by
// default) eligible from the start, in submit order.
struct Fixture {
    Fixture(SimConfig config, const std::vector<TraceJob>& trace, std::uint32_t submitted = ~0u)
        : site(std::move(config)), jobs(trace, site.local_cores), sched(site, jobs, site.local_cores, 1),
          starts(jobs)
    {
        for (std::uint32_t j = 0; j < jobs.size() && j < submitted; ++j)
            submit(j);
        sched.request_pass();
    }
    void submit(std::uint32_t j)
    {
        sched.submitted(j, 0);
        jobs[j].phase = Phase::Pending;
        sched.enqueue(j);
    }
    void end(std::uint32_t j)
    {
        jobs[j].phase = Phase::Done;
        sched.end_local(j);
    }
    void pass(Time now)
    {
        sched.request_pass();
        sched.pass(now, starts);
    }
    SimConfig site;
    SimJobs jobs;
    LocalScheduler sched;
    Recorder starts;
};

using Ids = std::vector<std::uint32_t>;

// `cores` local cores of which Interactive= keeps `held`.
SimConfig reserving(std::uint32_t cores, std::uint32_t held)
{
    SimConfig c = site(cores);
    c.interactive_cores = held;
    return c;
}

TraceJob interactive(TraceJob job)
{
    job.interactive = true;
    return job;
}

} // namespace

TEST_GROUP(LocalScheduler){};

TEST(LocalScheduler, FcfsShowsEarlierJobsHigherAndInteractiveJobsAboveEvery)
{
    Fixture f(site(4), {trace_job(1, 0, 1, 10), trace_job(2, 1, 1, 10), interactive(trace_job(3, 2, 1, 10))});
    const std::uint32_t top = std::numeric_limits<std::uint32_t>::max();
    LONGS_EQUAL(top - 1, f.sched.submitted(0, 0));
    LONGS_EQUAL(top - 2, f.sched.submitted(1, 0));
    LONGS_EQUAL(top, f.sched.submitted(2, 0));
    CHECK(std::isinf(f.sched.next_priority_pass(true))); // no multifactor passes
}

// The pool is full: the interactive job, submitted last, takes the first
// core to come free.
TEST(LocalScheduler, AnInteractiveJobGoesAheadOfEveryBatchJob)
{
    Fixture f(site(2),
              {trace_job(1, 0, 1, 100, 100), trace_job(2, 0, 1, 1000, 1000), trace_job(3, 1, 1, 10, 10),
               interactive(trace_job(4, 2, 1, 10, 10))},
              2);
    f.pass(0);
    f.submit(2);
    f.submit(3);
    f.pass(2);
    CHECK((f.starts.local == Ids{0, 1}));
    f.end(0);
    f.pass(100);
    CHECK((f.starts.local == Ids{0, 1, 3}));
}

// Reserve 1 of 2 cores: the hold burstd queues takes a core before the
// batch jobs; only an interactive job gets it, at once; the hold queued
// again takes the next core to come free, ahead of the waiting batch job.
TEST(LocalScheduler, HoldsKeepCoresThatOnlyInteractiveJobsTake)
{
    Fixture f(reserving(2, 1),
              {trace_job(1, 0, 1, 100, 100), trace_job(2, 1, 1, 100, 100), interactive(trace_job(3, 2, 1, 10, 10))},
              2);
    f.sched.keep_holds(0);
    f.pass(0);
    CHECK((f.starts.local == Ids{0})); // job 1 waits beside the hold
    LONGS_EQUAL(1, f.sched.held());
    LONGS_EQUAL(0, f.sched.local_free());
    f.submit(2);
    f.pass(10);
    CHECK((f.starts.local == Ids{0, 2})); // the hold preempted
    LONGS_EQUAL(0, f.sched.held());
    f.sched.keep_holds(60); // nothing interactive waits: one hold queued
    f.pass(60);
    CHECK((f.starts.local == Ids{0, 2})); // no core came free
    f.end(0);
    f.pass(100);
    CHECK((f.starts.local == Ids{0, 2})); // the hold took job 0's core, not job 1
    LONGS_EQUAL(1, f.sched.held());
    // Held 0-10 s and 100-160 s.
    DOUBLES_EQUAL(70, f.sched.held_core_seconds(160), 1e-9);
}

// An interactive job wider than the free and held cores waits: no hold is
// queued while it waits, the running one is given up for it, and it starts
// when the cores it waits for come free.
TEST(LocalScheduler, AWaitingInteractiveJobGetsTheHeldCoresAndNoNewHold)
{
    Fixture f(reserving(4, 1),
              {trace_job(1, 0, 3, 100, 100), interactive(trace_job(2, 1, 3, 10, 10)), trace_job(3, 2, 1, 10, 10)},
              1);
    f.sched.keep_holds(0);
    f.pass(0);
    LONGS_EQUAL(1, f.sched.held());
    f.submit(1);
    f.submit(2);
    f.pass(1);
    CHECK((f.starts.local == Ids{0})); // 1 held core is not 3
    f.sched.keep_holds(60);
    LONGS_EQUAL(0, f.sched.held());
    LONGS_EQUAL(1, f.sched.local_free());
    f.end(0);
    f.pass(100);
    CHECK((f.starts.local == Ids{0, 1, 2}));
    LONGS_EQUAL(0, f.sched.held());
}

// 8 cores, 2 held, 4 running until 30 s.  A 7-core batch job first in
// line needs 1 of the holds: burstd gives it up at its next cycle (60 s),
// so the job's reservation is at 60 s with no core spare.  A job ending by
// then is backfilled; one running past it is not (counting both holds, or
// none, as coming free would let it).
TEST(LocalScheduler, AWideHeadReservesTheHeldCoresItNeedsAtTheNextCycle)
{
    Fixture f(reserving(8, 2),
              {trace_job(1, 0, 4, 30, 30), trace_job(2, 1, 7, 1000, 1000), trace_job(3, 2, 1, 20, 20),
               trace_job(4, 3, 1, 100, 100)},
              1);
    f.sched.keep_holds(0);
    f.pass(0);
    LONGS_EQUAL(2, f.sched.held());
    f.submit(1);
    f.submit(2);
    f.submit(3);
    f.pass(10);
    CHECK((f.starts.local == Ids{0, 2}));
    f.end(0);
    f.end(2);
    f.pass(30);
    CHECK((f.starts.local == Ids{0, 2})); // 6 free cores, and job 3 would run past 60 s
    f.sched.keep_holds(60);
    LONGS_EQUAL(1, f.sched.held()); // the other is kept
    f.pass(60);
    CHECK((f.starts.local == Ids{0, 2, 1}));
}

// 4 cores, 2 of them held: a 4-core batch job first in line would wait
// behind holds for ever; they yield to it and come back after it started.
TEST(LocalScheduler, HoldsYieldToTheFirstBatchJobTheyWouldStarve)
{
    Fixture f(reserving(4, 2), {trace_job(1, 0, 4, 100, 100)}, 0);
    f.sched.keep_holds(0);
    f.pass(0);
    LONGS_EQUAL(2, f.sched.held());
    f.submit(0);
    f.pass(1);
    CHECK(f.starts.local.empty());
    f.sched.keep_holds(60);
    LONGS_EQUAL(0, f.sched.held());
    f.pass(60);
    CHECK((f.starts.local == Ids{0}));
    f.sched.keep_holds(120); // the wide job runs: holds are queued again
    f.end(0);
    f.pass(160);
    LONGS_EQUAL(2, f.sched.held());
}

TEST(LocalScheduler, APassRunsOnlyWhenOneIsDue)
{
    Fixture f(site(4), {trace_job(1, 0, 2, 10)});
    f.sched.pass(0, f.starts);
    CHECK((f.starts.local == Ids{0}));
    LONGS_EQUAL(2, f.sched.local_free());
    f.jobs[0].phase = Phase::Pending; // as if it were back: no pass is due
    f.sched.enqueue(0);
    f.sched.pass(1, f.starts);
    CHECK((f.starts.local == Ids{0}));
}

// The head waits for job 0's cores at its limit (100 s): a job that ends
// by then is backfilled, one that would delay the head is not.
TEST(LocalScheduler, BackfillsJobsThatEndBeforeTheHeadsReservation)
{
    Fixture f(site(4), {trace_job(1, 0, 2, 100, 100), trace_job(2, 1, 4, 10, 10), trace_job(3, 2, 2, 200, 200),
                        trace_job(4, 3, 2, 50, 50)});
    f.pass(0);
    CHECK((f.starts.local == Ids{0, 3}));
    LONGS_EQUAL(0, f.sched.local_free());
    f.sched.end_local(0);
    f.sched.end_local(3);
    f.jobs[0].phase = f.jobs[3].phase = Phase::Done;
    f.pass(100);
    CHECK((f.starts.local == Ids{0, 3, 1})); // the head, ahead of job 2
}

// Jobs 0 and 1 free 4 cores at 100 s, 2 more than the head needs: a job
// running past then may take those, no more.
TEST(LocalScheduler, JobsRunningPastTheReservationTakeOnlyTheCoresItLeavesSpare)
{
    Fixture f(site(8), {trace_job(1, 0, 2, 100, 100), trace_job(2, 0, 2, 100, 100), trace_job(3, 1, 6, 10, 10),
                        trace_job(4, 2, 1, 1000, 1000), trace_job(5, 3, 2, 1000, 1000),
                        trace_job(6, 4, 2, 50, 50)});
    f.pass(0);
    // Job 3 takes 1 spare core; job 4 would need 2 of the 1 left; job 5
    // ends before the reservation.
    CHECK((f.starts.local == Ids{0, 1, 3, 5}));
}

TEST(LocalScheduler, BackfillLooksAtBfMaxJobTestJobsBeyondTheHead)
{
    const std::vector<TraceJob> trace = {trace_job(1, 0, 2, 100, 100), trace_job(2, 1, 4, 10, 10),
                                         trace_job(3, 2, 2, 500, 500), trace_job(4, 3, 2, 50, 50)};
    SimConfig one = site(4);
    one.bf_max_job_test = 1;
    Fixture f(one, trace);
    f.pass(0);
    CHECK((f.starts.local == Ids{0})); // job 3 is past the one job tested
    Fixture all(site(4), trace);
    all.pass(0);
    CHECK((all.starts.local == Ids{0, 3}));
}

TEST(LocalScheduler, AHeadThatCannotStartLocallyStartsInItsGroup)
{
    Fixture f(site(2), {trace_job(1, 0, 2, 100, 100), trace_job(2, 1, 2, 10, 10), trace_job(3, 2, 2, 10, 10)});
    f.starts.room = 2;
    f.sched.route_to(1, 0);
    LONGS_EQUAL(0, f.sched.route(1));
    LONGS_EQUAL(-1, f.sched.route(2));
    f.pass(0);
    CHECK((f.starts.local == Ids{0}));
    CHECK((f.starts.cloud == Ids{1}));
}

// A group's partition schedules its jobs in priority order (submission
// under FCFS), whatever the order they were routed in, and apart from the
// local queue's head.
TEST(LocalScheduler, RoutedJobsStartInTheirGroupInPriorityOrder)
{
    Fixture f(site(2), {trace_job(1, 0, 2, 100, 100), trace_job(2, 1, 2, 10, 10), trace_job(3, 2, 2, 10, 10),
                        trace_job(4, 3, 2, 10, 10)});
    f.starts.room = 2;
    f.sched.route_to(3, 0);
    f.sched.route_to(2, 0);
    f.pass(0);
    CHECK((f.starts.local == Ids{0}));
    CHECK((f.starts.cloud == Ids{2})); // job 1, the head, is not routed
    f.sched.unroute(3);
    f.starts.room = 2;
    f.pass(1);
    CHECK((f.starts.cloud == Ids{2})); // job 3 is back to the local queue only
}

TEST(LocalScheduler, ARequeuedJobKeepsItsPlaceInTheQueue)
{
    Fixture f(site(2), {trace_job(1, 0, 2, 100, 100), trace_job(2, 1, 2, 10, 10), trace_job(3, 2, 2, 10, 10)});
    f.starts.room = 2;
    f.sched.route_to(1, 0);
    f.pass(0);
    CHECK((f.starts.cloud == Ids{1}));
    // Job 1's node is taken back as job 0 ends.
    f.jobs[1].phase = Phase::Pending;
    f.sched.requeue(1, 0);
    f.starts.room = 0;
    f.jobs[0].phase = Phase::Done;
    f.sched.end_local(0);
    f.pass(100);
    CHECK((f.starts.local == Ids{0, 1})); // ahead of job 2, submitted later
    LONGS_EQUAL(0, f.sched.route(1));
}

TEST(LocalScheduler, AJobWhoseGroupMayNotLaunchLosesItsRoute)
{
    Fixture f(site(2), {trace_job(1, 0, 2, 100, 100), trace_job(2, 1, 2, 10, 10)});
    f.starts.room = 2;
    f.sched.route_to(1, 0);
    f.sched.drop_route(1);
    f.pass(0);
    CHECK(f.starts.cloud.empty());
    LONGS_EQUAL(-1, f.sched.route(1));
}
