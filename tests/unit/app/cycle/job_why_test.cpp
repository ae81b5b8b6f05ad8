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

TEST(JobWhy, SendsAWordOnlyWhereTheJobShowsAnother)
{
    RecordingActuator slurm;
    std::ostringstream text;
    Logger log(text, LogLevel::Error, false);
    JobWhyPublisher publisher;
    snapshot.time = 100;
    snapshot.jobs = {pending_job(1, {"local"}), pending_job(2, {"local"}), pending_job(3, {"local"})};
    snapshot.jobs[2].why = "budget"; // shown already, e.g. before a restart of burstd
    LONGS_EQUAL(2, publisher.publish({{1, "budget"}, {2, "local:cheaper"}, {3, "budget"}}, snapshot, 101, slurm, log));
    // The next snapshot was taken before the updates landed: nothing is sent twice.
    LONGS_EQUAL(0, publisher.publish({{1, "budget"}, {2, "local:cheaper"}, {3, "budget"}}, snapshot, 102, slurm, log));
    // A later one shows them; job 1's word changes, job 2's is no longer true.
    snapshot.time = 103;
    snapshot.jobs[0].why = "budget";
    snapshot.jobs[1].why = "local:cheaper";
    LONGS_EQUAL(2, publisher.publish({{1, "cloud:aws"}, {3, "budget"}}, snapshot, 104, slurm, log));
    std::string calls;
    for (const auto& c : slurm.whys)
        calls += c + "\n";
    STRCMP_EQUAL("job 1 why:budget\njob 2 why:local:cheaper\njob 1 why:cloud:aws\njob 2 why:\n", calls.c_str());
}

TEST(JobWhy, AWordSomeoneElseChangedIsPutRight)
{
    RecordingActuator slurm;
    std::ostringstream text;
    Logger log(text, LogLevel::Error, false);
    JobWhyPublisher publisher;
    snapshot.time = 100;
    snapshot.jobs = {pending_job(1, {"local"})};
    snapshot.jobs[0].why = "probe";
    LONGS_EQUAL(1, publisher.publish({{1, "budget"}}, snapshot, 101, slurm, log));
    STRCMP_EQUAL("job 1 why:budget", slurm.whys.back().c_str());
}

TEST(JobWhy, JobsNotPendingAreLeftWithTheirWord)
{
    RecordingActuator slurm;
    std::ostringstream text;
    Logger log(text, LogLevel::Error, false);
    JobWhyPublisher publisher;
    snapshot.jobs = {pending_job(1, {"local", "cloud"})};
    snapshot.jobs[0].state = JobState::Running;
    snapshot.jobs[0].why = "cloud:aws";
    LONGS_EQUAL(0, publisher.publish({}, snapshot, 101, slurm, log));
    CHECK(slurm.whys.empty());
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
    snapshot.time = 100;
    LONGS_EQUAL(JobWhyPublisher::kMaxWhyUpdates, publisher.publish(whys, snapshot, 101, slurm, log));
    LONGS_EQUAL(50, publisher.publish(whys, snapshot, 102, slurm, log));
    LONGS_EQUAL(0, publisher.publish(whys, snapshot, 103, slurm, log));
}
