#include "policy/site/site_activity.hpp"

#include "policy/policy_test_state.hpp"

#include <utility>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::quiet_site;
using burst::test::StateBuilder;

TEST_GROUP(SiteActivity){};

TEST(SiteActivity, RunningLocalWorkAndPoweredDownCloudNodesAreQuiet)
{
    StateBuilder b = quiet_site();
    b.booted_once("g", 90); // a boot of the past is not a node on
    const SiteActivity a(b.state);
    CHECK_FALSE(a.jobs_waiting());
    CHECK_FALSE(a.cloud_on());
}

TEST(SiteActivity, AJobFreeToStartIsWaitingAndHeldOrDependentOnesAreNot)
{
    StateBuilder b = quiet_site();
    b.pending(2, 1);
    b.state.snapshot.jobs.back().reason = PendingReason("Dependency");
    b.pending(3, 1);
    b.state.snapshot.jobs.back().reason = PendingReason("JobHeldUser");
    CHECK_FALSE(SiteActivity(b.state).jobs_waiting());
    b.pending(4, 1);
    b.state.snapshot.jobs.back().reason = PendingReason("Resources");
    CHECK(SiteActivity(b.state).jobs_waiting());
    CHECK_FALSE(SiteActivity(b.state).cloud_on());
}

TEST(SiteActivity, ACloudNodeUpBootingOrPoweringDownIsOn)
{
    for (const std::uint32_t flags : {std::uint32_t(kNodeCloud), kNodeCloud | kNodePoweringUp,
                                      kNodeCloud | kNodePoweredDown | kNodePoweringDown}) {
        StateBuilder b = quiet_site();
        b.node("g-2").flags = flags;
        CHECK(SiteActivity(b.state).cloud_on());
        CHECK_FALSE(SiteActivity(b.state).jobs_waiting());
    }
}

TEST(SiteActivity, AnInstanceNotYetEndedIsOnThoughSlurmShowsNoNodeOn)
{
    const std::pair<InstanceState, bool> cases[] = {
        {InstanceState::Requested, true},   {InstanceState::Launching, true}, {InstanceState::Running, true},
        {InstanceState::Terminating, true}, {InstanceState::Terminated, false}, {InstanceState::Failed, false},
    };
    for (const auto& [s, on] : cases) {
        StateBuilder b = quiet_site();
        Instance i;
        i.node = "g-1";
        i.node_group = "g";
        i.state = s;
        b.state.instances.push_back(i);
        CHECK_EQUAL(on, SiteActivity(b.state).cloud_on());
    }
}
