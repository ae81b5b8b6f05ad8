#include "policy/measured_boot_times.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

NodeGroup group(const std::string& name, Seconds configured_boot)
{
    NodeGroup g;
    g.name = name;
    g.boot_time = configured_boot;
    return g;
}

Instance booted(const std::string& node, const std::string& group, Time requested, Time running)
{
    Instance i;
    i.node = node;
    i.node_group = group;
    i.state = InstanceState::Running;
    i.requested_at = requested;
    i.running_since = running;
    return i;
}

} // namespace

TEST_GROUP(MeasuredBootTimes){};

TEST(MeasuredBootTimes, AGroupNeverMeasuredHasItsConfiguredBootTime)
{
    MeasuredBootTimes boots;
    ClusterState state;
    Instance booting = booted("g-1", "g", 100, 0); // not up yet
    state.instances = {booting};
    boots.observe(state);
    DOUBLES_EQUAL(300, boots.latest(group("g", 300)), 0);
    DOUBLES_EQUAL(300, boots.expected(group("g", 300)), 0);
}

TEST(MeasuredBootTimes, EachNodeCountsOnceAndIsRememberedAfterItCloses)
{
    MeasuredBootTimes boots;
    ClusterState state;
    state.instances = {booted("g-1", "g", 100, 200), booted("h-1", "h", 100, 150)};
    boots.observe(state);
    boots.observe(state); // the same nodes, seen again a cycle later
    state.instances = {booted("g-2", "g", 1000, 1300)};
    boots.observe(state);
    state.instances.clear();
    boots.observe(state);
    DOUBLES_EQUAL(300, boots.latest(group("g", 60)), 0);
    DOUBLES_EQUAL(200, boots.expected(group("g", 60)), 0); // (100 + 300) / 2
    DOUBLES_EQUAL(50, boots.latest(group("h", 60)), 0);
    DOUBLES_EQUAL(50, boots.expected(group("h", 60)), 0);
}

TEST(MeasuredBootTimes, LatestIsTheNodeThatCameUpLastNotTheOneListedLast)
{
    MeasuredBootTimes boots;
    ClusterState state;
    // Nodes that came up together (one snapshot) in another order than listed.
    state.instances = {booted("g-2", "g", 100, 400), booted("g-1", "g", 100, 160), booted("g-3", "g", 100, 160)};
    boots.observe(state);
    DOUBLES_EQUAL(300, boots.latest(group("g", 60)), 0);
    DOUBLES_EQUAL(60, boots.expected(group("g", 60)), 0); // the median of 60, 60, 300
}

TEST(MeasuredBootTimes, TheExpectedBootIsTheMedianOfTheRecentOnes)
{
    MeasuredBootTimes boots;
    ClusterState state;
    // Ten boots of about 1000 s, then kRecent of about 100 s: the old ones
    // no longer count.
    for (int k = 0; k < 10; ++k)
        state.instances.push_back(booted("g-" + std::to_string(k), "g", 0, 1000 + k));
    boots.observe(state);
    DOUBLES_EQUAL(1009, boots.latest(group("g", 60)), 0);
    state.instances.clear();
    for (std::size_t k = 0; k < MeasuredBootTimes::kRecent; ++k)
        state.instances.push_back(booted("n-" + std::to_string(k), "g", 5000, 5100 + Time(k)));
    boots.observe(state);
    DOUBLES_EQUAL(100 + (MeasuredBootTimes::kRecent - 1) / 2.0, boots.expected(group("g", 60)), 1e-9);
    // One node seen up an hour late moves the expected boot by half a step.
    state.instances = {booted("late", "g", 9000, 12600)};
    boots.observe(state);
    DOUBLES_EQUAL(100 + (MeasuredBootTimes::kRecent + 1) / 2.0, boots.expected(group("g", 60)), 1e-9);
    DOUBLES_EQUAL(3600, boots.latest(group("g", 60)), 0);
}

TEST(MeasuredBootTimes, RecordsWithoutAPlausibleBootAreIgnored)
{
    MeasuredBootTimes boots;
    ClusterState state;
    // Up before it was requested: a clock step.
    state.instances = {booted("g-1", "g", 500, 400)};
    boots.observe(state);
    DOUBLES_EQUAL(120, boots.expected(group("g", 120)), 0);
}
