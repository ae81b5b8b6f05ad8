#include "sim/core_profile.hpp"

#include <stdexcept>

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
