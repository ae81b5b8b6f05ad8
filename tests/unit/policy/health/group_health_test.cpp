#include "policy/health/group_health.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

GroupRecovery recovery()
{
    GroupRecovery r;
    r.capacity_errors = 3;
    r.cool_down = 60;
    r.max_cool_down = 200;
    r.quota_cool_down = 1000;
    r.boot_failures = 2;
    return r;
}

const ProviderError kCapacity{ProviderErrorKind::Capacity, "InsufficientInstanceCapacity", 0};
const ProviderError kQuota{ProviderErrorKind::Quota, "VcpuLimitExceeded", 0};
const ProviderError kThrottled{ProviderErrorKind::Throttled, "RequestLimitExceeded", 5};

// Opens `h` with three capacity failures at `now`.
void trip(GroupHealth& h, Time now)
{
    for (int i = 0; i < 3; ++i)
        h.launch_failed(kCapacity, now, false);
}

} // namespace

TEST_GROUP(GroupHealth){};

TEST(GroupHealth, AClosedGroupLaunchesWithoutLimit)
{
    GroupHealth h(recovery(), 100);
    CHECK(h.admit(0).kind == AdmissionKind::Launch);
    CHECK_FALSE(h.hire_limit(0).has_value());
    STRCMP_EQUAL("hiring", h.view(0).mode.c_str());
}

TEST(GroupHealth, OpensAfterNCapacityFailuresInARow)
{
    GroupHealth h(recovery(), 100);
    h.launch_failed(kCapacity, 10, false);
    h.launch_failed(kCapacity, 11, false);
    CHECK(h.view(11).state == BreakerState::Closed);
    LONGS_EQUAL(2, h.view(11).capacity_errors);
    h.launch_failed(kCapacity, 12, false);
    GroupHealthView v = h.view(12);
    CHECK(v.state == BreakerState::Open);
    CHECK(v.cause == BreakerCause::Capacity);
    STRCMP_EQUAL("backing-off", v.mode.c_str());
    DOUBLES_EQUAL(72, v.open_until, 1e-9);
    CHECK(v.reason.find("InsufficientInstanceCapacity") != std::string::npos);
    CHECK(h.admit(50).refused());
    LONGS_EQUAL(0, *h.hire_limit(50));
}

TEST(GroupHealth, ASuccessInBetweenResetsTheCount)
{
    GroupHealth h(recovery(), 100);
    h.launch_failed(kCapacity, 1, false);
    h.launch_failed(kCapacity, 2, false);
    h.launched(3, false);
    h.launch_failed(kCapacity, 4, false);
    h.launch_failed(kCapacity, 5, false);
    CHECK(h.view(5).state == BreakerState::Closed);
}

TEST(GroupHealth, ThrottledOrTransientFinalFailuresDoNotTrip)
{
    GroupHealth h(recovery(), 100);
    for (int i = 0; i < 10; ++i)
        h.launch_failed(kThrottled, i, false);
    CHECK(h.view(10).state == BreakerState::Closed);
}

TEST(GroupHealth, AfterTheCoolDownExactlyOneProbeIsAdmitted)
{
    GroupHealth h(recovery(), 100);
    trip(h, 0);
    LONGS_EQUAL(0, *h.hire_limit(59));
    LONGS_EQUAL(1, *h.hire_limit(60));
    STRCMP_EQUAL("probing", h.view(60).mode.c_str());
    Admission a = h.admit(60);
    CHECK(a.probe());
    CHECK(h.view(60).state == BreakerState::HalfOpen);
    CHECK(h.admit(61).refused());
    LONGS_EQUAL(0, *h.hire_limit(61));
    LONGS_EQUAL(1, h.view(61).probes);
}

TEST(GroupHealth, ASuccessfulProbeClosesTheBreaker)
{
    GroupHealth h(recovery(), 100);
    trip(h, 0);
    CHECK(h.admit(60).probe());
    h.launched(61, true);
    CHECK(h.view(61).state == BreakerState::Closed);
    CHECK(h.admit(62).kind == AdmissionKind::Launch);
    // A fresh trip starts again from the configured cool-down.
    trip(h, 100);
    DOUBLES_EQUAL(60, h.view(100).cool_down, 1e-9);
}

TEST(GroupHealth, AFailedProbeReopensWithADoubledCoolDownUpToTheMaximum)
{
    GroupHealth h(recovery(), 1000);
    trip(h, 0);
    CHECK(h.admit(60).probe());
    h.launch_failed(kCapacity, 60, true);
    GroupHealthView v = h.view(60);
    CHECK(v.state == BreakerState::Open);
    DOUBLES_EQUAL(120, v.cool_down, 1e-9);
    DOUBLES_EQUAL(180, v.open_until, 1e-9);
    CHECK(h.admit(179).refused());
    CHECK(h.admit(180).probe());
    h.launch_failed(kCapacity, 180, true);
    DOUBLES_EQUAL(200, h.view(180).cool_down, 1e-9); // 240 capped at MaxCoolDown
    CHECK(h.admit(380).probe());
    h.launch_failed(kCapacity, 380, true);
    DOUBLES_EQUAL(200, h.view(380).cool_down, 1e-9);
    LONGS_EQUAL(1, h.view(380).opened);
}

TEST(GroupHealth, AProbeThatNeverReportsStopsBlockingAfterItsTimeout)
{
    GroupHealth h(recovery(), 30);
    trip(h, 0);
    CHECK(h.admit(60).probe());
    CHECK(h.admit(89).refused());
    CHECK(h.admit(90).probe());
}

TEST(GroupHealth, ALateFailureOfALaunchAdmittedBeforeTheTripChangesNothing)
{
    GroupHealth h(recovery(), 100);
    trip(h, 0);
    h.launch_failed(kCapacity, 30, false);
    DOUBLES_EQUAL(60, h.view(30).open_until, 1e-9);
    DOUBLES_EQUAL(60, h.view(30).cool_down, 1e-9);
}

TEST(GroupHealth, QuotaStopsHiringAtOnceForTheLongCoolDown)
{
    GroupHealth h(recovery(), 100);
    h.launch_failed(kQuota, 5, false);
    GroupHealthView v = h.view(5);
    CHECK(v.state == BreakerState::Open);
    CHECK(v.cause == BreakerCause::Quota);
    STRCMP_EQUAL("quota", v.mode.c_str());
    CHECK(h.admit(1004).refused());
    CHECK(h.admit(1005).probe());
    h.launch_failed(kQuota, 1005, true);
    // Quota's own cool-down bounds the growth, not MaxCoolDown.
    DOUBLES_EQUAL(1000, h.view(1005).cool_down, 1e-9);
    CHECK(h.admit(2005).probe());
    h.launched(2006, true);
    CHECK(h.view(2006).state == BreakerState::Closed);
}

TEST(GroupHealth, AuthAndInvalidStopTheGroupUntilReload)
{
    for (auto kind : {ProviderErrorKind::Auth, ProviderErrorKind::Invalid}) {
        GroupHealth h(recovery(), 100);
        h.launch_failed({kind, "AuthFailure", 0}, 5, false);
        GroupHealthView v = h.view(5);
        CHECK(v.state == BreakerState::Disabled);
        STRCMP_EQUAL("stopped", v.mode.c_str());
        CHECK(h.admit(1e9).refused());
        LONGS_EQUAL(0, *h.hire_limit(1e9));
        // Nothing but a reload or reset re-enables it.
        h.launched(6, false);
        h.registered(7);
        CHECK(h.view(8).state == BreakerState::Disabled);
        h.reload(recovery());
        CHECK(h.view(9).state == BreakerState::Closed);
        CHECK(h.admit(9).kind == AdmissionKind::Launch);
    }
}

TEST(GroupHealth, ReloadLeavesABackOffForCapacityRunning)
{
    GroupHealth h(recovery(), 100);
    trip(h, 0);
    h.reload(recovery());
    CHECK(h.view(1).state == BreakerState::Open);
}

TEST(GroupHealth, RepeatedBootFailuresEnterProtectedMode)
{
    GroupHealth h(recovery(), 100);
    h.boot_failed("c1 did not register", 10);
    CHECK(h.view(10).state == BreakerState::Closed);
    h.boot_failed("c2 did not register", 11);
    GroupHealthView v = h.view(11);
    CHECK(v.state == BreakerState::Open);
    CHECK(v.cause == BreakerCause::Boot);
    STRCMP_EQUAL("protected", v.mode.c_str());
    CHECK(h.admit(20).refused());
    // The probe's launch alone proves nothing; its node registering does.
    CHECK(h.admit(71).probe());
    STRCMP_EQUAL("protected", h.view(71).mode.c_str());
    h.launched(72, true);
    CHECK(h.view(72).state == BreakerState::HalfOpen);
    CHECK(h.admit(73).refused());
    h.registered(90);
    CHECK(h.view(90).state == BreakerState::Closed);
}

TEST(GroupHealth, ARegistrationInBetweenResetsTheBootFailureCount)
{
    GroupHealth h(recovery(), 100);
    h.boot_failed("c1", 1);
    h.registered(2);
    h.boot_failed("c2", 3);
    CHECK(h.view(3).state == BreakerState::Closed);
}

TEST(GroupHealth, AProbeThatDoesNotBootReopensProtectedMode)
{
    GroupHealth h(recovery(), 1000);
    h.boot_failed("c1", 0);
    h.boot_failed("c2", 0);
    CHECK(h.admit(60).probe());
    h.launched(61, true);
    h.boot_failed("c3", 100);
    GroupHealthView v = h.view(100);
    CHECK(v.state == BreakerState::Open);
    STRCMP_EQUAL("protected", v.mode.c_str());
    DOUBLES_EQUAL(120, v.cool_down, 1e-9);
}

TEST(GroupHealth, ResetClosesWhateverTheCause)
{
    GroupHealth h(recovery(), 100);
    h.boot_failed("c1", 0);
    h.boot_failed("c2", 0);
    h.reset();
    GroupHealthView v = h.view(1);
    CHECK(v.state == BreakerState::Closed);
    LONGS_EQUAL(0, v.boot_failures);
    CHECK(h.admit(1).kind == AdmissionKind::Launch);
}

TEST(GroupHealth, NamesOfStatesAndCauses)
{
    STRCMP_EQUAL("half-open", std::string(to_string(BreakerState::HalfOpen)).c_str());
    STRCMP_EQUAL("boot", std::string(to_string(BreakerCause::Boot)).c_str());
}

TEST(GroupHealth, ARestoredBreakerStaysOpenUntilItsSavedTimeThenProbes)
{
    GroupHealth before(recovery(), 100);
    before.launch_failed(kQuota, 0, false);
    GroupHealthView saved = before.view(10);
    GroupHealth h(recovery(), 100);
    h.restore(saved);
    CHECK(h.admit(500).refused());
    LONGS_EQUAL(0, *h.hire_limit(500));
    STRCMP_EQUAL("quota", h.view(500).mode.c_str());
    STRCMP_EQUAL("quota: VcpuLimitExceeded", h.view(500).reason.c_str());
    CHECK(h.admit(1000).probe());
}

TEST(GroupHealth, AHalfOpenBreakerComesBackReadyForANewProbe)
{
    GroupHealth before(recovery(), 100);
    trip(before, 0);
    CHECK(before.admit(60).probe()); // the old process died with it in flight
    GroupHealth h(recovery(), 100);
    h.restore(before.view(61));
    CHECK(h.admit(61).probe());
}

TEST(GroupHealth, ClosedAndStoppedBreakersAreNotRestored)
{
    GroupHealth stopped(recovery(), 100);
    stopped.launch_failed({ProviderErrorKind::Auth, "bad key", 0}, 0, false);
    GroupHealth h(recovery(), 100);
    h.restore(stopped.view(0)); // a restart reads the configuration afresh, like a reload
    CHECK(h.admit(1).kind == AdmissionKind::Launch);
    h.restore(GroupHealthView{});
    CHECK(h.admit(2).kind == AdmissionKind::Launch);
}
