#include "policy/hiring/forecast/slot_scarcity.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(SlotScarcity){};

TEST(SlotScarcity, DeniesNoMoreThanTheCoresAskedForNorThanWaited)
{
    // 4 cores blocked over [0, 100), none over [100, 200), 8 from 200 on.
    SlotScarcity s;
    s.record(0, 4);
    s.record(100, 0);
    s.record(200, 8);
    // 2 cores of room over [0, 300] relieve at most 2 × 200 s blocked.
    DOUBLES_EQUAL(400, s.denied(300, 300, 2), 1e-9);
    // 100 cores relieve all that waited: 4 × 100 + 8 × 100.
    DOUBLES_EQUAL(1200, s.denied(300, 300, 100), 1e-9);
    // Over [150, 300] only the 8 cores from 200 on.
    DOUBLES_EQUAL(800, s.denied(300, 150, 100), 1e-9);
    // Nothing before the first record.
    DOUBLES_EQUAL(0, s.denied(0, 1000, 100), 1e-9);
}

TEST(SlotScarcity, KeepsOnlyWhatTheLongestWindowReaches)
{
    SlotScarcity s;
    s.keep(150);
    s.record(0, 4);
    s.record(50, 4); // unchanged: no new mark
    LONGS_EQUAL(1, s.size());
    s.record(100, 0);
    s.record(200, 8);
    s.forget(300);
    // The mark at 100 is in force at 300 − 150: kept; the one at 0 is not.
    LONGS_EQUAL(2, s.size());
    DOUBLES_EQUAL(800, s.denied(300, 150, 100), 1e-9);
}
