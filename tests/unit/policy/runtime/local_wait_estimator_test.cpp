#include "policy/runtime/local_wait_estimator.hpp"
#include "policy/policy_test_state.hpp"

#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

namespace {

// One local node of 4 cores, busy until 900 s from now (a job of limit
// 1000 started 100 s ago, expected to run its limit without history), a
// group "c", and in priority order: 1 (4 cores, limit 600), 2 routed to
// "c" (limit 500), 3 (4 cores, limit 600), 4 (4 cores, limit 700).
struct Site {
    Site()
    {
        b.local("l1", 4, 4).group("c", 4, 2, 0.4).running(10, 4, 0, "c", 1000);
        b.pending(1, 4, BurstOption::Allow, "c", 600)
            .pending(2, 4, BurstOption::Allow, "c", 500)
            .pending(3, 4, BurstOption::Allow, "c", 600)
            .pending(4, 4, BurstOption::Allow, "c", 700);
        b.state.snapshot.jobs[2].partitions = {"local", group_partition(b.state.groups[0])};
        view = SiteView::of(b.state);
    }
    StateBuilder b;
    SiteView view;
};

} // namespace

TEST_GROUP(LocalWaitEstimator){};

TEST(LocalWaitEstimator, EachJobsCoresStartAndRuntimeWithRoutedAndUnplayedJobsMarked)
{
    Site site;
    LocalWaitEstimator waits(3); // job 4 is beyond the jobs played
    waits.begin(site.view, 100);
    const auto w =
        waits.waiting(site.view, 100, {0, 1, 2, 3}, [](std::uint64_t, Seconds runtime) { return 3 * runtime; });
    CHECK_EQUAL(4u, w.size());
    CHECK_EQUAL(4u, w[0].cores);
    DOUBLES_EQUAL(900, w[0].wait, 1e-9);  // when the running job is expected to end
    DOUBLES_EQUAL(0, w[1].wait, 1e-9);    // routed: expected on the group
    DOUBLES_EQUAL(1500, w[2].wait, 1e-9); // after job 1 (job 2 is out of the play)
    CHECK(w[3].wait == kNotForeseen);
    DOUBLES_EQUAL(600, w[0].runtime, 1e-9);
    DOUBLES_EQUAL(500, w[1].runtime, 1e-9);
    DOUBLES_EQUAL(700, w[3].runtime, 1e-9);
}

TEST(LocalWaitEstimator, TheQueueIsPlayedUpToTheLargestHorizonOfTheJobsAsked)
{
    Site site;
    LocalWaitEstimator waits;
    waits.begin(site.view, 100);
    // Job 1 alone asks for 600 s: its start at 900 is beyond.
    const auto alone = waits.waiting(site.view, 100, {0}, [](std::uint64_t, Seconds runtime) { return runtime; });
    CHECK(alone[0].wait == kNotForeseen);
    // Job 4 asks for 2800 s (4 × 700), which covers job 1's start too.
    const auto horizon = [](std::uint64_t, Seconds runtime) { return runtime > 600 ? 4 * runtime : runtime; };
    const auto both = waits.waiting(site.view, 100, {0, 3}, horizon);
    DOUBLES_EQUAL(900, both[0].wait, 1e-9);
    DOUBLES_EQUAL(2100, both[1].wait, 1e-9);
}
