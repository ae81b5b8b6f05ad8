#include "policy/hiring/forecast/burst_arrivals.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(BurstArrivals){};

TEST(BurstArrivals, CountsTheArrivalsThatNeedMoreThanTheRoomLeftButFitWithTheHeldCores)
{
    BurstArrivals a(4); // 4-core nodes
    a.add(0, 3);        // 1 node
    a.add(10, 8);       // 2 nodes
    a.add(20, 12);      // 3 nodes
    a.add(30, 6);       // 2 nodes (whole nodes: 8 cores)
    // 4 cores left, 4 held: only 2-node jobs are turned away.
    DOUBLES_EQUAL(14, a.within(30, 30, 4, 4), 1e-9);
    // No room left, 4 held: 1-node jobs.
    DOUBLES_EQUAL(3, a.within(30, 30, 0, 4), 1e-9);
    // Over [15, 30] only, 2- and 3-node jobs.
    DOUBLES_EQUAL(18, a.within(30, 15, 4, 8), 1e-9);
    // Room for every width seen.
    DOUBLES_EQUAL(0, a.within(30, 30, 12, 100), 1e-9);
}

TEST(BurstArrivals, ForgetsWhatNoWindowReaches)
{
    BurstArrivals a(4);
    a.add(0, 3);
    a.add(10, 8);
    a.add(20, 12);
    a.add(30, 6);
    a.keep(10); // as a decision does: its spans, then forget()
    a.forget(30);
    DOUBLES_EQUAL(18, a.within(30, 30, 0, 100), 1e-9);
}
