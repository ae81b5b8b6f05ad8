#include "sim/engine/event_queue.hpp"

#include <cmath>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// The targets of the events at `time`, in the order they come out.
std::vector<std::uint32_t> pop_all_at(EventQueue& q, Time time)
{
    std::vector<std::uint32_t> out;
    while (const auto e = q.pop_at(time))
        out.push_back(e->target);
    return out;
}

} // namespace

TEST_GROUP(EventQueue){};

TEST(EventQueue, IsEmptyWithNoNextTime)
{
    EventQueue q;
    CHECK(q.empty());
    CHECK(std::isinf(q.next_time()));
    CHECK(!q.pop_at(0));
    CHECK(!q.next_is(0, EventKind::JobEnd));
}

TEST(EventQueue, EarlierEventsFirstWhateverTheirKind)
{
    EventQueue q;
    q.push(20, EventKind::LaunchFailed, 1);
    q.push(10, EventKind::Eligible, 2);
    DOUBLES_EQUAL(10, q.next_time(), 0);
    CHECK(q.next_is(10, EventKind::Eligible));
    CHECK(!q.pop_at(20)); // the first event is at 10
    LONGS_EQUAL(2, q.pop_at(10)->target);
    LONGS_EQUAL(1, q.pop_at(20)->target);
    CHECK(q.empty());
}

// At one instant: failed launches, job ends, boots, suspend checks,
// interruptions (a job ending as its node is taken back has finished), then
// releases of held jobs, whatever order they were pushed in.
TEST(EventQueue, AtOneInstantTheKindDecides)
{
    EventQueue q;
    q.push(5, EventKind::Eligible, 6);
    q.push(5, EventKind::Interruption, 5);
    q.push(5, EventKind::SuspendCheck, 4);
    q.push(5, EventKind::NodeReady, 3);
    q.push(5, EventKind::JobEnd, 2);
    q.push(5, EventKind::LaunchFailed, 1);
    CHECK(q.next_is(5, EventKind::LaunchFailed));
    CHECK((pop_all_at(q, 5) == std::vector<std::uint32_t>{1, 2, 3, 4, 5, 6}));
}

TEST(EventQueue, TiesComeOutInTheOrderPushed)
{
    EventQueue q;
    for (std::uint32_t target : {7u, 3u, 9u, 1u})
        q.push(5, EventKind::JobEnd, target);
    q.push(5, EventKind::NodeReady, 4);
    q.push(5, EventKind::JobEnd, 8); // after the NodeReady, but a job end
    CHECK((pop_all_at(q, 5) == std::vector<std::uint32_t>{7, 3, 9, 1, 8, 4}));
}

TEST(EventQueue, KeepsTheTargetsToken)
{
    EventQueue q;
    q.push(1, EventKind::SuspendCheck, 2, 42);
    const auto e = q.pop_at(1);
    CHECK(e.has_value());
    CHECK(e->kind == EventKind::SuspendCheck);
    LONGS_EQUAL(2, e->target);
    LONGS_EQUAL(42, e->token);
}

TEST(EventQueue, EventsPushedWhilePoppingAnInstantComeOutInIt)
{
    EventQueue q;
    q.push(5, EventKind::NodeReady, 1);
    const auto first = q.pop_at(5);
    LONGS_EQUAL(1, first->target);
    q.push(5, EventKind::LaunchFailed, 2); // a launch failing at once
    q.push(6, EventKind::JobEnd, 3);
    CHECK((pop_all_at(q, 5) == std::vector<std::uint32_t>{2}));
    DOUBLES_EQUAL(6, q.next_time(), 0);
}
