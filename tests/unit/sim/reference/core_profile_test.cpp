#include "sim/reference/core_profile.hpp"

#include <stdexcept>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(CoreProfile){};

TEST(CoreProfile, FindsTheFirstHoleLongAndWideEnough)
{
    CoreProfile p(4);
    DOUBLES_EQUAL(0, p.earliest_fit(0, 100, 4), 0);
    p.reserve(0, 100, 3);  // 1 free in [0, 100)
    p.reserve(150, 50, 4); // 0 free in [150, 200)
    DOUBLES_EQUAL(0, p.earliest_fit(0, 50, 1), 0);
    DOUBLES_EQUAL(200, p.earliest_fit(0, 500, 1), 0); // [0, 500) crosses the full step
    DOUBLES_EQUAL(100, p.earliest_fit(0, 50, 2), 0);  // the gap [100, 150) fits 50 s
    DOUBLES_EQUAL(200, p.earliest_fit(0, 60, 2), 0);  // but not 60 s
    DOUBLES_EQUAL(120, p.earliest_fit(120, 30, 4), 0);
    DOUBLES_EQUAL(10, p.earliest_fit(10, 0, 4), 0); // nothing to run: starts at once
    CHECK_THROWS(std::invalid_argument, p.earliest_fit(0, 10, 5));
}

TEST(CoreProfile, ForgettingThePastKeepsTheFuture)
{
    CoreProfile p(4);
    p.reserve(0, 100, 3);
    p.reserve(100, 100, 2);
    p.forget_before(150);
    DOUBLES_EQUAL(150, p.earliest_fit(150, 10, 2), 0);
    DOUBLES_EQUAL(200, p.earliest_fit(150, 10, 3), 0);
    CHECK(p.steps() <= 2);
}

TEST(CoreProfile, ReservingAllAtOnceIsReservingEachInTurn)
{
    // Overlapping, nested, touching, empty and cancelling spans on a
    // profile that already has steps.
    const std::vector<CoreProfile::Span> spans{{0, 100, 3},  {50, 100, 1}, {100, 100, 2}, {150, 0, 4},
                                               {200, 50, 4}, {20, 10, 0},  {300, 10, 1},  {310, 10, 1}};
    CoreProfile one(4), all(4);
    one.reserve(-50, 500, 0);
    one.reserve(400, 20, 1);
    all.reserve(400, 20, 1);
    for (const auto& s : spans)
        one.reserve(s.start, s.duration, s.cores);
    all.reserve_all(spans);
    LONGS_EQUAL(one.steps(), all.steps());
    for (Time from : {-10.0, 0.0, 60.0, 99.0, 150.0, 240.0, 305.0, 399.0})
        for (Seconds d : {1.0, 30.0, 120.0, 500.0})
            for (std::uint32_t c : {1u, 2u, 3u, 4u})
                DOUBLES_EQUAL(one.earliest_fit(from, d, c), all.earliest_fit(from, d, c), 0);
}
