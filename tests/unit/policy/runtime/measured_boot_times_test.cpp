#include "policy/runtime/measured_boot_times.hpp"

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

NodeBoot boot(const std::string& group, Time requested, Time running)
{
    return NodeBoot{group, requested, running};
}

} // namespace

TEST_GROUP(MeasuredBootTimes){};

TEST(MeasuredBootTimes, AGroupNeverMeasuredHasItsConfiguredBootTime)
{
    MeasuredBootTimes boots;
    ClusterState state;
    Instance booting;
    booting.node = "g-1";
    booting.node_group = "g";
    booting.state = InstanceState::Launching;
    booting.requested_at = 100;
    state.instances = {booting}; // not up yet: no boot
    state.boots = {boot("h", 0, 50)};
    boots.observe(state);
    DOUBLES_EQUAL(300, boots.latest(group("g", 300)), 0);
    DOUBLES_EQUAL(300, boots.expected(group("g", 300)), 0);
}

TEST(MeasuredBootTimes, EachGroupHasItsOwnBootsAndEachCallTakesTheStatesBoots)
{
    MeasuredBootTimes boots;
    ClusterState state;
    state.boots = {boot("g", 100, 200), boot("h", 100, 150), boot("g", 1000, 1300)};
    boots.observe(state);
    boots.observe(state); // the same boots, seen again a cycle later: counted once
    DOUBLES_EQUAL(300, boots.latest(group("g", 60)), 0);
    DOUBLES_EQUAL(200, boots.expected(group("g", 60)), 0); // (100 + 300) / 2
    DOUBLES_EQUAL(50, boots.latest(group("h", 60)), 0);
    DOUBLES_EQUAL(50, boots.expected(group("h", 60)), 0);
    state.boots = {boot("g", 2000, 2100)};
    boots.observe(state);
    DOUBLES_EQUAL(100, boots.expected(group("g", 60)), 0);
    DOUBLES_EQUAL(60, boots.expected(group("h", 60)), 0); // no boots of h now: configured
    state.boots = {boot("g", 2000, 2150)}; // as many boots as before, one time changed
    boots.observe(state);
    DOUBLES_EQUAL(150, boots.expected(group("g", 60)), 0);
    state.boots.clear();
    boots.observe(state);
    DOUBLES_EQUAL(60, boots.expected(group("g", 60)), 0);
}

TEST(MeasuredBootTimes, LatestIsTheNodeThatCameUpLastNotTheOneListedLast)
{
    MeasuredBootTimes boots;
    ClusterState state;
    state.boots = {boot("g", 100, 400), boot("g", 100, 260), boot("g", 100, 260)};
    boots.observe(state);
    DOUBLES_EQUAL(300, boots.latest(group("g", 60)), 0);
    DOUBLES_EQUAL(160, boots.expected(group("g", 60)), 0); // the median of 160, 160, 300
}

TEST(MeasuredBootTimes, TheExpectedBootIsTheMedianOfTheLastKRecent)
{
    MeasuredBootTimes boots;
    ClusterState state;
    // Ten boots of about 1000 s, then kRecent of about 100 s: the old ones
    // do not count, even when the state carries them.
    for (int k = 0; k < 10; ++k)
        state.boots.push_back(boot("g", 0, 1000 + k));
    boots.observe(state);
    DOUBLES_EQUAL(1009, boots.latest(group("g", 60)), 0);
    for (std::size_t k = 0; k < MeasuredBootTimes::kRecent; ++k)
        state.boots.push_back(boot("g", 5000, 5100 + Time(k)));
    boots.observe(state);
    DOUBLES_EQUAL(100 + (MeasuredBootTimes::kRecent - 1) / 2.0, boots.expected(group("g", 60)), 1e-9);
    // One node seen up an hour late moves the expected boot by half a step,
    // and the latest to twice the median, not an hour.
    state.boots.push_back(boot("g", 9000, 12600));
    boots.observe(state);
    const Seconds median = 100 + (MeasuredBootTimes::kRecent + 1) / 2.0;
    DOUBLES_EQUAL(median, boots.expected(group("g", 60)), 1e-9);
    DOUBLES_EQUAL(2 * median, boots.latest(group("g", 60)), 1e-9);
}

TEST(MeasuredBootTimes, TheLatestFollowsBootsThatGetSlowerUpToTwiceTheMedian)
{
    MeasuredBootTimes boots;
    ClusterState state;
    for (int k = 0; k < 5; ++k)
        state.boots.push_back(boot("g", 1000 * k, 1000 * k + 100));
    state.boots.push_back(boot("g", 6000, 6150));
    boots.observe(state);
    DOUBLES_EQUAL(150, boots.latest(group("g", 60)), 0); // within twice the median: as measured
    state.boots.push_back(boot("g", 7000, 7300));
    boots.observe(state);
    DOUBLES_EQUAL(200, boots.latest(group("g", 60)), 0); // 300 s, cut at twice the median of 100 s
}

TEST(MeasuredBootTimes, BootsThatAreNotPlausibleAreIgnored)
{
    MeasuredBootTimes boots;
    ClusterState state;
    state.boots = {boot("g", 500, 400), boot("g", 500, 0)}; // a clock step; never up
    boots.observe(state);
    DOUBLES_EQUAL(120, boots.expected(group("g", 120)), 0);
}
