#include "policy/hiring/predictive/predictive_policy.hpp"

#include "policy/policy_test_state.hpp"

#include <cmath>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::routes;
using burst::test::StateBuilder;

namespace {

std::unique_ptr<PredictivePolicy> make(std::initializer_list<std::pair<const char*, const char*>> kv)
{
    PolicyParams p;
    for (const auto& [k, v] : kv)
        p.set(k, v);
    auto policy = std::make_unique<PredictivePolicy>(p);
    p.reject_unread("predictive");
    return policy;
}

// 8 local cores all used by one job that started at 0 with a limit of
// `limit`; one waiting 8-core job with a 1 h limit; a group of 8-core nodes
// at 0.8 per node-hour (0.1 per core-hour) booting in 100 s.
StateBuilder full_site(Seconds limit)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("aws", 8, 4, 0.8, 100);
    b.running(1, 8, 0, "r", limit).pending(2, 8, BurstOption::Allow, "p", 3600);
    return b;
}

} // namespace

TEST_GROUP(PredictivePolicy){};

TEST(PredictivePolicy, BurstsWhenTheExpectedWaitCostsMoreThanTheCloud)
{
    // Local cores free in 10 h: waiting costs 8 cores × 10 h × λ=1 = 80 >
    // cloud 1 node × 0.8/h × (1 h + 100 s) ≈ 0.82.
    StateBuilder b = full_site(36000);
    auto policy = make({{"lambda", "1"}});
    ManualClock clock(0);
    auto r = routes(policy->decide(b.state, clock));
    LONGS_EQUAL(1, r.size());
    LONGS_EQUAL(2, r[0].job);
    STRCMP_EQUAL("aws", r[0].group.c_str());
}

TEST(PredictivePolicy, DoesNotBurstAJobThatStartsLocallyWithinABootTime)
{
    // Local cores free in 60 s, less than the 100 s boot: bursting only delays it.
    StateBuilder b = full_site(60);
    auto policy = make({{"lambda", "1000"}});
    ManualClock clock(0);
    CHECK(routes(policy->decide(b.state, clock)).empty());
}

TEST(PredictivePolicy, DoesNotBurstWhenTheCloudCostsMoreThanTheWait)
{
    // Wait 1 h: 8 core-hours of waiting at λ=0.05 = 0.4 < cloud ≈ 0.82.
    StateBuilder b = full_site(3600);
    auto policy = make({{"lambda", "0.05"}});
    ManualClock clock(0);
    Decision d = policy->decide(b.state, clock);
    CHECK(routes(d).empty());
    LONGS_EQUAL(1, d.notes.size());
    // The same wait at λ=0.2 is worth 1.6 minus the boot: burst.
    auto eager = make({{"lambda", "0.2"}});
    LONGS_EQUAL(1, routes(eager->decide(b.state, clock)).size());
}

TEST(PredictivePolicy, NeverBurstsJobsThatFitLocallyOrMayNotBurst)
{
    StateBuilder b;
    b.local("n1", 8, 4).group("aws", 8, 4, 0.8, 100);
    b.running(1, 4, 0, "r", 36000).pending(2, 4).pending(3, 8, BurstOption::Never, "p", 3600);
    auto policy = make({{"lambda", "100"}});
    ManualClock clock(0);
    CHECK(routes(policy->decide(b.state, clock)).empty());
}

TEST(PredictivePolicy, QueueBenefitCountsTheJobsBehindTheHead)
{
    // Alone, no job's own wait pays for a node: the head's 1 core × 1 h ×
    // λ=0.3 and the last one's 2 h are worth 0.3 and 0.6 < 0.8; with the 8
    // jobs behind it each gaining up to 1 h, the paper's rule hires.
    StateBuilder b;
    b.local("n1", 8, 8).group("aws", 8, 4, 0.8, 0);
    b.running(1, 8, 0, "r", 3600);
    for (JobId id = 2; id <= 10; ++id)
        b.pending(id, 1, BurstOption::Allow, "p", 3600);
    ManualClock clock(0);
    auto self = make({{"lambda", "0.3"}});
    CHECK(routes(self->decide(b.state, clock)).empty());
    auto queue = make({{"lambda", "0.3"}, {"benefit", "queue"}});
    CHECK(!routes(queue->decide(b.state, clock)).empty());
}

TEST(PredictivePolicy, QueueBenefitReevaluatesTheQueueAfterEachDispatchedHead)
{
    // One local core, busy for 1 h; two 1-core 1 h jobs wait 1 h and 2 h.
    // The head's own hour plus the hour it holds up the second one (0.6 at
    // λ=0.3) beats a 1 h cloud core at 0.5.  Once the head is in the cloud,
    // the second job waits only 1 h: 0.3 < 0.5, it stays (the stale 2 h
    // wait would have sent it too).
    StateBuilder b;
    b.local("n1", 1, 1).group("aws", 1, 4, 0.5, 0);
    b.running(1, 1, 0, "r", 3600);
    b.pending(2, 1, BurstOption::Allow, "p", 3600).pending(3, 1, BurstOption::Allow, "p", 3600);
    ManualClock clock(0);
    auto queue = make({{"lambda", "0.3"}, {"benefit", "queue"}});
    auto sent = routes(queue->decide(b.state, clock));
    LONGS_EQUAL(1, sent.size());
    LONGS_EQUAL(2, sent[0].job);
}

TEST(PredictivePolicy, ReplayBenefitCreditsTheQueueOnlyWhatTheHeadsCoresGiveIt)
{
    // One local core busy for 1 h; a 1 min head, then eight 1 h jobs.  The
    // paper's rule credits every queued job with the head's whole 1 h wait
    // (0.3 + 8 × 0.3 = 2.7 at λ=0.3) against a 1 min cloud core at 1: it
    // hires.  Bursting the head gives the jobs behind only its 1 min of
    // local core: 0.3 + 8 × 0.3 / 60 = 0.34 < 1, replay keeps it local.
    auto queue_of = [](Seconds head_limit, double price) {
        StateBuilder b;
        b.local("n1", 1, 1).group("aws", 1, 4, price, 0);
        b.running(1, 1, 0, "r", 3600);
        b.pending(2, 1, BurstOption::Allow, "p", head_limit);
        for (JobId id = 3; id <= 10; ++id)
            b.pending(id, 1, BurstOption::Allow, "p", 3600);
        return b;
    };
    ManualClock clock(0);
    StateBuilder short_head = queue_of(60, 60);
    auto paper = make({{"lambda", "0.3"}, {"benefit", "queue"}});
    LONGS_EQUAL(1, routes(paper->decide(short_head.state, clock)).size());
    auto replay = make({{"lambda", "0.3"}, {"benefit", "replay"}});
    CHECK(routes(replay->decide(short_head.state, clock)).empty());
    // A 1 h head hands each job behind it a whole hour: 0.3 + 8 × 0.3 = 2.7
    // against a 1 h cloud core at 1, and replay hires it.
    StateBuilder long_head = queue_of(3600, 1);
    auto sent = routes(replay->decide(long_head.state, clock));
    CHECK(!sent.empty());
    LONGS_EQUAL(2, sent[0].job);
}

namespace {

// One busy local core free in 1 h; cloud cores at 6 per hour, no boot.  A
// 1 min stage (job 2) submitted with its pipeline at `submit` became
// eligible now (36000); when `rest` > 0, a next stage (job 3, expected to
// run `rest`) is held by a dependency on it.
StateBuilder pipeline_stage(Time submit, Seconds rest)
{
    StateBuilder b;
    b.local("n1", 1, 1).group("aws", 1, 4, 6, 0);
    b.running(1, 1, 36000, "r", 3600);
    b.pending(2, 1, BurstOption::Allow, "p", 60);
    b.state.snapshot.jobs.back().submit_time = submit;
    b.state.snapshot.jobs.back().eligible_time = 36000;
    if (rest > 0) {
        b.pending(3, 1, BurstOption::Allow, "q", rest);
        Job& next = b.state.snapshot.jobs.back();
        next.submit_time = next.eligible_time = submit;
        next.reason = "Dependency";
        next.dependency = "afterany:2(unfulfilled)";
    }
    return b;
}

} // namespace

TEST(PredictivePolicy, ThroughputRewardIsPaidOnTheWholePipeline)
{
    // The stage's cloud minute costs 0.1.  Alone, the hour it would wait
    // cuts a 1 min job's R = 3600/t from 60 to under 1: burst.  With a
    // 10 h stage held behind it, t is the pipeline's (the paper's E_i
    // includes the stages still to run): 3600/36060 − 3600/39660 ≈ 0.009,
    // less than the cloud minute: keep it local.
    ManualClock clock(36000);
    auto policy = make({{"reward", "throughput"}, {"lambda", "1"}});
    StateBuilder alone = pipeline_stage(36000, 0);
    LONGS_EQUAL(1, routes(policy->decide(alone.state, clock)).size());
    StateBuilder long_pipeline = pipeline_stage(36000, 36000);
    CHECK(routes(policy->decide(long_pipeline.state, clock)).empty());
}

TEST(PredictivePolicy, PipelineRewardCountsTheTimeSinceThePipelineWasSubmitted)
{
    // A 1 min stage of a 1 h pipeline (59 min left after it) waits 1 h.
    // Submitted just now, R = 3600/t drops from 3600/3600 to 3600/7200:
    // 0.5, more than the 0.1 of a cloud minute: burst.  Submitted 10 h ago
    // (its earlier stages ran and waited), t is already 11 h: the hour
    // costs 3600/39600 − 3600/43200 ≈ 0.008: keep it local.
    ManualClock clock(36000);
    auto policy = make({{"reward", "throughput"}, {"lambda", "1"}});
    StateBuilder fresh = pipeline_stage(36000, 3540);
    LONGS_EQUAL(1, routes(policy->decide(fresh.state, clock)).size());
    StateBuilder late = pipeline_stage(0, 3540);
    CHECK(routes(policy->decide(late.state, clock)).empty());
}

TEST(PredictivePolicy, LateJobsEndNowOrMidwayThroughTheErrorWindow)
{
    auto immediate = make({{"late", "immediate"}});
    DOUBLES_EQUAL(0, immediate->remaining(150, 100, 0), 1e-9);
    DOUBLES_EQUAL(40, immediate->remaining(60, 100, 0), 1e-9);
    auto uniform = make({{"max_error", "0.5"}});
    // Window [50, 150]: at 110 s the expected end is midway to 150 s.
    DOUBLES_EQUAL(20, uniform->remaining(110, 100, 0), 1e-9);
    // Before the window opens the expected end is E; once it has opened,
    // midway to its end even before E (not E − elapsed).
    DOUBLES_EQUAL(60, uniform->remaining(40, 100, 0), 1e-9);
    DOUBLES_EQUAL(45, uniform->remaining(60, 100, 0), 1e-9);
    // Past the window without a limit: as long again as it has run.
    DOUBLES_EQUAL(200, uniform->remaining(200, 100, 0), 1e-9);
    // Past the window with a limit: midway to the limit.
    DOUBLES_EQUAL(400, uniform->remaining(200, 100, 1000), 1e-9);
    // Never past the time limit; unknown runtime means "at the limit".
    DOUBLES_EQUAL(5, uniform->remaining(110, 100, 115), 1e-9);
    DOUBLES_EQUAL(15, uniform->remaining(100, 0, 115), 1e-9);
    CHECK(std::isinf(uniform->remaining(100, 0, 0)));
}

TEST(PredictivePolicy, UniformLatePredictionKeepsBurstingForALateJob)
{
    // The running job was expected to take 100 s and is at 110 s; its limit
    // is 10 h.  "Immediately" predicts local cores now: no burst.  The
    // uniform window (max_error 0.9) predicts 85 s more... still below the
    // 100 s boot, so learned runtimes with a wide window and a long job:
    StateBuilder b = full_site(36000);
    JobEnd e;
    e.category = "r";
    e.elapsed = 1000;
    ManualClock clock(1500);
    auto immediate = make({{"late", "immediate"}, {"lambda", "10"}});
    immediate->observe(e);
    CHECK(routes(immediate->decide(b.state, clock)).empty());
    auto uniform = make({{"max_error", "0.9"}, {"lambda", "10"}});
    uniform->observe(e);
    // Window [100, 1900] s: expected end at (1900 − 1500) / 2 = 200 s from now.
    LONGS_EQUAL(1, routes(uniform->decide(b.state, clock)).size());
}

TEST(PredictivePolicy, ThroughputRewardValuesProportionalSpeedup)
{
    auto time = make({{"lambda", "1"}});
    auto rate = make({{"reward", "throughput"}, {"lambda", "1"}});
    // One core, 1 h runtime, 1 h wait cut to 0: time-oriented loses λ·1 h = 1;
    // throughput-oriented R = 3600/t: 3600/3600 − 3600/7200 = 0.5.
    DOUBLES_EQUAL(1.0, time->reward_loss(1, 3600, 3600, 3600), 1e-9);
    DOUBLES_EQUAL(0.5, rate->reward_loss(1, 3600, 3600, 3600), 1e-9);
    // A 1 min job gains far more from the same hour under throughput.
    CHECK(rate->reward_loss(1, 60, 3600, 3600) > 50 * rate->reward_loss(1, 3600, 3600, 3600));
}

TEST(PredictivePolicy, RejectsUnknownChoices)
{
    PolicyParams p;
    p.set("reward", "money");
    CHECK_THROWS(PolicyConfigError, PredictivePolicy{p});
}

TEST(PredictivePolicy, ChoosesTheGroupThroughTheExpander)
{
    // Local cores back in 10 h; an 8-core job of 1 h.  The cheap group (0.1
    // per core-hour) boots in an hour: 2 h × 0.8 = 1.6; the dear one (0.15)
    // has an idle node up: 1 h × 1.2.
    StateBuilder b;
    b.local("n1", 8, 8).group("cheap", 8, 4, 0.8, 3600).group("dear", 8, 4, 1.2, 100).up("dear-1");
    b.running(1, 8, 0, "r", 36000).pending(2, 8, BurstOption::Allow, "p", 3600);
    auto routed_to = [&b](std::initializer_list<std::pair<const char*, const char*>> kv) {
        ManualClock clock(0);
        auto r = routes(make(kv)->decide(b.state, clock));
        return r.size() == 1 ? r[0].group : std::to_string(r.size()) + " routes";
    };
    STRCMP_EQUAL("dear", routed_to({{"lambda", "1"}}).c_str()); // least-cost
    STRCMP_EQUAL("cheap", routed_to({{"lambda", "1"}, {"expander", "price"}}).c_str());
    // A group backing off (its launches failed) is not offered: the dear
    // group gets the job, though it must resume a node for it too.
    b.state.hire_limits["cheap"] = 0;
    b.up("dear-1", 8);
    STRCMP_EQUAL("dear", routed_to({{"lambda", "1"}, {"expander", "price"}}).c_str());
}
