#include "policy/threads/thread_allocator_registry.hpp"
#include "policy/threads/thread_stage.hpp"

#include "../policy_test_state.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

namespace {

// c = 0.9, E = 1000 s: T(t) = 1000 (0.9/t + 0.1).
Seconds scalable(std::uint32_t t) { return 1000 * (0.9 / t + 0.1); }

// A completed one-task run of `category`.
JobEnd run_of(const std::string& category, std::uint32_t threads, Seconds elapsed, double size = 0)
{
    JobEnd e;
    e.category = category;
    e.cpus_per_task = threads;
    e.cpus = threads;
    e.elapsed = elapsed;
    e.size = size;
    e.state = "COMPLETED";
    return e;
}

void learn(ScalingBook& book, const std::string& category, Seconds (*time)(std::uint32_t))
{
    for (int round = 0; round < 3; ++round)
        for (std::uint32_t t : {1u, 2u, 4u, 8u})
            book.observe(run_of(category, t, time(t)));
}

// Category "sized": E = 100·size seconds, c = 0.9, at sizes 1 and 10.
void learn_sized(ScalingBook& book)
{
    for (int round = 0; round < 3; ++round)
        for (std::uint32_t t : {1u, 2u, 4u, 8u})
            for (double size : {1.0, 10.0})
                book.observe(run_of("sized", t, 100 * size * (0.9 / t + 0.1), size));
}

Seconds flat(std::uint32_t) { return 600; }

std::unique_ptr<ThreadStage> stage(const std::string& name, std::map<std::string, std::string> params = {})
{
    return make_thread_stage(name, PolicyParams(params));
}

// A job asking --threads=auto, one task, waiting for local nodes.
void auto_job(StateBuilder& b, JobId id, const std::string& category, std::uint32_t cpus_per_task = 1,
              std::uint32_t tasks = 1)
{
    b.pending(id, cpus_per_task * tasks, BurstOption::Allow, category);
    Job& j = b.state.snapshot.jobs.back();
    j.threads.automatic = true;
    j.cpus_per_task = cpus_per_task;
}

// A 16-core local node with `busy` cores allocated; a cloud group of 8-core
// nodes at `price` per node-hour (8: one per core-hour, λ's unit).
StateBuilder site(std::uint32_t busy, double price = 8)
{
    StateBuilder b;
    b.local("n1", 16, busy).group("cloud", 8, 2, price);
    b.node("n1").partitions = {"local"};
    return b;
}

std::vector<SetJobThreads> chosen(const ThreadStageOutcome& out)
{
    std::vector<SetJobThreads> v;
    for (const auto& a : out.actions)
        v.push_back(std::get<SetJobThreads>(a.what));
    return v;
}

} // namespace

TEST_GROUP(ThreadStage)
{
    ScalingBook book;
    void setup() override
    {
        learn(book, "scal", scalable);
        learn(book, "flat", flat);
    }
};

TEST(ThreadStage, GreedyGivesAScalableJobEveryIdleLocalCore)
{
    StateBuilder b = site(0);
    auto_job(b, 1, "scal");
    const auto v = chosen(stage("greedy")->decide(b.state, book));
    LONGS_EQUAL(1, v.size());
    LONGS_EQUAL(1, v[0].job);
    LONGS_EQUAL(16, v[0].cpus_per_task); // the widest local node
    LONGS_EQUAL(16, v[0].cpus);
}

// Busy local cores: every count pays the dear price (the cloud's, one per
// core-hour), so J(t) = T(t)(t + 1)/3600 is lowest at 4 threads.
TEST(ThreadStage, GreedyGivesFewerThreadsOnceLocalCoresAreBusy)
{
    StateBuilder b = site(16);
    auto_job(b, 1, "scal");
    const auto v = chosen(stage("greedy")->decide(b.state, book));
    LONGS_EQUAL(1, v.size());
    LONGS_EQUAL(4, v[0].cpus_per_task);
}

TEST(ThreadStage, EarlierJobsTakeTheFreeCoresFirst)
{
    StateBuilder b = site(0);
    auto_job(b, 1, "scal");
    auto_job(b, 2, "scal");
    const auto v = chosen(stage("greedy")->decide(b.state, book));
    LONGS_EQUAL(2, v.size());
    LONGS_EQUAL(16, v[0].cpus_per_task);
    LONGS_EQUAL(4, v[1].cpus_per_task);
}

TEST(ThreadStage, AJobRoutedToADearGroupRunsSingleThreaded)
{
    StateBuilder b = site(16, 64); // 8 per core-hour
    auto_job(b, 1, "scal", 4);
    b.state.snapshot.jobs.back().partitions = {"local", "cloud"};
    const auto v = chosen(stage("greedy")->decide(b.state, book));
    LONGS_EQUAL(1, v.size());
    LONGS_EQUAL(1, v[0].cpus_per_task);
    CHECK(stage("greedy")->decide(b.state, book).actions[0].reason.find("on node group cloud") != std::string::npos);
}

// Its hires were sized for what it asks: it is widened only into cores of
// the group's nodes that are up and that no job claims.
TEST(ThreadStage, AJobRoutedToAGroupIsMadeWiderOnlyIntoCoresAlreadyUp)
{
    StateBuilder b = site(0, 1); // cheap cloud: more threads would pay there
    auto_job(b, 1, "scal", 2);
    b.state.snapshot.jobs.back().partitions = {"cloud"};
    CHECK(stage("greedy")->decide(b.state, book).actions.empty()); // its nodes are powered down

    b.up("cloud-1", 2); // one 8-core node up, 2 of its cores running another job
    const auto v = chosen(stage("greedy")->decide(b.state, book));
    LONGS_EQUAL(1, v.size());
    LONGS_EQUAL(4, v[0].cpus_per_task); // 6 idle cores: 4 fit, 8 do not
}

// 4 tasks on one node: 4 threads each fill the 16-core node.
TEST(ThreadStage, ItsTasksMustFitOnTheJobsNodeCount)
{
    StateBuilder b = site(0);
    auto_job(b, 1, "scal", 1, 4);
    const auto v = chosen(stage("greedy")->decide(b.state, book));
    LONGS_EQUAL(1, v.size());
    LONGS_EQUAL(4, v[0].cpus_per_task);
    LONGS_EQUAL(16, v[0].cpus);
    b.state.snapshot.jobs.back().node_count = 2; // on two such nodes, 8 threads each fit
    b.local("n2", 16, 0).node("n2").partitions = {"local"};
    LONGS_EQUAL(8, chosen(stage("greedy")->decide(b.state, book))[0].cpus_per_task);
}

// A 3-task array: greedy counts the cores of every task not yet started.
TEST(ThreadStage, AnArrayTakesCoresForEachOfItsTasks)
{
    StateBuilder b = site(0);
    auto_job(b, 1, "scal");
    b.state.snapshot.jobs.back().array_task_count = 3;
    LONGS_EQUAL(4, chosen(stage("greedy")->decide(b.state, book))[0].cpus_per_task); // 3 x 4 fit in 16, 3 x 8 not
}

TEST(ThreadStage, AJobThatMayNotBurstPricesBusyCoresAsWaiting)
{
    StateBuilder b = site(16, 0.8); // a cloud at 0.1 per core-hour would make 8 threads worth it
    auto_job(b, 1, "scal");
    LONGS_EQUAL(8, chosen(stage("greedy")->decide(b.state, book))[0].cpus_per_task);
    b.state.snapshot.jobs.back().burst = BurstOption::Never;
    LONGS_EQUAL(4, chosen(stage("greedy")->decide(b.state, book))[0].cpus_per_task);
}

TEST(ThreadStage, TheSiteBoundsTheCounts)
{
    StateBuilder b = site(0);
    auto_job(b, 1, "scal");
    LONGS_EQUAL(8, chosen(stage("greedy", {{"max", "8"}})->decide(b.state, book))[0].cpus_per_task);
    LONGS_EQUAL(3, chosen(stage("greedy", {{"counts", "3,1"}})->decide(b.state, book))[0].cpus_per_task);
}

TEST(ThreadStage, AJobThatDoesNotScaleKeepsOneThread)
{
    StateBuilder b = site(0);
    auto_job(b, 1, "flat");
    CHECK(stage("greedy")->decide(b.state, book).actions.empty());
    auto_job(b, 2, "flat", 4); // its 4 idle cores cost nothing locally, but not beyond them
    CHECK(stage("greedy")->decide(b.state, book).actions.empty());
    b.node("n1").alloc_cpus = 16;
    const auto v = chosen(stage("greedy")->decide(b.state, book));
    LONGS_EQUAL(1, v.size());
    LONGS_EQUAL(2, v[0].job);
    LONGS_EQUAL(1, v[0].cpus_per_task);
}

TEST(ThreadStage, UnknownCategoriesAndUsersCountsAreLeftAlone)
{
    StateBuilder b = site(0);
    auto_job(b, 1, "never-seen");
    b.pending(2, 4, BurstOption::Allow, "scal"); // --threads=4 or -c 4
    b.state.snapshot.jobs.back().threads.count = 4;
    b.state.snapshot.jobs.back().cpus_per_task = 4;
    b.pending(3, 1, BurstOption::Allow, "scal"); // no --threads at all
    CHECK(stage("greedy", {{"explore", "0"}})->decide(b.state, book).actions.empty());
}

// Jobs 15 and 23 are in the explored tenth (a hash of the id), job 2 is not.
TEST(ThreadStage, AShareOfAnUnknownCategorysJobsIsExploredOnIdleLocalCores)
{
    StateBuilder b = site(0);
    for (JobId id : {2, 15, 23})
        auto_job(b, id, "never-seen");
    const ThreadStageOutcome out = stage("greedy")->decide(b.state, book);
    const auto v = chosen(out);
    LONGS_EQUAL(2, v.size());
    LONGS_EQUAL(15, v[0].job);
    LONGS_EQUAL(4, v[0].cpus_per_task);
    LONGS_EQUAL(23, v[1].job);
    STRCMP_EQUAL("category never-seen is not known yet (0.0 runs at 0 thread count(s)): exploring at 4 CPUs per task "
                 "on idle local cores (explore=0.1 of its jobs)",
                 out.actions[0].reason.c_str());
    LONGS_EQUAL(2, chosen(stage("greedy", {{"explore_threads", "2"}})->decide(b.state, book))[0].cpus_per_task);
    CHECK(stage("greedy", {{"explore", "0"}})->decide(b.state, book).actions.empty());
}

TEST(ThreadStage, ExplorationNeverTakesBusyCoresOrTheCloud)
{
    StateBuilder busy = site(14); // 2 cores free: not enough for 4
    auto_job(busy, 15, "never-seen");
    CHECK(stage("greedy")->decide(busy.state, book).actions.empty());
    StateBuilder routed = site(0, 1);
    auto_job(routed, 15, "never-seen");
    routed.state.snapshot.jobs.back().partitions = {"cloud"};
    CHECK(stage("greedy")->decide(routed.state, book).actions.empty());
}

TEST(ThreadStage, APendingJobChangesOnlyForAWorthwhileGain)
{
    StateBuilder b = site(16);
    auto_job(b, 1, "scal", 8); // J(8) = 1912 against J(4) = 1625: 18 % dearer
    LONGS_EQUAL(4, chosen(stage("greedy")->decide(b.state, book))[0].cpus_per_task);
    CHECK(stage("greedy", {{"min_gain", "0.2"}})->decide(b.state, book).actions.empty());
}

TEST(ThreadStage, TheSharingFactorLeavesFreeCoresToJobsLikeIt)
{
    StateBuilder b = site(0);
    auto_job(b, 1, "scal");
    LONGS_EQUAL(8, chosen(stage("greedy", {{"sharing", "2"}})->decide(b.state, book))[0].cpus_per_task);
}

TEST(ThreadStage, BestConstantIgnoresLoad)
{
    StateBuilder b = site(16, 64);
    auto_job(b, 1, "scal");
    auto_job(b, 2, "scal");
    const auto v = chosen(stage("best-constant")->decide(b.state, book));
    LONGS_EQUAL(2, v.size());
    LONGS_EQUAL(16, v[0].cpus_per_task);
    LONGS_EQUAL(16, v[1].cpus_per_task); // the same plan, busy cores or not
}

TEST(ThreadStage, AdvisesEachKnownCategoryForANewJobOnLocalNodesAsTheQueueLeavesThem)
{
    auto greedy = stage("greedy");
    StateBuilder idle = site(0);
    CHECK(greedy->decide(idle.state, book).advice_changed);
    CHECK(greedy->advice() == (ThreadAdvice{{"flat", 1}, {"scal", 16}}));
    CHECK(!greedy->decide(idle.state, book).advice_changed);
    StateBuilder busy = site(0);
    busy.pending(1, 16, BurstOption::Allow, "other");
    CHECK(greedy->decide(busy.state, book).advice_changed);
    CHECK(greedy->advice() == (ThreadAdvice{{"flat", 1}, {"scal", 4}}));
}

TEST(ThreadStage, AdviceFollowsWhatIsLearnedOfEachCategory)
{
    auto greedy = stage("greedy");
    StateBuilder busy = site(16);
    greedy->decide(busy.state, book);
    learn(book, "more", scalable); // a third category becomes known
    CHECK(greedy->decide(busy.state, book).advice_changed);
    CHECK(greedy->advice() == (ThreadAdvice{{"flat", 1}, {"more", 4}, {"scal", 4}}));
    for (int i = 0; i < 200; ++i) // "more" stops scaling: its newer runs outweigh the older
        book.observe(run_of("more", 1u << (i % 4), 600));
    CHECK(greedy->decide(busy.state, book).advice_changed);
    CHECK(greedy->advice() == (ThreadAdvice{{"flat", 1}, {"more", 1}, {"scal", 4}}));
}

TEST(ThreadStage, AtMostMaxChangesJobsChangePerCycleTheFirstInPriorityOrder)
{
    StateBuilder b = site(0);
    for (JobId id = 1; id <= 3; ++id)
        auto_job(b, id, "flat", 4);
    b.node("n1").alloc_cpus = 16;
    const auto v = chosen(stage("greedy", {{"max_changes", "2"}})->decide(b.state, book));
    LONGS_EQUAL(2, v.size());
    LONGS_EQUAL(1, v[0].job);
    LONGS_EQUAL(2, v[1].job);
}

TEST(ThreadStage, ABadThreadPolicyIsNamedWithWhatIsWrong)
{
    std::vector<std::string> errors;
    PolicySpec spec{"greedy", {{"counts", "1,x"}}, "burstd.conf:7"};
    CHECK(make_thread_stage(spec, errors) == nullptr);
    LONGS_EQUAL(1, errors.size());
    STRCMP_EQUAL("burstd.conf:7: ThreadPolicy=greedy: policy parameter counts='1,x': expected integers in [1, 1024] "
                 "separated by commas, got 'x'",
                 errors[0].c_str());
    errors.clear();
    spec = PolicySpec{"greed", {}, "burstd.conf:7"};
    CHECK(make_thread_stage(spec, errors) == nullptr);
    CHECK(errors[0].find("unknown thread policy 'greed' (did you mean greedy?)") != std::string::npos);
    errors.clear();
    spec = PolicySpec{"best-constant", {{"sharing", "2"}}, "burstd.conf:7"};
    CHECK(make_thread_stage(spec, errors) == nullptr);
    CHECK(errors[0].find("unknown parameter(s) sharing") != std::string::npos);
    errors.clear();
    spec = PolicySpec{"greedy", {{"max", "2"}, {"counts", "4,8"}}, "burstd.conf:7"};
    CHECK(make_thread_stage(spec, errors) == nullptr);
    CHECK(errors[0].find("no allowed count is at most max=2") != std::string::npos);
}

// A job's own size sets its cost.
TEST(ThreadStage, ASizedJobIsWeighedAtItsSize)
{
    learn_sized(book);
    const ScalingFit fit = book.fit("sized");
    CHECK(fit.known);
    DOUBLES_EQUAL(100, fit.a, 1e-6);
    StateBuilder b = site(16);
    auto_job(b, 1, "sized");
    b.state.snapshot.jobs.back().size = 10;
    const ThreadStageOutcome out = stage("greedy")->decide(b.state, book);
    LONGS_EQUAL(4, chosen(out)[0].cpus_per_task);
    CHECK(out.actions[0].reason.find("E 1000 s") != std::string::npos);
}

// Eight 2-core nodes with one core free each: 8 free cores, but no 2-wide task fits.
TEST(ThreadStage, FreeCoresCountOnlyWhereATaskFitsOnOneNode)
{
    StateBuilder b;
    for (int i = 1; i <= 8; ++i) {
        const std::string name = "n" + std::to_string(i);
        b.local(name, 2, 1).node(name).partitions = {"local"};
    }
    b.group("cloud", 8, 2, 8);
    auto_job(b, 1, "scal");
    CHECK(stage("greedy")->decide(b.state, book).actions.empty()); // 2 threads would pay the cloud's price
    b.node("n8").alloc_cpus = 0;
    b.node("n8").base = NodeBaseState::Idle;
    LONGS_EQUAL(2, chosen(stage("greedy")->decide(b.state, book))[0].cpus_per_task);
}

TEST(ThreadStage, ClaimsUseTheCoresLeftOverBeforeWholeSlots)
{
    FreeTaskSlots free({1, 4});
    free.add_node(6); // one 4-wide slot and 2 spare cores
    free.add_node(4);
    LONGS_EQUAL(2, free.tasks(4));
    free.take(2); // the spare cores
    LONGS_EQUAL(2, free.tasks(4));
    free.take(1); // breaks a slot, leaving 3 spare
    LONGS_EQUAL(1, free.tasks(4));
    LONGS_EQUAL(7, free.tasks(1));
    LONGS_EQUAL(3, free.tasks(2)); // not a width: as if on one node
}

// A category learned by size, asked about a job without one: its choice stands.
TEST(ThreadStage, AJobWithoutASizeInASizedCategoryStillGetsAChoice)
{
    learn_sized(book);
    CHECK_FALSE(book.observe(run_of("sized", 1, 5))); // would count as size 0
    StateBuilder b = site(16);
    auto_job(b, 1, "sized");
    auto greedy = stage("greedy");
    LONGS_EQUAL(4, chosen(greedy->decide(b.state, book))[0].cpus_per_task);
    LONGS_EQUAL(4, greedy->advice().at("sized"));
}
