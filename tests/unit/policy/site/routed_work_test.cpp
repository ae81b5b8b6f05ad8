#include "policy/site/routed_work.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(RoutedWork){};

TEST(RoutedWork, SumsTheWorkRoutedWithinTheWindow)
{
    RoutedWork w;
    DOUBLES_EQUAL(0, w.within(100, 50), 1e-9);
    w.add(100, 10);
    w.add(160, 20);
    w.add(160, 5);
    w.add(300, 40);
    DOUBLES_EQUAL(75, w.within(300, 200), 1e-9); // [100, 300]: all of it
    DOUBLES_EQUAL(65, w.within(300, 140), 1e-9); // [160, 300]
    DOUBLES_EQUAL(40, w.within(300, 139), 1e-9); // (160, 300]
    DOUBLES_EQUAL(0, w.within(400, 99), 1e-9);
}

TEST(RoutedWork, KeepsWhatTheLongestSpanStillReaches)
{
    RoutedWork w;
    w.add(0, 1);
    w.add(100, 2);
    w.add(200, 4);
    w.forget(200); // no span kept yet: only what was routed now stays
    LONGS_EQUAL(1, w.size());
    w.keep(100);
    w.keep(50); // one decision's jobs: the longest span counts
    w.add(300, 8);
    w.forget(350); // 100 s back from 350: 300 stays, 200 goes
    LONGS_EQUAL(1, w.size());
    DOUBLES_EQUAL(8, w.within(350, 1000), 1e-9);
}

// The history follows the longest look-back of the jobs in play at each
// decision: once a job with a 10-hour limit has left, an hour is kept.
TEST(RoutedWork, ShrinksWhenTheLongestSpanInPlayDrops)
{
    RoutedWork w;
    for (Time t = 0; t <= 3 * 3600; t += 600) {
        w.keep(3600);
        w.keep(10 * 3600);
        w.forget(t);
        w.add(t, 1);
    }
    LONGS_EQUAL(19, w.size());
    DOUBLES_EQUAL(19, w.within(3 * 3600, 10 * 3600), 1e-9);
    const Time now = 3 * 3600 + 600;
    w.keep(3600);
    w.forget(now); // routed at 7800 s or later: 7800, 8400, ..., 10800
    LONGS_EQUAL(6, w.size());
    DOUBLES_EQUAL(6, w.within(now, 3600), 1e-9);
}
