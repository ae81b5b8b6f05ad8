#include "app/metrics/run_metrics_feed.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

Job job(JobId id, const std::string& account, std::uint32_t cpus, Time eligible, Time start)
{
    Job j;
    j.id = id;
    j.account = account;
    j.cpus = cpus;
    j.submit_time = eligible - 5;
    j.eligible_time = eligible;
    j.start_time = start;
    j.state = start > 0 ? JobState::Running : JobState::Pending;
    return j;
}

Node node(const std::string& name, std::uint32_t cpus, bool cloud, bool powered)
{
    Node n;
    n.name = name;
    n.cpus = cpus;
    n.base = NodeBaseState::Idle;
    n.flags = (cloud ? std::uint32_t(kNodeCloud) : 0u) | (cloud && !powered ? std::uint32_t(kNodePoweredDown) : 0u);
    return n;
}

Snapshot snapshot(std::vector<Job> jobs, bool cloud_powered)
{
    Snapshot s;
    s.jobs = std::move(jobs);
    s.nodes = {node("n1", 8, false, true), node("c1", 4, true, cloud_powered)};
    return s;
}

JobEnd end_of(JobId id, std::uint32_t cpus, Time eligible, Time start, Time end, const std::string& group)
{
    JobEnd e;
    e.id = id;
    e.cpus = cpus;
    e.eligible_time = eligible;
    e.start_time = start;
    e.end_time = end;
    e.elapsed = end - start;
    e.node_group = group;
    return e;
}

} // namespace

TEST_GROUP(RunMetricsFeed){};

// burstd started at 1000.  Job 1 started before (not counted), job 2 is seen
// running in two snapshots (counted once), job 5 starts and ends between two
// snapshots (counted from its job_end), job 3 runs on the cloud node c1,
// which is powered from 1060 to 1200 while jobs use 460 of its core-seconds.
TEST(RunMetricsFeed, CountsEachWaitOnceFromSnapshotsAndJobEnds)
{
    RunMetricsFeed feed(1000);
    feed.snapshot(snapshot({job(1, "a", 2, 900, 990), job(2, "a", 2, 964, 1000), job(3, "b", 4, 900, 0)}, false),
                  1000);
    feed.job_end(end_of(5, 1, 1000, 1010, 1040, ""));
    feed.job_end(end_of(1, 2, 900, 990, 1030, "cloud")); // busy 2 cores × 30 s since the epoch
    feed.snapshot(snapshot({job(2, "a", 2, 964, 1000), job(3, "b", 4, 900, 1050)}, true), 1060);
    feed.job_end(end_of(2, 2, 964, 1000, 1100, ""));
    feed.snapshot(snapshot({job(3, "b", 4, 900, 1050)}, true), 1120);
    feed.job_end(end_of(3, 4, 900, 1050, 1150, "cloud"));
    feed.job_end(end_of(3, 4, 900, 1050, 1150, "cloud")); // sent twice: ignored
    feed.snapshot(snapshot({}, false), 1200);

    const RunMetrics& m = feed.metrics();
    LONGS_EQUAL(3, m.jobs_started());
    LONGS_EQUAL(3, m.waits().count());
    LONGS_EQUAL(3, m.jobs_ended());
    DOUBLES_EQUAL((36 + 10 + 150) / 3.0, m.mean_wait(), 1e-12);
    DOUBLES_EQUAL((40 / 30.0) + 1.36 + 2.5, m.bounded_slowdown_sum(), 1e-12);
    DOUBLES_EQUAL(2 * 36 + 1 * 10 + 4 * 150, m.shortage_core_seconds(), 1e-9);
    DOUBLES_EQUAL(4 * 60 + 4 * 80, m.cloud_powered_core_seconds(), 0);
    DOUBLES_EQUAL(4 * 100 + 2 * 30, m.cloud_busy_core_seconds(), 0);
    DOUBLES_EQUAL(100, m.waste_core_seconds(), 0);
    // Demand 8 = supply 8, then 6 < 12, 4 < 12, 0 < 8 of R = 12 cores.
    const ProvisioningSamples& p = m.provisioning();
    LONGS_EQUAL(4, p.samples);
    DOUBLES_EQUAL(0, p.t_under(), 0);
    DOUBLES_EQUAL(0.75, p.t_over(), 0);
    DOUBLES_EQUAL((6 + 8 + 8) / (4 * 12.0), p.a_over(), 1e-15);
}

// A job waiting for its parents is no demand (the policies and burstsim
// count it from when they end); one waiting for a node is.
TEST(RunMetricsFeed, JobsHeldBackByADependencyAreNoDemand)
{
    RunMetricsFeed feed(1000);
    Job child = job(2, "a", 8, 990, 0);
    child.reason = "Dependency";
    feed.snapshot(snapshot({job(1, "a", 4, 990, 0), child}, false), 1000);
    const ProvisioningSamples& p = feed.metrics().provisioning();
    LONGS_EQUAL(1, p.samples);
    DOUBLES_EQUAL(0, p.t_under(), 0);               // 4 wanted, 8 local cores
    DOUBLES_EQUAL(4 / 12.0, p.a_over(), 1e-15);     // not 12 wanted, 4 short
}

// Slurm shows a job RUNNING from its allocation while its CLOUD node boots
// and restarts its clock when the node is up: the wait includes the boot.
TEST(RunMetricsFeed, AJobOnABootingNodeCountsOnceItIsUp)
{
    RunMetricsFeed feed(1000);
    Snapshot s = snapshot({job(4, "b", 4, 1000, 1010)}, true);
    s.jobs[0].nodes = {"c1"};
    s.nodes[1].flags |= kNodePoweringUp;
    feed.snapshot(s, 1020);
    LONGS_EQUAL(0, feed.metrics().jobs_started());
    s.nodes[1].flags &= ~std::uint32_t(kNodePoweringUp);
    s.jobs[0].start_time = 1130;
    feed.snapshot(s, 1140);
    LONGS_EQUAL(1, feed.metrics().jobs_started());
    DOUBLES_EQUAL(130, feed.metrics().mean_wait(), 0);
}

TEST(RunMetricsFeed, ForgetsCountedJobsTenMinutesAfterTheyLeaveTheSnapshots)
{
    RunMetricsFeed feed(1000);
    feed.snapshot(snapshot({job(2, "a", 2, 964, 1000)}, false), 1000);
    feed.snapshot(snapshot({}, false), 1100);
    LONGS_EQUAL(1, feed.remembered());
    feed.job_end(end_of(2, 2, 964, 1000, 1090, "")); // late: still known, wait not counted again
    feed.snapshot(snapshot({}, false), 1100 + RunMetricsFeed::kForgetAfter);
    LONGS_EQUAL(0, feed.remembered());
    LONGS_EQUAL(1, feed.metrics().jobs_started());
    LONGS_EQUAL(1, feed.metrics().jobs_ended());
}

TEST(RunMetricsFeed, JobEndsWithoutStartTimesCountOnlyCloudWork)
{
    RunMetricsFeed feed(1000);
    JobEnd old = end_of(7, 2, 0, 0, 1100, "cloud"); // an older plugin: no eligible or start time
    old.elapsed = 50;
    feed.job_end(old);
    LONGS_EQUAL(0, feed.metrics().jobs_started());
    LONGS_EQUAL(0, feed.metrics().jobs_ended());
    DOUBLES_EQUAL(100, feed.metrics().cloud_busy_core_seconds(), 0);
}

TEST(RunMetricsFeed, CostsAreTheSpendGrowthFromCycleToCycle)
{
    RunMetricsFeed feed(1000);
    auto view = [](Time start, Seconds interval, double total, double b) {
        SpendView v;
        v.interval_start = start;
        v.interval = interval;
        v.total = total;
        v.accounts = {{"", total - b}, {"b", b}};
        return v;
    };
    feed.spend(view(0, 86400, 5, 0));         // before this burstd: the base
    feed.spend(view(0, 86400, 5.5, 0.25));
    feed.spend(view(86400, 86400, 0.1, 0.05)); // a new interval starts from zero
    feed.spend(view(86400, 3600, 0.2, 0.1));  // a reload re-sized it: the base again
    const auto costs = feed.metrics().account_costs();
    DOUBLES_EQUAL(0.6, feed.metrics().total_cloud_cost(), 1e-12);
    DOUBLES_EQUAL(0.3, costs.at("b"), 1e-12);
    DOUBLES_EQUAL(0.3, costs.at(""), 1e-12);
}

TEST(RunMetricsFeed, ABudgetOverItsAmountIsOneViolationPerInterval)
{
    RunMetricsFeed feed(1000);
    BudgetStanding b;
    b.account = "b";
    b.limit = BudgetLimit{"*", 0.2, 86400};
    b.spent = 0.25;
    feed.budgets({b}, 1000);
    feed.budgets({b}, 2000);
    b.spent = 0.05;
    feed.budgets({b}, 90000);
    LONGS_EQUAL(2, feed.metrics().budget_intervals());
    LONGS_EQUAL(1, feed.metrics().budget_violations());
}
