#include "app/cycle/job_why.hpp"

#include "app/cycle/policy_cycle_fakes.hpp"

#include <sstream>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::RecordingActuator;

namespace {

Job pending_job(JobId id, std::vector<std::string> partitions, BurstOption burst = BurstOption::Allow)
{
    Job j;
    j.id = id;
    j.cpus = 2;
    j.account = "bio";
    j.burst = burst;
    j.reason = "Resources";
    j.partitions = std::move(partitions);
    return j;
}

JobVerdict verdict(JobId job, bool burst, std::string group, double local_start)
{
    JobVerdict v;
    v.job = job;
    v.burst = burst;
    v.group = std::move(group);
    v.local_start = local_start;
    return v;
}

} // namespace

TEST_GROUP(JobWhy)
{
    std::vector<NodeGroup> groups;
    Snapshot snapshot;
    CycleOutcome outcome;

    void setup() override
    {
        NodeGroup g;
        g.name = "aws";
        g.partition = "cloud";
        groups = {g};
    }
};

TEST(JobWhy, SaysWhereEachPendingJobStandsAfterTheCycle)
{
    snapshot.jobs = {pending_job(1, {"local", "cloud"}), pending_job(2, {"local"}), pending_job(3, {"local"}),
                     pending_job(4, {"local"}), pending_job(5, {"local"}), pending_job(6, {"local"})};
    outcome.held_by_budget = {2};
    outcome.verdicts = {{"forecast", verdict(2, true, "aws", 600)},
                        {"forecast", verdict(3, false, "aws", 0)},
                        {"forecast", verdict(4, false, "aws", 300)},
                        {"forecast", verdict(5, false, "", 300)}};
    const auto whys = job_whys(outcome, snapshot, groups);
    STRCMP_EQUAL("cloud:aws", whys.at(1).c_str());
    STRCMP_EQUAL("budget", whys.at(2).c_str());
    STRCMP_EQUAL("local:starts-now", whys.at(3).c_str());
    STRCMP_EQUAL("local:cheaper", whys.at(4).c_str());
    STRCMP_EQUAL("local:no-group", whys.at(5).c_str());
    CHECK(!whys.count(6)); // nobody said anything about it
    LONGS_EQUAL(5, whys.size());
}

TEST(JobWhy, TheLastLinksVerdictCounts)
{
    snapshot.jobs = {pending_job(1, {"local"})};
    outcome.verdicts = {{"forecast", verdict(1, false, "", 300)}, {"predictive", verdict(1, false, "aws", 300)}};
    STRCMP_EQUAL("local:cheaper", job_whys(outcome, snapshot, groups).at(1).c_str());
}

TEST(JobWhy, NeverJobsAndJobsNotPendingHaveNoWord)
{
    Job running = pending_job(2, {"local", "cloud"});
    running.state = JobState::Running;
    snapshot.jobs = {pending_job(1, {"local", "cloud"}, BurstOption::Never), running};
    outcome.held_by_budget = {1};
    CHECK(job_whys(outcome, snapshot, groups).empty());
}

TEST(JobWhy, SendsAWordOnlyWhenItChangesAndClearsOneNoLongerTrue)
{
    RecordingActuator slurm;
    std::ostringstream text;
    Logger log(text, LogLevel::Error, false);
    JobWhyPublisher publisher;
    snapshot.jobs = {pending_job(1, {"local"}), pending_job(2, {"local"})};
    LONGS_EQUAL(2, publisher.publish({{1, "budget"}, {2, "local:cheaper"}}, snapshot, slurm, log));
    LONGS_EQUAL(0, publisher.publish({{1, "budget"}, {2, "local:cheaper"}}, snapshot, slurm, log));
    LONGS_EQUAL(2, publisher.publish({{1, "cloud:aws"}}, snapshot, slurm, log));
    std::string calls;
    for (const auto& c : slurm.whys)
        calls += c + "\n";
    STRCMP_EQUAL("job 1 why:budget\njob 2 why:local:cheaper\njob 1 why:cloud:aws\njob 2 why:\n", calls.c_str());
}

TEST(JobWhy, AJobThatLeftTheQueueKeepsItsWordAndIsForgotten)
{
    RecordingActuator slurm;
    std::ostringstream text;
    Logger log(text, LogLevel::Error, false);
    JobWhyPublisher publisher;
    snapshot.jobs = {pending_job(1, {"local", "cloud"})};
    publisher.publish({{1, "cloud:aws"}}, snapshot, slurm, log);
    snapshot.jobs[0].state = JobState::Running;
    LONGS_EQUAL(0, publisher.publish({}, snapshot, slurm, log));
    snapshot.jobs[0].state = JobState::Pending; // requeued: what it shows is not known to be ours
    LONGS_EQUAL(1, publisher.publish({{1, "budget"}}, snapshot, slurm, log));
    LONGS_EQUAL(2, slurm.whys.size());
}

TEST(JobWhy, SendsAtMostABoundedNumberPerCycleAndTheRestNext)
{
    RecordingActuator slurm;
    std::ostringstream text;
    Logger log(text, LogLevel::Error, false);
    JobWhyPublisher publisher;
    std::unordered_map<JobId, std::string> whys;
    for (JobId id = 1; id <= JobWhyPublisher::kMaxWhyUpdates + 50; ++id) {
        snapshot.jobs.push_back(pending_job(id, {"local"}));
        whys[id] = "local:cheaper";
    }
    LONGS_EQUAL(JobWhyPublisher::kMaxWhyUpdates, publisher.publish(whys, snapshot, slurm, log));
    LONGS_EQUAL(50, publisher.publish(whys, snapshot, slurm, log));
    LONGS_EQUAL(0, publisher.publish(whys, snapshot, slurm, log));
}
