#include "policy/budget/budget_cap.hpp"

#include "policy/policy_test_state.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// Day 2, 03:00 UTC: an hour interval and a day interval both started before it.
constexpr Time kNow = 86400 + 3 * 3600;

JobId route_of(const Action& a) { return std::get<RouteToCloud>(a.what).job; }

bool contains(const std::vector<std::string>& notes, const std::string& text)
{
    for (const auto& n : notes)
        if (n.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

TEST_GROUP(BudgetCap)
{
    test::StateBuilder b;
    IntervalSpend spent;
    SuspendTimes suspend{{"cloud", 300.0}};

    void setup() override
    {
        // 3.6 per hour = 0.001 per second; 4 cores per node, boots in 100 s.
        b.group("cloud", 4, 8, 3.6, 100);
    }
    // A pending job of `account` asking for one node for `limit` s: up to
    // (100 + limit) × 0.001 on cloud.
    Job& pending(JobId id, const std::string& account, Seconds limit, std::uint32_t cpus = 4)
    {
        b.pending(id, cpus, BurstOption::Allow, "c", limit);
        Job& j = b.state.snapshot.jobs.back();
        j.account = account;
        return j;
    }
    Decision routes(std::vector<JobId> ids)
    {
        Decision d;
        for (JobId id : ids)
            d.add(RouteToCloud{id, "cloud"}, "the queue is long");
        return d;
    }
    std::vector<JobId> kept(const Decision& d)
    {
        std::vector<JobId> ids;
        for (const auto& a : d.actions)
            ids.push_back(route_of(a));
        return ids;
    }
};

TEST(BudgetCap, RoutesWithinTheBudgetPassAndTheOneThatWouldExceedItStaysLocalWithANote)
{
    pending(1, "bio", 200);
    pending(2, "bio", 200);
    pending(3, "bio", 200);
    spent[86400]["bio"] = 0.40;
    BudgetCap cap({{"bio", 1.00, 86400}}, suspend, b.state, spent, kNow);
    Decision d = routes({1, 2, 3});
    auto notes = cap.filter(d);
    // 0.40 spent + 0.30 + 0.30 reaches the 1.00 exactly; job 3 would make it 1.30.
    CHECK((kept(d) == std::vector<JobId>{1, 2}));
    CHECK_EQUAL(1u, notes.size());
    STRCMP_EQUAL("budget of account bio: 0.40 spent + 0.60 committed of 1.00 per day; job 3 would need up to 0.30 "
                 "on cloud, so it stays local",
                 notes[0].c_str());
}

TEST(BudgetCap, WhatAnEarlierPolicyOfTheChainRoutedCountsForTheNext)
{
    pending(1, "bio", 200);
    pending(2, "bio", 200);
    BudgetCap cap({{"bio", 0.50, 86400}}, suspend, b.state, spent, kNow);
    Decision first = routes({1}), second = routes({2});
    CHECK(cap.filter(first).empty());
    CHECK(cap.dropped().empty());
    CHECK_EQUAL(1u, cap.filter(second).size());
    CHECK(second.actions.empty());
    // Counted for burstd's over_budget outcome (and burstsim's report).
    CHECK((cap.dropped() == std::map<std::string, std::uint64_t>{{"route", 1}}));
    // Routing the same job again costs nothing more.
    Decision again = routes({1});
    CHECK(cap.filter(again).empty());
    CHECK_EQUAL(1u, again.actions.size());
}

TEST(BudgetCap, TheBoundedRemainingCostOfRunningAndRoutedCloudJobsCounts)
{
    pending(1, "bio", 200);
    // Running on cloud-1 since 100 s ago with a 500 s limit: 400 s more = 0.40.
    b.running(5, 4, kNow - 100, "c", 500);
    b.state.snapshot.jobs.back().account = "bio";
    b.state.snapshot.jobs.back().nodes = {"cloud-1"};
    b.up("cloud-1", 4);
    // Already routed to the group, not started: 0.30.
    pending(6, "bio", 200).partitions = {"local", "cloud"};
    // Running on a local node: costs the budget nothing.
    b.local("n1", 32, 4);
    b.running(7, 4, kNow - 100, "c", 500);
    b.state.snapshot.jobs.back().account = "bio";
    b.state.snapshot.jobs.back().nodes = {"n1"};
    spent[86400]["bio"] = 0.10;

    BudgetCap fits({{"bio", 1.10, 86400}}, suspend, b.state, spent, kNow);
    Decision d = routes({1});
    CHECK(fits.filter(d).empty()); // 0.10 + 0.40 + 0.30 + 0.30 = 1.10
    CHECK_EQUAL(1u, d.actions.size());

    BudgetCap tight({{"bio", 1.09, 86400}}, suspend, b.state, spent, kNow);
    d = routes({1});
    auto notes = tight.filter(d);
    CHECK(d.actions.empty());
    CHECK(contains(notes, "0.10 spent + 0.70 committed of 1.09 per day; job 1 would need up to 0.30"));
}

TEST(BudgetCap, ANodeStillBootingAddsItsBootTimeToARunningJobsCommitment)
{
    pending(1, "bio", 200);
    b.running(5, 4, kNow, "c", 500);
    b.state.snapshot.jobs.back().account = "bio";
    b.state.snapshot.jobs.back().nodes = {"cloud-1"};
    b.node("cloud-1").flags = kNodeCloud | kNodePoweringUp;
    BudgetCap cap({{"bio", 0.89, 86400}}, suspend, b.state, spent, kNow);
    Decision d = routes({1});
    auto notes = cap.filter(d); // (100 + 500) × 0.001 + 0.30 = 0.90
    CHECK(d.actions.empty());
    CHECK(contains(notes, "0.00 spent + 0.60 committed"));
}

// A boot may run past BootTime until it is given up (NodeGroup::longest_boot):
// everything that waits on a boot commits that long.
TEST(BudgetCap, BootsCountAsLongAsTheGroupsLongestBoot)
{
    b.state.groups[0].longest_boot = 250;
    pending(1, "bio", 200);
    b.running(5, 4, kNow, "c", 500);
    b.state.snapshot.jobs.back().account = "bio";
    b.state.snapshot.jobs.back().nodes = {"cloud-1"};
    b.node("cloud-1").flags = kNodeCloud | kNodePoweringUp;
    BudgetCap cap({{"bio", 10, 86400}, {"*", 1.50, 3600}}, suspend, b.state, spent, kNow);
    Decision d = routes({1});
    cap.filter(d); // (250 + 200) × 0.001 for the route
    CHECK_EQUAL(1u, d.actions.size());
    Decision hire;
    hire.add(HireNodes{"cloud", 5}, "demand");
    cap.filter(hire);
    std::map<std::string, double> committed;
    for (const BudgetStanding& s : cap.standings())
        committed[s.account] = s.committed;
    // The running job's booting node, (250 + 500) × 0.001, and the route's
    // node, (250 + 200) × 0.001.
    DOUBLES_EQUAL(0.75 + 0.45, committed["bio"], 1e-9);
    // What the route's fresh node may idle, its boot and SuspendTime, and
    // one hired node the same: (250 + 300) × 0.001 each; a second would
    // not fit the 1.50.
    DOUBLES_EQUAL(0.55 + 0.55, committed[""], 1e-9);
    CHECK_EQUAL(1u, std::get<HireNodes>(hire.actions.at(0).what).count);
}

// The routes of a decision are checked before its hires, wherever they
// stand in it: a hire that took the budget the routed jobs' idle capacity
// needs would buy nodes for jobs the cap then keeps local.
TEST(BudgetCap, ADecisionsRoutesAreCheckedBeforeItsHires)
{
    pending(1, "bio", 200);
    BudgetCap cap({{"*", 0.70, 3600}}, suspend, b.state, spent, kNow);
    Decision d;
    d.add(HireNodes{"cloud", 1}, "for job 1");
    d.add(RouteToCloud{1, "cloud"}, "the queue is long");
    cap.filter(d);
    // The route kept, the hire (0.40 more) dropped, in the decision's order.
    CHECK_EQUAL(1u, d.actions.size());
    CHECK(std::holds_alternative<RouteToCloud>(d.actions[0].what));
    LONGS_EQUAL(1, route_of(d.actions[0]));
    CHECK_EQUAL(1u, cap.dropped().count("hire"));
}

// A route on fresh nodes leaves their spare cores to the routes after it:
// Slurm fills them before it resumes more nodes, so a long job there keeps
// the short job's nodes up, mostly idle, until its own limit.
TEST(BudgetCap, ALaterRouteMayLandOnTheCoresAnEarlierOneLeftFreeOnFreshNodes)
{
    pending(1, "bio", 200, 6); // two fresh nodes of 4 cores, 2 left free
    pending(2, "bio", 5000, 2);
    const std::vector<BudgetLimit> limits{{"bio", 100, 86400}, {"*", 5.0, 86400}};
    {
        // Alone, job 2 takes a fresh node: its spare cores' and tail's
        // (100 + 5000 + 300) × 0.001 less its own 2.5 = 2.9 fits.
        BudgetCap cap(limits, suspend, b.state, spent, kNow);
        Decision d = routes({2});
        cap.filter(d);
        CHECK((kept(d) == std::vector<JobId>{2}));
    }
    // After job 1, a core on each of job 1's nodes would keep both up
    // (5000 + 100 − 300) s longer, 9.6 (and 0.12 of their minimum billed
    // time), less job 2's own 2.5: 7.22 on top of job 1's 0.9.
    BudgetCap cap(limits, suspend, b.state, spent, kNow);
    Decision d = routes({1, 2});
    auto notes = cap.filter(d);
    CHECK((kept(d) == std::vector<JobId>{1}));
    CHECK(contains(notes, "0.90 committed of 5.00 per day; job 2 may leave up to 7.22 of cloud capacity unused"));
}

// Nodes hired for jobs the budget keeps local would idle the unattributed
// account's budget away; a hire still goes ahead for jobs already waiting
// for the group.
TEST(BudgetCap, AHireForJobsTheBudgetKeepsLocalIsDroppedUnlessAJobWaitsForItsNodes)
{
    pending(1, "bio", 2000); // (100 + 2000) × 0.001 = 2.10 over bio's 1.00
    const std::vector<BudgetLimit> limits{{"bio", 1.00, 86400}, {"*", 5.0, 86400}};
    auto decide = [&] {
        Decision d;
        d.add(HireNodes{"cloud", 2}, "demand");
        d.add(RouteToCloud{1, "cloud"}, "the queue is long");
        BudgetCap cap(limits, suspend, b.state, spent, kNow);
        auto notes = cap.filter(d);
        return std::make_pair(d, notes);
    };
    auto [dropped, notes] = decide();
    CHECK(dropped.actions.empty());
    CHECK(contains(notes, "hiring 2 node(s) of cloud dropped: the budget keeps the jobs this decision routed there "
                          "local, and no other job waits for its nodes"));
    // An earlier policy of the chain routed chem's job there this cycle.
    pending(2, "chem", 100);
    {
        BudgetCap cap(limits, suspend, b.state, spent, kNow);
        Decision first = routes({2});
        cap.filter(first);
        CHECK((kept(first) == std::vector<JobId>{2}));
        Decision second;
        second.add(HireNodes{"cloud", 2}, "demand");
        second.add(RouteToCloud{1, "cloud"}, "the queue is long");
        cap.filter(second);
        CHECK_EQUAL(1u, second.actions.size());
        CHECK(std::holds_alternative<HireNodes>(second.actions.at(0).what));
    }
    b.state.snapshot.jobs.back().partitions = {"local", "cloud"}; // routed in an earlier cycle
    auto [kept_hire, more] = decide();
    CHECK_EQUAL(1u, kept_hire.actions.size());
    CHECK_EQUAL(2u, std::get<HireNodes>(kept_hire.actions.at(0).what).count);
}

TEST(BudgetCap, AtANewIntervalSpendRestartsButJobsStillRunningKeepTheirCommitment)
{
    pending(1, "bio", 200);
    b.running(5, 4, kNow - 100, "c", 900); // 800 s more = 0.80
    b.state.snapshot.jobs.back().account = "bio";
    b.state.snapshot.jobs.back().nodes = {"cloud-1"};
    b.up("cloud-1", 4);
    spent[86400]["bio"] = 0; // the day just began
    BudgetCap cap({{"bio", 1.00, 86400}}, suspend, b.state, spent, kNow);
    Decision d = routes({1});
    auto notes = cap.filter(d);
    CHECK(d.actions.empty());
    CHECK(contains(notes, "0.00 spent + 0.80 committed of 1.00 per day"));
}

TEST(BudgetCap, AJobWithoutATimeLimitIsNotRoutedWhileABudgetAppliesToItsAccount)
{
    pending(1, "bio", 0);
    pending(2, "chem", 0); // no line for chem and no *: unlimited
    BudgetCap cap({{"bio", 100, 86400}}, suspend, b.state, spent, kNow);
    Decision d = routes({1, 2});
    auto notes = cap.filter(d);
    CHECK((kept(d) == std::vector<JobId>{2}));
    CHECK_EQUAL(1u, notes.size());
    STRCMP_EQUAL("budget of account bio (100.00 per day): job 1 has no time limit, so its cloud cost cannot be "
                 "bounded; it stays local",
                 notes[0].c_str());
}

TEST(BudgetCap, ACloudJobWithoutATimeLimitLeavesItsAccountsCommitmentUnboundedSoNothingMoreIsRouted)
{
    pending(1, "bio", 200);
    b.running(5, 4, kNow - 100, "c", 0);
    b.state.snapshot.jobs.back().account = "bio";
    b.state.snapshot.jobs.back().nodes = {"cloud-1"};
    b.up("cloud-1", 4);
    BudgetCap cap({{"*", 100, 86400}}, suspend, b.state, spent, kNow);
    Decision d = routes({1});
    auto notes = cap.filter(d);
    CHECK(d.actions.empty());
    CHECK(contains(notes, "job 5 runs on cloud nodes without a time limit"));
}

TEST(BudgetCap, AStarLineAppliesToEachAccountWithoutItsOwn)
{
    pending(1, "bio", 200);
    pending(2, "chem", 200);
    pending(3, "phys", 200);
    spent[86400] = {{"bio", 0.90}, {"chem", 0.90}, {"phys", 0.90}};
    BudgetCap cap({{"*", 1.00, 86400}, {"phys", 5.00, 86400}}, suspend, b.state, spent, kNow);
    Decision d = routes({1, 2, 3});
    auto notes = cap.filter(d);
    CHECK((kept(d) == std::vector<JobId>{3}));
    CHECK(contains(notes, "budget of account bio: 0.90 spent"));
    CHECK(contains(notes, "budget of account chem: 0.90 spent"));
}

TEST(BudgetCap, HiringIsBookedToTheUnattributedAccountAndCutToWhatTheStarBudgetAllows)
{
    // Each node: (100 s boot + 300 s SuspendTime) × 0.001 = 0.40.
    spent[3600][""] = 0.10;
    BudgetCap cap({{"*", 1.00, 3600}}, suspend, b.state, spent, kNow);
    Decision d;
    d.add(HireNodes{"cloud", 5}, "demand over the boot window");
    auto notes = cap.filter(d);
    CHECK_EQUAL(1u, d.actions.size());
    CHECK_EQUAL(2u, std::get<HireNodes>(d.actions[0].what).count);
    STRCMP_EQUAL("demand over the boot window; the budget of capacity no job uses (Budget=*) allows 2 of 5",
                 d.actions[0].reason.c_str());
    CHECK(contains(notes, "budget of capacity no job uses (Budget=*): 0.10 spent + 0.00 committed of 1.00 per "
                          "hour; hiring 5 node(s) of cloud would need up to 2.00, hiring 2"));
    // The 0.80 is committed now: a later hire finds 0.10 left.
    Decision more;
    more.add(HireNodes{"cloud", 1}, "more");
    CHECK(contains(cap.filter(more), "0.10 spent + 0.80 committed of 1.00 per hour"));
    CHECK(more.actions.empty());
}

TEST(BudgetCap, IdleCloudNodesCommitTheirTimeUntilSlurmSuspendsThem)
{
    Instance idle;
    idle.node = "cloud-1";
    idle.node_group = "cloud";
    idle.state = InstanceState::Running;
    idle.running_since = kNow - 50;
    b.state.instances.push_back(idle);
    b.up("cloud-1");
    BudgetCap cap({{"*", 0.75, 3600}}, suspend, b.state, spent, kNow);
    Decision d;
    d.add(HireNodes{"cloud", 1}, "r"); // 0.30 (idle cloud-1) + 0.40 fits; a second would not
    d.add(HireNodes{"cloud", 1}, "r");
    auto notes = cap.filter(d);
    CHECK_EQUAL(1u, d.actions.size());
    CHECK(contains(notes, "0.00 spent + 0.70 committed of 0.75 per hour"));
}

TEST(BudgetCap, WithoutASuspendTimeAHiredNodeCannotBeBoundedAndIsNotHiredUnderAStarBudget)
{
    BudgetCap cap({{"*", 1000, 86400}}, SuspendTimes{{"cloud", std::nullopt}}, b.state, spent, kNow);
    Decision d;
    d.add(HireNodes{"cloud", 1}, "r");
    auto notes = cap.filter(d);
    CHECK(d.actions.empty());
    CHECK(contains(notes, "slurm.conf has no SuspendTime for cloud's partition"));
    // A budget for named accounts only leaves hiring alone.
    BudgetCap named({{"bio", 1, 86400}}, SuspendTimes{}, b.state, spent, kNow);
    Decision h;
    h.add(HireNodes{"cloud", 3}, "r");
    CHECK(named.filter(h).empty());
    CHECK_EQUAL(3u, std::get<HireNodes>(h.actions[0].what).count);
}

TEST(BudgetCap, EachAccountIsCheckedAgainstTheSpendOfItsOwnInterval)
{
    pending(1, "bio", 200);
    pending(2, "chem", 200);
    // bio's budget is per day, chem's per hour: each reads its own interval's spend.
    spent[86400] = {{"bio", 0.80}, {"chem", 5.00}};
    spent[3600] = {{"bio", 0.00}, {"chem", 0.10}};
    BudgetCap cap({{"bio", 1.00, 86400}, {"chem", 1.00, 3600}}, suspend, b.state, spent, kNow);
    Decision d = routes({1, 2});
    auto notes = cap.filter(d);
    CHECK((kept(d) == std::vector<JobId>{2}));
    CHECK(contains(notes, "budget of account bio: 0.80 spent + 0.00 committed of 1.00 per day"));
    auto standing = cap.standings();
    CHECK_EQUAL(2u, standing.size());
    DOUBLES_EQUAL(0.10, standing[1].spent, 1e-9); // chem
    DOUBLES_EQUAL(0.30, standing[1].committed, 1e-9);
}

TEST(BudgetCap, WithoutBudgetLinesNothingIsFiltered)
{
    pending(1, "bio", 0);
    BudgetCap cap({}, SuspendTimes{}, b.state, spent, kNow);
    Decision d = routes({1});
    d.add(HireNodes{"cloud", 8}, "r");
    CHECK(cap.filter(d).empty());
    CHECK_EQUAL(2u, d.actions.size());
    CHECK(cap.standings().empty());
}

TEST(BudgetCap, AnArrayIsBoundedByAllItsTasksOnWholeNodes)
{
    Job& j = pending(1, "bio", 200, 6); // 6 cores: 2 nodes of 4 per task
    j.array_task_count = 3;
    BudgetCap cap({{"bio", 1.79, 86400}}, suspend, b.state, spent, kNow);
    Decision d = routes({1});
    CHECK(contains(cap.filter(d), "job 1 would need up to 1.80")); // 3 × 2 × 300 s × 0.001
}

TEST(BudgetCap, ARouteThatFitsItsAccountStaysLocalWhenTheCapacityItLeavesIdleWouldOverrunTheStarLine)
{
    // One core of a fresh 4-core node for 200 s: bio pays (100 + 200) ×
    // 0.001 = 0.30.  "" pays the node's boot and SuspendTime tail, (100 +
    // 300) × 0.001, and its three free cores for the limit, 0.20 − 0.05.
    pending(1, "bio", 200, 1);
    for (double star : {0.54, 0.55}) {
        BudgetCap cap({{"bio", 100, 86400}, {"*", star, 86400}}, suspend, b.state, spent, kNow);
        Decision d = routes({1});
        auto notes = cap.filter(d);
        if (star < 0.55) {
            CHECK(d.actions.empty());
            CHECK(contains(notes, "budget of capacity no job uses (Budget=*): 0.00 spent + 0.00 committed of 0.54 per "
                                  "day; job 1 may leave up to 0.55 of cloud capacity unused"));
        } else {
            CHECK(notes.empty());
            CHECK_EQUAL(1u, d.actions.size());
        }
    }
    // Routed and still pending, it keeps "" committed: a hire finds 0.05 left.
    b.state.snapshot.jobs.back().partitions = {"local", "cloud"};
    BudgetCap later({{"bio", 100, 86400}, {"*", 0.60, 86400}}, suspend, b.state, spent, kNow);
    Decision hire;
    hire.add(HireNodes{"cloud", 1}, "r");
    CHECK(contains(later.filter(hire), "0.00 spent + 0.55 committed of 0.60 per day"));
    CHECK(hire.actions.empty());
}

TEST(BudgetCap, ARouteMayKeepEveryNodeWithAFreeCoreUpUntilItsLimit)
{
    // Three nodes up, each with 3 of its 4 cores busy for 100 s more: each
    // commits (100 + 300) × 0.001 − 0.75 × 0.10 = 0.325 to "".  A 3-core
    // job for 1000 s may take one free core on each and keep all three up
    // 900 s longer, paying 0.75 of a node: 2.70 − 0.75 = 1.95, more than on
    // a fresh node (0.40 + 1.00 − 0.75).
    for (int n = 1; n <= 3; ++n) {
        const std::string node = "cloud-" + std::to_string(n);
        b.running(10 + n, 3, kNow - 900, "c", 1000);
        b.state.snapshot.jobs.back().account = "bio";
        b.state.snapshot.jobs.back().nodes = {node};
        b.up(node, 3);
        Instance up;
        up.node = node;
        up.node_group = "cloud";
        up.state = InstanceState::Running;
        up.requested_at = kNow - 1100;
        up.running_since = kNow - 1000;
        b.state.instances.push_back(up);
    }
    pending(1, "bio", 1000, 3);
    for (double star : {2.92, 2.925}) {
        BudgetCap cap({{"bio", 100, 86400}, {"*", star, 86400}}, suspend, b.state, spent, kNow);
        Decision d = routes({1});
        auto notes = cap.filter(d);
        if (star < 2.925) {
            CHECK(d.actions.empty());
            CHECK_EQUAL(1u, notes.size());
            STRCMP_CONTAINS("0.00 spent + 0.98 committed of 2.92 per day; job 1 may leave up to 1.95", notes[0].c_str());
        } else {
            CHECK(notes.empty());
        }
    }
}

TEST(BudgetCap, BilledByTheHourNodesCommitEveryHourTheyBeginEvenPoweredDown)
{
    b.state.groups.back().billing = Billing::PerHour;
    // Powered down 500 s into its hour, 100 s ago: 3000 s of it still to pay.
    b.state.ended_but_billed.push_back(BilledSpan{"cloud-1", "cloud", kNow - 600, kNow - 100});
    // Up 1000 s and idle: its SuspendTime ends within the hour, 2600 s to pay.
    Instance idle;
    idle.node = "cloud-2";
    idle.node_group = "cloud";
    idle.state = InstanceState::Running;
    idle.requested_at = idle.launched_at = kNow - 1000;
    idle.running_since = kNow - 900;
    b.state.instances.push_back(idle);
    b.up("cloud-2");
    // A hire: boot and SuspendTime (400 s) billed as one hour, 3.6.
    BudgetCap cap({{"*", 9.2, 3600}}, suspend, b.state, spent, kNow);
    Decision d;
    d.add(HireNodes{"cloud", 2}, "r");
    auto notes = cap.filter(d);
    CHECK(contains(notes, "0.00 spent + 5.60 committed of 9.20 per hour; hiring 2 node(s) of cloud would need up to "
                          "7.20, hiring 1"));
    CHECK_EQUAL(1u, std::get<HireNodes>(d.actions[0].what).count);
}

TEST(BudgetCap, AnInstanceBeingTerminatedCommitsTheRestOfItsBilledHour)
{
    b.state.groups.back().billing = Billing::PerHour;
    // Up 1000 s, its terminate call in flight: billed to 3600 s unless the
    // provider takes a minute past the hour, 2600 s to pay.
    Instance going;
    going.node = "cloud-1";
    going.node_group = "cloud";
    going.state = InstanceState::Terminating;
    going.requested_at = going.launched_at = kNow - 1000;
    b.state.instances.push_back(going);
    BudgetCap cap({{"*", 5.0, 3600}}, suspend, b.state, spent, kNow);
    Decision d;
    d.add(HireNodes{"cloud", 1}, "r");
    CHECK(contains(cap.filter(d), "0.00 spent + 2.60 committed of 5.00 per hour; hiring 1 node(s) of cloud would need "
                                  "up to 3.60, dropped"));
    CHECK(d.actions.empty());
}

TEST(BudgetCap, AWarmPoolPowersUpOnlyTheNodesCapacityNoJobUsesMayStillPayFor)
{
    // Each node it powers up may idle its boot and SuspendTime: (100 + 300) × 0.001.
    BudgetCap cap({{"*", 1.00, 3600}}, suspend, b.state, spent, kNow);
    Decision d;
    d.add(KeepPlaceholders{"cloud", 4}, "forecast");
    CHECK(cap.filter(d).size() >= 1);
    LONGS_EQUAL(1, d.actions.size());
    LONGS_EQUAL(2, std::get<KeepPlaceholders>(d.actions[0].what).count);
    STRCMP_CONTAINS("the budget of capacity no job uses (Budget=*) allows 2 more node(s) on", d.actions[0].reason.c_str());
}

TEST(BudgetCap, ASpentBudgetKeepsNoWarmNodeBeyondWhatRealWorkHolds)
{
    b.node("cloud-1").flags = kNodeCloud;
    b.node("cloud-1").alloc_cpus = 4;
    b.node("cloud-2").flags = kNodeCloud; // held warm: idle
    spent[3600][""] = 2.0;
    BudgetCap cap({{"*", 1.00, 3600}}, suspend, b.state, spent, kNow);
    Decision d;
    d.add(KeepPlaceholders{"cloud", 3}, "forecast");
    const auto notes = cap.filter(d);
    LONGS_EQUAL(1, d.actions.size()); // kept: the pool must still shrink
    LONGS_EQUAL(1, std::get<KeepPlaceholders>(d.actions[0].what).count);
    CHECK(contains(notes, "the warm pool of cloud keeps no idle node on"));
}
