// The thread stage over dependency chains: held jobs weighed on the cores
// their parents leave, and the allocators that plan over a chain
// (long-term, long-term-adaptive), with the plans of chain_plan.

#include "policy/threads/chain_plan.hpp"
#include "policy/threads/thread_allocator_registry.hpp"
#include "policy/threads/thread_stage.hpp"

#include "../policy_test_state.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

namespace {

JobEnd run_of(const std::string& category, std::uint32_t threads, Seconds elapsed)
{
    JobEnd e;
    e.category = category;
    e.cpus_per_task = e.cpus = threads;
    e.elapsed = elapsed;
    e.state = "COMPLETED";
    return e;
}

// c = 0.9 and E = 1000 s ("scal"); c = 0 and E = 600 s ("flat").
void learn(ScalingBook& book)
{
    for (int round = 0; round < 3; ++round)
        for (std::uint32_t t : {1u, 2u, 4u, 8u}) {
            book.observe(run_of("scal", t, 1000 * (0.9 / t + 0.1)));
            book.observe(run_of("flat", t, 600));
        }
}

std::unique_ptr<ThreadStage> stage(const std::string& name, std::map<std::string, std::string> params = {})
{
    return make_thread_stage(name, PolicyParams(params));
}

Job& auto_job(Job& j)
{
    j.threads.automatic = true;
    return j;
}

// Job `id` of `category`, one single-threaded task, held by afterok on `parent`.
void held_job(StateBuilder& b, JobId id, const std::string& category, JobId parent)
{
    b.pending(id, 1, BurstOption::Allow, category);
    Job& j = auto_job(b.state.snapshot.jobs.back());
    j.reason = "Dependency";
    j.dependency = "afterok:" + std::to_string(parent) + "(unfulfilled)";
}

std::map<JobId, std::uint32_t> chosen(const ThreadStageOutcome& out)
{
    std::map<JobId, std::uint32_t> v;
    for (const auto& a : out.actions) {
        const auto& t = std::get<SetJobThreads>(a.what);
        v[t.job] = t.cpus_per_task;
    }
    return v;
}

// A question points at its categories, as the stage's point at its jobs'.
const JobCategory* category_of(const std::string& name)
{
    static std::map<std::string, JobCategory> held;
    return &held.try_emplace(name, name).first->second;
}

ThreadQuestion chain_question(const ScalingBook& book, std::vector<std::string> stages)
{
    ThreadQuestion q;
    q.fit = book.fit(stages.front());
    q.category = category_of(stages.front());
    q.counts = {1, 2, 4, 8, 16};
    q.lambda = 1;
    q.local_price = 0.1 / 3600;
    for (std::size_t s = 1; s < stages.size(); ++s)
        q.rest.push_back(ChainStage{JobId(s + 1), category_of(stages[s]), book.fit(stages[s]), 1, 0, 1, true, 0});
    return q;
}

} // namespace

TEST_GROUP(ChainThreads)
{
    ScalingBook book;
    void setup() override { learn(book); }
};

// Every local core allocated, 8 of them to the parent: the held job starts
// on those when its parent ends, at the local price.  Without them every
// count would wait for cores at λ each, and 4 threads would be cheapest.
TEST(ChainThreads, AHeldJobIsWeighedOnTheCoresItsRunningParentWillLeave)
{
    StateBuilder b;
    b.local("n1", 16, 16).running(1, 8, 0, "scal");
    b.node("n1").partitions = {"local"};
    held_job(b, 2, "scal", 1);
    const auto v = chosen(stage("greedy")->decide(b.state, book));
    LONGS_EQUAL(1, v.size());
    LONGS_EQUAL(8, v.at(2));

    StateBuilder pending;
    pending.local("n1", 16, 16);
    pending.node("n1").partitions = {"local"};
    pending.pending(2, 1, BurstOption::Allow, "scal");
    auto_job(pending.state.snapshot.jobs.back());
    LONGS_EQUAL(4, chosen(stage("greedy")->decide(pending.state, book)).at(2));
}

TEST(ChainThreads, AHeldJobWhoseParentIsNotRunningIsLeftForLater)
{
    StateBuilder b;
    b.local("n1", 16, 0).pending(1, 1, BurstOption::Allow, "flat");
    b.node("n1").partitions = {"local"};
    held_job(b, 2, "scal", 1);
    const auto v = chosen(stage("greedy")->decide(b.state, book));
    CHECK(v.count(2) == 0);
}

TEST(ChainThreads, AHeldJobWithExplicitCpusIsNeverTouched)
{
    StateBuilder b;
    b.local("n1", 16, 1).running(1, 1, 0, "scal");
    b.node("n1").partitions = {"local"};
    held_job(b, 2, "scal", 1);
    b.state.snapshot.jobs.back().threads = ThreadOption{false, 1};
    CHECK(stage("greedy")->decide(b.state, book).actions.empty());
}

// The plan is made when the chain's first job is weighed, on idle cores;
// when the next job is about to run on the 2 cores its parent leaves and
// nothing else is free, long-term still gives it the planned count, where
// greedy gives it what fits.
TEST(ChainThreads, LongTermFollowsThePlanItMadeWhateverTheLoadWhenTheNextJobRuns)
{
    auto long_term = stage("long-term", {{"lambda", "1"}, {"counts", "1,2,4,8"}});
    StateBuilder first;
    first.local("n1", 16, 0).group("cloud", 8, 2, 8);
    first.node("n1").partitions = {"local"};
    first.pending(1, 1, BurstOption::Allow, "scal");
    auto_job(first.state.snapshot.jobs.back());
    held_job(first, 2, "scal", 1);
    const auto head = chosen(long_term->decide(first.state, book));
    LONGS_EQUAL(8, head.at(1)); // idle cores: the widest the counts allow

    StateBuilder later;
    later.local("n1", 16, 16).group("cloud", 8, 2, 8).running(1, 2, 0, "scal");
    later.node("n1").partitions = {"local"};
    held_job(later, 2, "scal", 1);
    LONGS_EQUAL(8, chosen(long_term->decide(later.state, book)).at(2)); // the plan's count

    const auto greedy = chosen(stage("greedy", {{"lambda", "1"}, {"counts", "1,2,4,8"}})->decide(later.state, book));
    LONGS_EQUAL(2, greedy.at(2)); // the parent's 2 cores, at the local price
}

TEST(ChainThreads, LongTermForgetsThePlansOfJobsThatAreGone)
{
    auto long_term = stage("long-term", {{"counts", "1,2,4,8"}});
    StateBuilder first;
    first.local("n1", 16, 0);
    first.node("n1").partitions = {"local"};
    first.pending(1, 1, BurstOption::Allow, "scal");
    auto_job(first.state.snapshot.jobs.back());
    held_job(first, 2, "scal", 1);
    long_term->decide(first.state, book);

    // Job 2 left the queue; a new job 2 (an id reused after a restart) is a chain's head.
    StateBuilder empty;
    empty.local("n1", 16, 0);
    empty.node("n1").partitions = {"local"};
    long_term->decide(empty.state, book);
    StateBuilder busy;
    busy.local("n1", 16, 15).group("cloud", 8, 2, 8);
    busy.node("n1").partitions = {"local"};
    busy.pending(2, 1, BurstOption::Allow, "flat");
    auto_job(busy.state.snapshot.jobs.back());
    CHECK(long_term->decide(busy.state, book).actions.empty()); // "flat" stays at one thread
}

TEST(ChainThreads, TheIdealPlanOfATimeRewardIsEachStagesCheapestCount)
{
    const ThreadQuestion q = chain_question(book, {"scal", "flat", "scal"});
    const ChainPlan ideal = ideal_plan(q);
    LONGS_EQUAL(3, ideal.size());
    LONGS_EQUAL(8, ideal[0]); // λ = 1 per core-hour, a core 0.1: J is lowest at 8 for "scal"
    LONGS_EQUAL(1, ideal[1]);  // nothing to gain for "flat"
    LONGS_EQUAL(8, ideal[2]);
}

TEST(ChainThreads, TheShortlistInvestsMoreCoreTimeOnlyForLessCost)
{
    const ThreadQuestion q = chain_question(book, {"scal", "flat", "scal"});
    const std::vector<ChainPlan> plans = plan_shortlist(q, 10);
    CHECK(plans.size() >= 2);
    CHECK(plans.size() <= 10);
    CHECK((plans.front() == ChainPlan{1, 1, 1})); // the least core-time
    CHECK(plans.back() == ideal_plan(q));          // the cheapest on idle cores
    const StagePricing local{[&](std::size_t, std::uint32_t) { return q.local_price; }, 1};
    for (std::size_t i = 1; i < plans.size(); ++i)
        CHECK(plan_cost(q, plans[i], local, 0) < plan_cost(q, plans[i - 1], local, 0));
}

// Throughput: the reward is paid for the chain's whole time, so a job that
// expects the rest of its chain to run fast (adaptive: the ideal plan)
// values each second it saves more than one that expects it single-threaded
// (greedy), and widens where greedy does not.
TEST(ChainThreads, UnderTheThroughputRewardAdaptiveIsBolderThanGreedy)
{
    const std::map<std::string, std::string> params{
        {"reward", "throughput"}, {"reward_scale", "10000"}, {"local_price", "0"}, {"counts", "1,2,4,8,16"}};
    StateBuilder b;
    b.local("n1", 16, 12).group("cloud", 8, 2, 8);
    b.node("n1").partitions = {"local"};
    b.pending(1, 1, BurstOption::Allow, "scal");
    auto_job(b.state.snapshot.jobs.back());
    held_job(b, 2, "scal", 1);
    held_job(b, 3, "scal", 2);
    held_job(b, 4, "scal", 3);
    const auto greedy = chosen(stage("greedy", params)->decide(b.state, book));
    const auto adaptive = chosen(stage("long-term-adaptive", params)->decide(b.state, book));
    // 4 idle cores: greedy, expecting 3000 s more after this job, takes
    // those; adaptive, expecting the rest at 16 threads, pays the cloud's
    // price for 16.
    LONGS_EQUAL(4, greedy.at(1));
    LONGS_EQUAL(16, adaptive.at(1));
}

// A cheap group's cores already up: greedy widens a job routed there as far
// as they go, adaptive no further than the ideal plan on (dear) local cores.
TEST(ChainThreads, AdaptiveNeverGoesBeyondTheIdealPlansCount)
{
    StateBuilder b;
    b.local("n1", 16, 16).group("cloud", 8, 2, 0.8); // 0.1 per core-hour
    b.node("n1").partitions = {"local"};
    b.up("cloud-1");
    b.pending(1, 1, BurstOption::Allow, "scal");
    auto_job(b.state.snapshot.jobs.back()).partitions = {"local", "cloud"};
    const std::map<std::string, std::string> params{{"local_price", "2"}, {"counts", "1,2,4,8"}};
    LONGS_EQUAL(8, chosen(stage("greedy", params)->decide(b.state, book)).at(1));
    // Idle local cores at 2 per core-hour: J(t) = T(t)(2t + 1) is lowest at 2.
    LONGS_EQUAL(2, chosen(stage("long-term-adaptive", params)->decide(b.state, book)).at(1));
}

// Equal costs under the throughput reward are negative: the job keeps its count.
TEST(ChainThreads, UnderTheThroughputRewardAJobKeepsACountThatCostsNoMore)
{
    StateBuilder b;
    b.local("n1", 16, 0);
    b.node("n1").partitions = {"local"};
    b.pending(1, 2, BurstOption::Allow, "flat");
    Job& j = auto_job(b.state.snapshot.jobs.back());
    j.cpus_per_task = 2;
    const auto out =
        stage("greedy", {{"reward", "throughput"}, {"reward_scale", "1000"}, {"local_price", "0"}})->decide(b.state, book);
    CHECK(out.actions.empty());
}

// Three jobs held on one 8-core parent, every other core busy: the first
// takes the parent's 8, the others find none of them left.
TEST(ChainThreads, JobsHeldOnOneParentShareItsCores)
{
    StateBuilder b;
    b.local("n1", 16, 16).running(1, 8, 0, "scal");
    b.node("n1").partitions = {"local"};
    held_job(b, 2, "scal", 1);
    held_job(b, 3, "scal", 1);
    held_job(b, 4, "scal", 1);
    const auto v = chosen(stage("greedy")->decide(b.state, book));
    LONGS_EQUAL(8, v.at(2));
    LONGS_EQUAL(4, v.at(3)); // every count waits at λ: 4 is cheapest, as for a waiting job
    LONGS_EQUAL(4, v.at(4));
}

// 14 idle local cores.  Job 2, first in priority, waits for a parent that
// started 10 s ago (its fit says 1000 s); job 4 for one due 10 s from now,
// within the cycle: job 4 starts first and gets the idle cores; job 2 is
// weighed on what job 4 leaves, and its claim leaves the advice for new
// jobs alone (it is weighed again when its start comes close).
TEST(ChainThreads, TheHeldJobThatStartsFirstTakesTheIdleCores)
{
    StateBuilder b;
    b.state.snapshot.time = 10000;
    b.local("n1", 16, 2).running(1, 1, 9990, "scal").running(3, 1, 9010, "scal");
    b.node("n1").partitions = {"local"};
    held_job(b, 2, "scal", 1);
    held_job(b, 4, "scal", 3);
    const auto stage_30 = stage("greedy");
    stage_30->set_decision_interval(30);
    const auto v = chosen(stage_30->decide(b.state, book));
    LONGS_EQUAL(8, v.at(4));
    LONGS_EQUAL(4, v.at(2));
    LONGS_EQUAL(4, stage_30->advice().at("scal")); // 7 idle cores left

    // Decided every 5 s, job 4 is not due before the next cycle: neither
    // claims, each is sized for the 14 idle cores, and so is a new job.
    const auto stage_5 = stage("greedy");
    stage_5->set_decision_interval(5);
    const auto w = chosen(stage_5->decide(b.state, book));
    LONGS_EQUAL(8, w.at(4));
    LONGS_EQUAL(8, w.at(2));
    LONGS_EQUAL(8, stage_5->advice().at("scal"));
}

// Job 3's parent is completing: its child is due now, ahead of job 2's,
// whose parent's fit ends in 990 s.  Job 5's parent has run five times its
// fit (1000 s) and has no limit: a long one, its child not due.  Job 7's
// has run 1500 s: it ends any moment.
TEST(ChainThreads, CompletingAndOverrunParentsAreDueButNotLongOnes)
{
    StateBuilder b;
    b.state.snapshot.time = 10000;
    b.local("n1", 16, 4)
        .running(1, 1, 9990, "scal")
        .running(3, 1, 9500, "scal")
        .running(5, 1, 5000, "scal")
        .running(7, 1, 8500, "scal");
    b.node("n1").partitions = {"local"};
    b.state.snapshot.jobs[1].state = JobState::Completing;
    held_job(b, 2, "scal", 1);
    held_job(b, 4, "scal", 3);
    held_job(b, 6, "scal", 5);
    held_job(b, 8, "scal", 7);
    const auto greedy = stage("greedy");
    const auto v = chosen(greedy->decide(b.state, book));
    LONGS_EQUAL(8, v.at(4)); // 12 idle and its parent's core
    LONGS_EQUAL(4, v.at(8)); // 5 left and its parent's
    LONGS_EQUAL(2, v.at(2)); // 2 left and its parent's; not due: claims none
    LONGS_EQUAL(2, v.at(6));
    LONGS_EQUAL(2, greedy->advice().at("scal")); // jobs 4 and 8 are due
}

// afterok:1?afterok:3 waits for either: due when the first ends.
TEST(ChainThreads, AJobWaitingForEitherParentIsDueWhenTheFirstEnds)
{
    const auto advice = [&](const std::string& dependency) {
        StateBuilder b;
        b.state.snapshot.time = 10000;
        b.local("n1", 16, 4).running(1, 1, 9990, "scal").running(3, 1, 9010, "scal");
        b.node("n1").partitions = {"local"};
        held_job(b, 2, "scal", 1);
        b.state.snapshot.jobs.back().dependency = dependency;
        const auto greedy = stage("greedy");
        greedy->decide(b.state, book);
        return greedy->advice().at("scal");
    };
    // 12 idle cores: job 2 takes 8 with its parents' 2 and, due, leaves 6.
    LONGS_EQUAL(4, advice("afterok:1(unfulfilled)?afterok:3(unfulfilled)"));
    LONGS_EQUAL(8, advice("afterok:1(unfulfilled),afterok:3(unfulfilled)")); // due in 990 s: claims nothing
}

TEST(ChainThreads, OnlyJobsThatWaitForAnEndAreTheChain)
{
    StateBuilder b;
    b.local("n1", 16, 16).running(1, 8, 0, "scal");
    b.node("n1").partitions = {"local"};
    held_job(b, 2, "scal", 1);
    b.state.snapshot.jobs.back().dependency = "afternotok:1(unfulfilled)";
    CHECK(stage("greedy")->decide(b.state, book).actions.empty()); // it runs instead of its parent's success
}
