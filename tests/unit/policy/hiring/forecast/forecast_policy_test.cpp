#include "policy/hiring/forecast/forecast_policy.hpp"

#include "policy/policy_test_state.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::routes;
using burst::test::StateBuilder;

namespace {

std::unique_ptr<ForecastPolicy> make(const std::string& lambda, const std::string& reforecasts = "4")
{
    PolicyParams p;
    p.set("lambda", lambda);
    p.set("reforecasts", reforecasts);
    p.set("max_error", "0");
    auto policy = std::make_unique<ForecastPolicy>(p);
    p.reject_unread("forecast");
    return policy;
}

// 8 local cores all used by a job that started at 0 with limit `limit`; a
// waiting 8-core job with a 1 h limit; 8-core cloud nodes at 0.8 per hour
// booting in 100 s.
StateBuilder full_site(Seconds limit)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("aws", 8, 4, 0.8, 100);
    b.running(1, 8, 0, "r", limit).pending(2, 8, BurstOption::Allow, "p", 3600);
    return b;
}

} // namespace

TEST_GROUP(ForecastPolicy){};

TEST(ForecastPolicy, BurstsWhenTheForecastWaitCostsMoreThanTheCloud)
{
    // Cores back in 10 h: waiting costs 8 × (10 h − 100 s) × λ=1 ≈ 79.8 >
    // 0.8 × (1 h + 100 s) ≈ 0.82.
    StateBuilder b = full_site(36000);
    ManualClock clock(0);
    auto r = routes(make("1")->decide(b.state, clock));
    LONGS_EQUAL(1, r.size());
    LONGS_EQUAL(2, r[0].job);
    STRCMP_EQUAL("aws", r[0].group.c_str());
}

TEST(ForecastPolicy, KeepsLocalAJobThatStartsWithinABootTime)
{
    // Where `always` loses: the cores come back in 60 s, less than a boot.
    StateBuilder b = full_site(60);
    ManualClock clock(0);
    Decision d = make("1000")->decide(b.state, clock);
    CHECK(routes(d).empty());
    LONGS_EQUAL(1, d.notes.size());
}

TEST(ForecastPolicy, WeighsTheWaitAtLambda)
{
    // Cores back in 1 h: 8 × 3500 s × λ / 3600 against 0.82 breaks even at λ ≈ 0.105.
    StateBuilder b = full_site(3600);
    ManualClock clock(0);
    CHECK(routes(make("0.1")->decide(b.state, clock)).empty());
    LONGS_EQUAL(1, routes(make("0.11")->decide(b.state, clock)).size());
    CHECK(routes(make("0")->decide(b.state, clock)).empty());
}

TEST(ForecastPolicy, ForeseesTheReservationThatHoldsABackfillCandidateBack)
{
    // 4 of 8 cores free; the running job (limit 10 h) holds the other 4.
    // Head job 2 needs 8 cores: reserved at 10 h.  Job 3 (4 cores, limit
    // 20 h) fits now but would delay the reservation, so EASY keeps it
    // waiting until job 2 is done (a greedy first fit would start it now).
    // Played once (reforecasts=0), both are worth bursting at λ = 1.
    StateBuilder b;
    b.local("n1", 8, 4).group("aws", 8, 4, 0.8, 100);
    b.running(1, 4, 0, "r", 36000).pending(2, 8, BurstOption::Allow, "p", 3600);
    b.pending(3, 4, BurstOption::Allow, "q", 72000);
    ManualClock clock(0);
    auto once = routes(make("1", "0")->decide(b.state, clock));
    LONGS_EQUAL(2, once.size());
    LONGS_EQUAL(3, once[1].job);
    // Played again after job 2 is routed, job 3 starts locally at once.
    auto again = routes(make("1")->decide(b.state, clock));
    LONGS_EQUAL(1, again.size());
    LONGS_EQUAL(2, again[0].job);
}

TEST(ForecastPolicy, RoutesAHeadForTheJobsItHoldsBack)
{
    // Job 2 (8 cores, 1 h) waits 600 s for the running job: on its own not
    // worth a cold node at λ = 0.4 (8 × 500 s × 0.4 / 3600 = 0.44 < 0.82).
    // Its reservation holds four free cores idle, so jobs 3..6 (1 core,
    // 2 h each) wait behind it until 4200 s; without it they start now.
    // Waits are counted up to the horizon, where bursting job 2 pays anyway
    // (100 + 0.82 × 3600 / (0.4 × 8) ≈ 1025 s): 4 × 1025 s × 0.4 / 3600 =
    // 0.46 more, 0.90 in all.  benefit=self keeps it local.
    StateBuilder b;
    b.local("n1", 8, 4).group("aws", 8, 4, 0.8, 100);
    b.running(1, 4, 0, "r", 600).pending(2, 8, BurstOption::Allow, "p", 3600);
    for (JobId id = 3; id <= 6; ++id)
        b.pending(id, 1, BurstOption::Never, "q", 7200);
    ManualClock clock(0);
    auto r = routes(make("0.4")->decide(b.state, clock));
    LONGS_EQUAL(1, r.size());
    LONGS_EQUAL(2, r[0].job);
    PolicyParams self;
    self.set("lambda", "0.4");
    self.set("benefit", "self");
    CHECK(routes(ForecastPolicy(self).decide(b.state, clock)).empty());
}

TEST(ForecastPolicy, CountsTheWaitOfJobsBehindOnlyUpToWhereTheyBurstThemselves)
{
    // As above, job 2 (8 cores, 1 h) waits 600 s: 0.44 < 0.82 (a new node;
    // break-even 1025 s, the horizon).  Behind it jobs 3..6 (1 core, 20
    // min) wait until it ends, 4200 s; without it they start now.  Counted
    // to the horizon that is 4 × 1025 s × 0.4 / 3600 = 0.46 of waiting, 0.90
    // in all, and job 2 would be routed.  But each of them has the free
    // cores of an up node: 1/8 of 0.8 per hour for 20 min, 0.033, a
    // break-even of 300 s.  Waiting past it they burst themselves, so job 2
    // holds them back by 4 × 300 s × 0.4 / 3600 = 0.13 at most: it is
    // held (it costs 0.53 of waiting) and they are routed (0.13).
    StateBuilder b;
    b.local("n1", 8, 4).group("aws", 8, 4, 0.8, 100).up("aws-1", 4);
    b.running(1, 4, 0, "r", 600).pending(2, 8, BurstOption::Allow, "p", 3600);
    for (JobId id = 3; id <= 6; ++id)
        b.pending(id, 1, BurstOption::Allow, "q", 1200);
    PolicyParams p;
    p.set("lambda", "0.4");
    p.set("max_error", "0");
    p.set("displacement", "off"); // the queue's benefit alone
    ForecastPolicy policy(p);
    ManualClock clock(0);
    auto r = routes(policy.decide(b.state, clock));
    LONGS_EQUAL(4, r.size());
    for (std::size_t k = 0; k < r.size(); ++k)
        LONGS_EQUAL(JobId(3 + k), r[k].job);
}

TEST(ForecastPolicy, KeepsLocalAJobWhoseRunDelaysNobodyBehindIt)
{
    // Job 2 (4 cores, 1 h) starts at 600 s when job 1 ends; at λ = 1 it
    // saves 4 × 500 s / 3600 = 0.56 < 0.82 (a node for 1 h + 100 s).
    // Job 3 behind it needs all 8 cores and waits for job 10 (until
    // 7200 s) whether job 2 runs here or not: job 2's local run displaces
    // nothing, and it is held although the queue stays backed up past its
    // end (priced as displaced cloud work, 4 cores × 1 h × 0.1, it would
    // have been routed: 0.56 + 0.40 > 0.82).
    StateBuilder wide;
    wide.local("n1", 8, 8).group("aws", 8, 4, 0.8, 100);
    wide.running(1, 4, 0, "r", 600).running(10, 4, 0, "r", 7200);
    wide.pending(2, 4, BurstOption::Allow, "p", 3600).pending(3, 8, BurstOption::Never, "q", 3600);
    ManualClock clock(0);
    Decision d = make("1")->decide(wide.state, clock);
    CHECK(routes(d).empty());
    LONGS_EQUAL(1, d.notes.size());
    // Two 4-core jobs behind it that it does hold back (job 3 would start
    // at 600 s, job 4 at 4200 s without it; with it at 4200 s and 7200 s):
    // played without it they save enough waiting, and it is routed.
    StateBuilder narrow;
    narrow.local("n1", 8, 8).group("aws", 8, 4, 0.8, 100);
    narrow.running(1, 4, 0, "r", 600).running(10, 4, 0, "r", 7200);
    narrow.pending(2, 4, BurstOption::Allow, "p", 3600);
    narrow.pending(3, 4, BurstOption::Never, "q", 3600).pending(4, 4, BurstOption::Never, "q", 3600);
    d = make("1")->decide(narrow.state, clock);
    auto r = routes(d);
    LONGS_EQUAL(1, r.size());
    LONGS_EQUAL(2, r[0].job);
    CHECK(d.actions[0].reason.find("jobs behind") != std::string::npos);
}

TEST(ForecastPolicy, ChargesAHeldJobTheCloudWorkItsRunPushesOut)
{
    // 4-core nodes at 0.4 per hour.  Job 2 (4 cores, 1 h) starts at 600 s
    // when job 1 ends; at λ = 0.5 it saves 4 × 500 s × 0.5 / 3600 = 0.28 <
    // 0.41 (a node for 1 h + 100 s).  Jobs 3 and 4 (4 cores each) behind
    // it are foreseen to start at 4200 s and 7200 s, past their break-even
    // (840 s): while job 2 runs here, 1 h, their work goes to the cloud
    // instead, 4 cores × 1 h × 0.1 = 0.40, and job 2 is routed.
    auto site = [](std::uint32_t behind_cores, int behind) {
        StateBuilder b;
        b.local("n1", 8, 8).group("aws", 4, 4, 0.4, 100);
        b.running(1, 4, 0, "r", 600).running(10, 4, 0, "r", 7200);
        b.pending(2, 4, BurstOption::Allow, "p", 3600);
        for (int k = 0; k < behind; ++k)
            b.pending(JobId(3 + k), behind_cores, BurstOption::Allow, "q", 3600);
        return b;
    };
    ManualClock clock(0);
    StateBuilder narrow = site(4, 2);
    Decision d = make("0.5")->decide(narrow.state, clock);
    auto r = routes(d);
    CHECK(!r.empty());
    LONGS_EQUAL(2, r[0].job);
    CHECK(d.actions[0].reason.find("displace") != std::string::npos);
    // One 8-core job behind it, also past its break-even, needs job 10's
    // cores as well: it is not helped by job 2 leaving, and job 2 is held
    // (only job 3 is routed, for its own wait).
    StateBuilder wide = site(8, 1);
    r = routes(make("0.5")->decide(wide.state, clock));
    LONGS_EQUAL(1, r.size());
    LONGS_EQUAL(3, r[0].job);
}

TEST(ForecastPolicy, BoundedDisplacementChargesNoMoreWorkThanThereIs)
{
    // As above, job 2 (4 cores, 1 h) saves 0.28 < 0.41 on its own.  Behind
    // it only job 3 (1 core, 10 min), foreseen to start at 4200 s, past its
    // break-even (660 s).  displacement=on charges job 2's 4 cores × 1 h
    // (0.40) and routes it; bounded, job 2 pushes out at most job 3's work,
    // 600 core-s (0.017): it is held and job 3 is routed for its own wait.
    auto site = [] {
        StateBuilder b;
        b.local("n1", 8, 8).group("aws", 4, 4, 0.4, 100);
        b.running(1, 4, 0, "r", 600).running(10, 4, 0, "r", 7200);
        b.pending(2, 4, BurstOption::Allow, "p", 3600).pending(3, 1, BurstOption::Allow, "q", 600);
        return b;
    };
    auto bounded = [] {
        PolicyParams p;
        p.set("lambda", "0.5");
        p.set("max_error", "0");
        p.set("displacement", "bounded");
        return std::make_unique<ForecastPolicy>(p);
    };
    StateBuilder b = site();
    ManualClock clock(0);
    auto r = routes(make("0.5")->decide(b.state, clock));
    CHECK(!r.empty());
    LONGS_EQUAL(2, r[0].job);
    r = routes(bounded()->decide(b.state, clock));
    LONGS_EQUAL(1, r.size());
    LONGS_EQUAL(3, r[0].job);
    // Where 4 cores × 1 h (job 20) were routed for their own wait in the
    // last hour, as much is expected to burst while job 2 would run here:
    // its run pushes out 4 cores × 1 h after all, and it is routed.
    auto policy = bounded();
    StateBuilder before;
    before.local("n1", 8, 8).group("aws", 4, 4, 0.4, 100);
    before.running(11, 8, -3600, "h", 36000).pending(20, 4, BurstOption::Allow, "h", 3600);
    clock.set(-3000);
    r = routes(policy->decide(before.state, clock));
    LONGS_EQUAL(1, r.size());
    LONGS_EQUAL(20, r[0].job);
    clock.set(0);
    Decision d = policy->decide(b.state, clock);
    r = routes(d);
    CHECK(!r.empty());
    LONGS_EQUAL(2, r[0].job);
    CHECK(d.actions[0].reason.find("displace") != std::string::npos);
}

TEST(ForecastPolicy, BoundedDisplacementChargesTwoLikeCandidatesOfOneDecisionTheSame)
{
    // 12 local cores: job 1 (8 cores) ends at 600 s, job 10 (4) at 2 h.
    // Jobs 2 and 4 (4 cores, 1 h) both start at 600 s (job 4 backfills
    // beside job 3's reservation) and save 0.28 < 0.41 on their own; the
    // work their runs push out is job 5's (1 core, 10 min): both are held.
    // Between them, job 3 (8 cores, 1 h, waiting until 4200 s) is routed
    // for its own wait.  The look-back is the routes of earlier decisions:
    // counted from the moment job 3 was routed, it charged job 4, weighed
    // after it, 4 cores × 1 h (0.40), which routed job 4 and not job 2.
    StateBuilder b;
    b.local("n1", 12, 12).group("aws", 4, 4, 0.4, 100);
    b.running(1, 8, 0, "r", 600).running(10, 4, 0, "r", 7200);
    b.pending(2, 4, BurstOption::Allow, "p", 3600)
        .pending(3, 8, BurstOption::Allow, "w", 3600)
        .pending(4, 4, BurstOption::Allow, "p", 3600)
        .pending(5, 1, BurstOption::Allow, "q", 600);
    PolicyParams p;
    p.set("lambda", "0.5");
    p.set("max_error", "0");
    p.set("benefit", "self"); // the displacement charge alone
    p.set("displacement", "bounded");
    ForecastPolicy policy(p);
    ManualClock clock(0);
    auto r = routes(policy.decide(b.state, clock));
    LONGS_EQUAL(2, r.size());
    LONGS_EQUAL(3, r[0].job);
    LONGS_EQUAL(5, r[1].job);
}

namespace {

// A 2-node group of 4-core nodes at 0.4 per hour.  At 0 job 2 (4 cores,
// 1 h) is forecast to start locally at 3600 s: at λ = 0.5 it saves
// 4 × 3500 s × 0.5 / 3600 = 1.94 > 0.41 (a node for 1 h + 100 s).
StateBuilder slot_site()
{
    StateBuilder b;
    b.local("n1", 8, 8).group("aws", 4, 2, 0.4, 100);
    b.running(1, 8, -7200, "r", 10800).pending(2, 4, BurstOption::Allow, "p", 3600);
    return b;
}

std::unique_ptr<ForecastPolicy> with_slots(const char* slots)
{
    PolicyParams p;
    p.set("lambda", "0.5");
    p.set("max_error", "0");
    p.set("slots", slots);
    return std::make_unique<ForecastPolicy>(p);
}

} // namespace

TEST(ForecastPolicy, ChargesABurstTheWaitingItsNodeSlotsDenied)
{
    // An hour before, both nodes were busy and job 30 (4 cores, forecast to
    // wait hours, far past its break-even) found no room.
    StateBuilder full;
    full.local("n1", 8, 8).group("aws", 4, 2, 0.4, 100).up("aws-1", 4).up("aws-2", 4);
    full.running(1, 8, -7200, "r", 36000).pending(30, 4, BurstOption::Allow, "b", 3600);
    ManualClock clock(-3600);
    auto blocked = with_slots("blocked");
    auto free = with_slots("free");
    CHECK(routes(blocked->decide(full.state, clock)).empty());
    CHECK(routes(free->decide(full.state, clock)).empty());
    // Job 2's node held for 3700 s would have relieved 4 cores × 3600 s of
    // waiting over as long before: 2.0 at λ, and 0.41 + 2.0 > 1.94.
    StateBuilder now = slot_site();
    clock.set(0);
    Decision d = blocked->decide(now.state, clock);
    CHECK(routes(d).empty());
    LONGS_EQUAL(1, d.notes.size());
    // slots=free does not price it, and nor does a policy that has not seen
    // the group full: both route job 2.
    LONGS_EQUAL(1, routes(free->decide(now.state, clock)).size());
    LONGS_EQUAL(1, routes(with_slots("blocked")->decide(now.state, clock)).size());
}

TEST(ForecastPolicy, ChargesABurstTheArrivalsItsNodeSlotsWouldTurnAway)
{
    // An hour before, job 30 arrived and would have paid for a burst (it is
    // forecast to wait hours).  Taking one node, job 2 leaves 4 cores of
    // room: a job of 8 cores arriving while it holds the node, as job 30 did
    // over as long before, is turned away and waits for it, on average half
    // its 3700 s: 8 × 1850 s × 0.5 / 3600 = 2.06, and 0.41 + 2.06 > 1.94.
    // A 4-core job 30 would still fit: job 2 is routed.  The first decision
    // sees an empty queue: a first decision's queue is not new arrivals.
    auto after = [](std::uint32_t cores) {
        StateBuilder early;
        early.local("n1", 8, 8).group("aws", 4, 2, 0.4, 100);
        early.running(1, 8, -7200, "r", 36000);
        auto policy = with_slots("arrivals");
        ManualClock clock(-3700);
        CHECK(routes(policy->decide(early.state, clock)).empty());
        early.pending(30, cores, BurstOption::Allow, "b", 3600);
        clock.set(-3600);
        LONGS_EQUAL(1, routes(policy->decide(early.state, clock)).size());
        clock.set(0);
        StateBuilder now = slot_site();
        return routes(policy->decide(now.state, clock));
    };
    CHECK(after(8).empty());
    LONGS_EQUAL(1, after(4).size());
    ManualClock clock(0);
    StateBuilder now = slot_site();
    LONGS_EQUAL(1, routes(with_slots("free")->decide(now.state, clock)).size());
    // Seen waiting on the policy's first decision (burstd's start or a
    // reload), the 8-core job 30 is not an arrival: job 2 is routed.
    StateBuilder first;
    first.local("n1", 8, 8).group("aws", 4, 2, 0.4, 100);
    first.running(1, 8, -7200, "r", 36000).pending(30, 8, BurstOption::Allow, "b", 3600);
    auto restarted = with_slots("arrivals");
    clock.set(-3600);
    LONGS_EQUAL(1, routes(restarted->decide(first.state, clock)).size());
    clock.set(0);
    LONGS_EQUAL(1, routes(restarted->decide(now.state, clock)).size());
}

TEST(ForecastPolicy, PricesHeldJobsByWhatHoldingPastJobsReallyCost)
{
    // Job 2 (8 cores, 1 h) is forecast to wait 600 s: at λ = 0.4 it saves
    // 0.44 < 0.82 and is held.  16 held jobs like it have ended; they are
    // the first held jobs, so each counts its first hold at time 0.
    auto held_then = [](ForecastPolicy& p, Time started, const char* group) {
        ManualClock clock(0);
        for (JobId id = 100; id < 116; ++id) {
            StateBuilder held = full_site(600);
            held.state.snapshot.jobs[1].id = id;
            CHECK(routes(p.decide(held.state, clock)).empty());
            JobEnd e;
            e.id = id;
            e.category = "p";
            e.elapsed = 3600;
            e.end_time = started + 3600;
            e.node_group = group;
            p.observe(e);
        }
    };
    StateBuilder b = full_site(600);
    ManualClock clock(0);
    // They all ended in the cloud, but started 100 s after their first hold
    // (a later burst onto warm cores): holding cost them 1/6 of the
    // forecast wait, not all of it.  Job 2 is still held.
    auto cheap = make("0.4");
    held_then(*cheap, 100, "aws");
    CHECK(routes(cheap->decide(b.state, clock)).empty());
    // They started locally, but at 1800 s: held jobs cost 3 × their forecast
    // wait, so job 2's wait is priced 0.44 + 2 × 0.4 × 8 × 600 / 3600 ≈ 1.51
    // > 0.82, and it is routed.
    auto slow = make("0.4");
    held_then(*slow, 1800, "");
    Decision d = slow->decide(b.state, clock);
    LONGS_EQUAL(1, routes(d).size());
    CHECK(d.actions[0].reason.find("3.00 times their forecast wait") != std::string::npos);
}

TEST(ForecastPolicy, LearnsRuntimesFromFinishedJobs)
{
    // The running job's limit is 10 h, but its user's jobs run 30 s: the
    // cores are expected back within a boot, so nothing bursts.
    auto p = make("1");
    StateBuilder b = full_site(36000);
    b.state.snapshot.jobs[0].user = "fast";
    ManualClock clock(0);
    for (JobId id = 100; id < 102; ++id) {
        StateBuilder seen;
        seen.local("n1", 8, 8).group("aws", 8, 4, 0.8, 100).running(id, 8, 0, "r", 36000);
        seen.state.snapshot.jobs[0].user = "fast";
        p->decide(seen.state, clock);
        JobEnd e;
        e.id = id;
        e.category = "r";
        e.elapsed = 30;
        p->observe(e);
    }
    clock.set(10);
    CHECK(routes(p->decide(b.state, clock)).empty());
}

TEST(ForecastPolicy, ANarrowJobOnAWarmNodePaysItsShareAndNoBoot)
{
    // Local cores back in 600 s; a 2-core, 1 h job.  On a cold group it
    // would save 2 × 500 s × λ=1 ≈ 0.28 for a whole node-hour-and-boot ≈
    // 0.82: stays.  With an idle node up, it saves 2 × 600 s ≈ 0.33 for a
    // quarter of the node for 1 h = 0.2: bursts.
    StateBuilder cold;
    cold.local("n1", 8, 8).group("aws", 8, 4, 0.8, 100);
    cold.running(1, 8, 0, "r", 600).pending(2, 2, BurstOption::Allow, "p", 3600);
    ManualClock clock(0);
    CHECK(routes(make("1")->decide(cold.state, clock)).empty());
    StateBuilder warm = cold;
    warm.up("aws-1");
    LONGS_EQUAL(1, routes(make("1")->decide(warm.state, clock)).size());
}

TEST(ForecastPolicy, NarrowJobsThatFillANodeTogetherPayOnlyTheirShares)
{
    // Local cores back in 600 s; 1-core jobs of 1 h.  Alone, each saves
    // 500 s × λ=1 ≈ 0.139 against a whole cold node for 1 h and its boot ≈
    // 0.822: none bursts.  Eight of them fill a node: each pays an eighth
    // (≈ 0.103) and all burst, the first resuming the node and the others
    // taking its spare cores.
    auto burst = [](JobId jobs) {
        StateBuilder b;
        b.local("n1", 8, 8).group("aws", 8, 4, 0.8, 100).running(1, 8, 0, "r", 600);
        for (JobId id = 2; id < 2 + jobs; ++id)
            b.pending(id, 1, BurstOption::Allow, "p", 3600);
        ManualClock clock(0);
        return routes(make("1")->decide(b.state, clock)).size();
    };
    LONGS_EQUAL(0, burst(4));
    LONGS_EQUAL(8, burst(8));
}

namespace {

// Local cores back in 10 h; an 8-core job of 1 h.  The cheap group (0.1 per
// core-hour) has every node down and boots in an hour: 1 node × 2 h × 0.8 =
// 1.6.  The dear one (0.15 per core-hour) has an idle node up: 1 h × 1.2.
StateBuilder warm_dear_cold_cheap()
{
    StateBuilder b;
    b.local("n1", 8, 8).group("cheap", 8, 4, 0.8, 3600).group("dear", 8, 4, 1.2, 100).up("dear-1");
    b.running(1, 8, 0, "r", 36000).pending(2, 8, BurstOption::Allow, "p", 3600);
    return b;
}

std::string routed_to(const StateBuilder& b, const char* expander)
{
    PolicyParams p;
    p.set("lambda", "1");
    p.set("max_error", "0");
    if (expander)
        p.set("expander", expander);
    ForecastPolicy policy(p);
    p.reject_unread("forecast");
    ManualClock clock(0);
    auto r = routes(policy.decide(b.state, clock));
    return r.size() == 1 ? r[0].group : std::to_string(r.size()) + " routes";
}

} // namespace

TEST(ForecastPolicy, ChoosesTheGroupThroughTheExpander)
{
    StateBuilder b = warm_dear_cold_cheap();
    STRCMP_EQUAL("dear", routed_to(b, nullptr).c_str()); // least-cost: warm cores quote lower
    STRCMP_EQUAL("dear", routed_to(b, "least-cost").c_str());
    STRCMP_EQUAL("cheap", routed_to(b, "price").c_str());
    STRCMP_EQUAL("cheap", routed_to(b, "priority").c_str());
    // A group backing off (its launches failed) is not offered, whatever the expander.
    b.state.hire_limits["cheap"] = 0;
    STRCMP_EQUAL("dear", routed_to(b, "price").c_str());
    b.state.hire_limits = {{"dear", 0}};
    STRCMP_EQUAL("dear", routed_to(b, nullptr).c_str()); // its idle node needs no hiring
    b.up("dear-1", 8);
    STRCMP_EQUAL("cheap", routed_to(b, nullptr).c_str());
}

namespace {

// Idle nodes powered down in the last decision of a history in which aws-1
// went idle and was needed again 600 s later, five times (λ = 0.05: a
// fresh node costs 0.8 × 100 / 3600 + 0.05 × 8 × 100 / 3600 ≈ 0.033,
// keeping one idle for 600 s 0.13).  `routed` cores of a job routed to
// the group wait in the last decision.
std::vector<std::string> released_after_long_gaps(const char* retention, std::uint32_t routed = 0)
{
    PolicyParams p;
    p.set("lambda", "0.05");
    if (retention)
        p.set("retention", retention);
    ForecastPolicy policy(p);
    p.reject_unread("forecast");
    StateBuilder b;
    b.local("n1", 8, 0).group("aws", 8, 2, 0.8, 100);
    ManualClock clock(0);
    Decision d;
    for (int i = 0; i < 6; ++i) {
        policy.decide(b.up("aws-1", 8).state, clock);
        clock.set(clock.now() + 60);
        if (i == 5 && routed > 0) {
            b.pending(1, routed);
            b.state.snapshot.jobs.back().partitions = {"aws"};
        }
        d = policy.decide(b.up("aws-1", 0).state, clock);
        clock.set(clock.now() + 600);
    }
    std::vector<std::string> out;
    for (const auto& r : burst::test::actions<ReleaseNodes>(d))
        out.insert(out.end(), r.nodes.begin(), r.nodes.end());
    return out;
}

} // namespace

TEST(ForecastPolicy, PowersDownIdleNodesNotWorthKeepingUntilSuspendTime)
{
    const auto learned = released_after_long_gaps(nullptr);
    LONGS_EQUAL(1, learned.size());
    STRCMP_EQUAL("aws-1", learned[0].c_str());
    CHECK(released_after_long_gaps("suspend").empty());
}

TEST(ForecastPolicy, KeepsAnIdleNodeAJobRoutedToItsGroupWillTake)
{
    CHECK(released_after_long_gaps(nullptr, 1).empty());
    CHECK(released_after_long_gaps(nullptr, 8).empty());
}
