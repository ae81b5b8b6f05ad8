#include "policy/hiring/pfa/pfa_policy.hpp"
#include "policy/hiring/pfa/resource_profile.hpp"
#include "policy/hiring/pfa/throughput_profile.hpp"
#include "policy/hiring/pfa/token_waves.hpp"

#include "policy/policy_test_state.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::actions;
using burst::test::StateBuilder;

namespace {

std::uint32_t hired(const Decision& d, const std::string& group)
{
    std::uint32_t n = 0;
    for (const auto& h : actions<HireNodes>(d))
        if (h.group == group)
            n += h.count;
    return n;
}

std::size_t routed(const Decision& d, const std::string& group)
{
    std::size_t n = 0;
    for (const auto& r : actions<RouteToCloud>(d))
        n += r.group == group;
    return n;
}

// Pending jobs of `account`, ids from `first`, each one core.
void queue(StateBuilder& b, JobId first, std::size_t n, const std::string& account = "a")
{
    for (std::size_t i = 0; i < n; ++i) {
        b.pending(first + JobId(i), 1);
        b.state.snapshot.jobs.back().account = account;
    }
}

void depends(StateBuilder& b, JobId id, const std::string& dependency)
{
    for (auto& j : b.state.snapshot.jobs)
        if (j.id == id) {
            j.dependency = dependency;
            j.reason = "Dependency";
        }
}

Instance instance(const std::string& node, const std::string& group, Time launched)
{
    Instance i;
    i.node = node;
    i.node_group = group;
    i.state = InstanceState::Running;
    i.requested_at = launched;
    i.running_since = launched + 60;
    return i;
}

PolicyParams params(std::initializer_list<std::pair<std::string, std::string>> kv)
{
    PolicyParams p;
    for (const auto& [k, v] : kv)
        p.set(k, v);
    return p;
}

PfaPolicy make(std::initializer_list<std::pair<std::string, std::string>> kv)
{
    PolicyParams p = params(kv);
    return PfaPolicy(p);
}

JobEnd ended(const std::string& account, const std::string& group, std::uint32_t cpus)
{
    JobEnd e;
    e.account = account;
    e.node_group = group;
    e.cpus = cpus;
    return e;
}

// The demand in cloud cores pfa noted for `account`.
std::string noted_demand(const Decision& d, const std::string& account)
{
    const std::string key = "pfa: account " + account + " budget ";
    for (const auto& note : d.notes)
        if (note.compare(0, key.size(), key) == 0) {
            const auto at = note.find(" demand ");
            return note.substr(at + 8, note.find(' ', at + 8) - at - 8);
        }
    return "none";
}

Share share(const std::string& account, double raw, double factor)
{
    Share s;
    s.account = account;
    s.parent = "root";
    s.raw_shares = raw;
    s.fairshare_factor = factor;
    return s;
}

} // namespace

TEST_GROUP(PfaTokenWaves){};

TEST(PfaTokenWaves, WavesFollowTheLongestChainOfUnfinishedParents)
{
    StateBuilder b;
    // 1 running; 2, 3 after 1; 4 after 2 and 3; 5 after 4 and a finished job 99.
    b.running(1, 2, 0);
    queue(b, 2, 4);
    depends(b, 2, "afterok:1");
    depends(b, 3, "afterany:1(unfulfilled)");
    depends(b, 4, "afterok:2:3");
    depends(b, 5, "afterok:4,afterok:99");
    b.state.snapshot.jobs[0].account = "a";
    auto waves = token_waves(b.state.snapshot).at("a");
    LONGS_EQUAL(4, waves.size());
    DOUBLES_EQUAL(2, waves[0], 0);
    DOUBLES_EQUAL(2, waves[1], 0);
    DOUBLES_EQUAL(1, waves[2], 0);
    DOUBLES_EQUAL(1, waves[3], 0);
    DOUBLES_EQUAL(4, visited_cores(waves, 2), 0);
    DOUBLES_EQUAL(6, visited_cores(waves, ThroughputProfile::kUnbounded), 0);
    DOUBLES_EQUAL(2, widest_wave(waves, 1), 0);
}

TEST(PfaTokenWaves, WithoutDependenciesEveryJobIsQueueDemandAndNeverJobsWeighNothing)
{
    StateBuilder b;
    queue(b, 1, 3, "a");
    queue(b, 4, 2, "b");
    b.pending(6, 8, BurstOption::Never);
    b.state.snapshot.jobs.back().account = "b";
    auto waves = token_waves(b.state.snapshot);
    LONGS_EQUAL(1, waves.at("a").size());
    DOUBLES_EQUAL(3, waves.at("a")[0], 0);
    DOUBLES_EQUAL(2, waves.at("b")[0], 0);
}

TEST(PfaTokenWaves, AJobHeldOrOverALimitWeighsNothingAndStillHoldsBackItsDependents)
{
    StateBuilder b;
    queue(b, 1, 3, "a");
    b.state.snapshot.jobs[0].reason = "JobHeldAdmin";
    b.state.snapshot.jobs[1].reason = "AssocGrpCpuLimit";
    DOUBLES_EQUAL(1, token_waves(b.state.snapshot).at("a")[0], 0);
    // Job 4 waits for the held job 1: the second wave, not the first.
    queue(b, 4, 1, "a");
    depends(b, 4, "afterany:1");
    auto waves = token_waves(b.state.snapshot).at("a");
    LONGS_EQUAL(2, waves.size());
    DOUBLES_EQUAL(1, waves[0], 0);
    DOUBLES_EQUAL(1, waves[1], 0);
}

// A job asking for a GPU no node group has is no cloud demand either; it
// still holds back the jobs that depend on it.
TEST(PfaTokenWaves, AJobNoGroupHasTheNodesForWeighsNothingAndStillHoldsBackItsDependents)
{
    StateBuilder b;
    queue(b, 1, 3, "a");
    b.state.snapshot.jobs[0].needs = NodeNeeds("gres:gpu:1", "");
    auto no_gpus = [](const Job& job) { return job.needs.gres().empty(); };
    DOUBLES_EQUAL(3, token_waves(b.state.snapshot).at("a")[0], 0); // without a judge, every job counts
    DOUBLES_EQUAL(2, token_waves(b.state.snapshot, no_gpus).at("a")[0], 0);
    queue(b, 4, 1, "a");
    depends(b, 4, "afterany:1");
    auto waves = token_waves(b.state.snapshot, no_gpus).at("a");
    LONGS_EQUAL(2, waves.size());
    DOUBLES_EQUAL(2, waves[0], 0);
    DOUBLES_EQUAL(1, waves[1], 0);
}

TEST(PfaTokenWaves, SumsEachOfManyAccountsWithOrWithoutDependencies)
{
    // More accounts than the account index starts with room for, jobs of
    // each scattered through the snapshot.
    for (bool chained : {false, true}) {
        StateBuilder b;
        for (JobId id = 1; id <= 500; ++id) {
            b.pending(id, 1 + id % 3);
            b.state.snapshot.jobs.back().account = "acct" + std::to_string(id % 150);
        }
        if (chained)
            depends(b, 500, "afterok:499");
        auto waves = token_waves(b.state.snapshot);
        LONGS_EQUAL(150, waves.size());
        for (std::size_t a = 0; a < 150; ++a) {
            double cores = 0;
            for (JobId id = 1; id <= 500; ++id)
                if (id % 150 == a)
                    cores += 1 + id % 3;
            const auto& w = waves.at("acct" + std::to_string(a));
            DOUBLES_EQUAL(cores, visited_cores(w, ThroughputProfile::kUnbounded), 0);
            LONGS_EQUAL(chained && a == 500 % 150 ? 2 : 1, w.size());
        }
    }
}

TEST(PfaTokenWaves, JobsOnADependencyCycleAreLeftOut)
{
    StateBuilder b;
    queue(b, 1, 3);
    depends(b, 1, "afterok:2");
    depends(b, 2, "afterok:1");
    auto waves = token_waves(b.state.snapshot).at("a");
    DOUBLES_EQUAL(1, visited_cores(waves, ThroughputProfile::kUnbounded), 0);
}

TEST_GROUP(PfaThroughputProfile){};

TEST(PfaThroughputProfile, MovingAverageSkipsEmptyIntervalsAndSharesEquallyUntilEveryGroupDelivers)
{
    ThroughputProfile p(2, Smoothing::MovingAverage, 2, 0.7);
    DOUBLES_EQUAL(0.5, p.ratios()[0], 0);
    DOUBLES_EQUAL(4, p.demand(10, 4), 0); // no history: σ = λ
    p.record({0, 0});
    CHECK(p.lookup_depth() == ThroughputProfile::kUnbounded);
    p.record({2, 0});
    DOUBLES_EQUAL(0.5, p.ratios()[0], 0); // the second group has shown nothing yet
    DOUBLES_EQUAL(1, p.lookup_depth(), 0); // mean τ = (2 + 0) / 2
    DOUBLES_EQUAL(10, p.demand(10, 4), 0);
    p.record({3, 1});
    // Eq. 8 over the two intervals with throughput: ({1, 0} + {0.75, 0.25}) / 2.
    DOUBLES_EQUAL(0.875, p.ratios()[0], 1e-12);
    DOUBLES_EQUAL(0.125, p.ratios()[1], 1e-12);
    DOUBLES_EQUAL(2, p.lookup_depth(), 0); // ⌈(2 + 0 + 3 + 1) / 4⌉
    DOUBLES_EQUAL(6, p.demand(9, 4), 0);   // ⌈9 / 1.5⌉
    p.record({0, 0});
    p.record({0, 0});
    DOUBLES_EQUAL(0.75, p.ratios()[0], 1e-12); // only {3, 1} is within depth + 1 intervals
    p.record({0, 0});
    DOUBLES_EQUAL(0.5, p.ratios()[0], 0);
    CHECK(p.lookup_depth() == ThroughputProfile::kUnbounded);
}

TEST(PfaThroughputProfile, EwmaSmoothsRatiosAndDepthAndResetsOnAnIdleGroup)
{
    ThroughputProfile p(2, Smoothing::Ewma, 10, 0.5);
    p.record({3, 1});
    DOUBLES_EQUAL(0.625, p.ratios()[0], 1e-12); // 0.5 × 0.5 + 0.5 × 0.75
    DOUBLES_EQUAL(2, p.lookup_depth(), 0);      // first observation: ⌈(3 + 1) / 2⌉
    DOUBLES_EQUAL(5, p.demand(10, 1), 0);       // eq. 17: ⌈10 × 2 / 4⌉
    p.record({1, 1});
    DOUBLES_EQUAL(0.5625, p.ratios()[0], 1e-12);
    DOUBLES_EQUAL(2, p.lookup_depth(), 0); // ⌈0.5 × 2 + 0.5 × 1⌉
    p.record({2, 0});
    DOUBLES_EQUAL(0.5, p.ratios()[0], 0); // eq. 9: a group without throughput resets
    p.record({0, 0});
    CHECK(p.lookup_depth() == ThroughputProfile::kUnbounded);
    DOUBLES_EQUAL(7, p.demand(20, 7), 0);
}

// Jobs that outlast an interval (τ̄ = 0.5): θ / τ̄ would ask for twice the
// cores the visited jobs can occupy.
TEST(PfaThroughputProfile, DemandNeverExceedsTheVisitedCores)
{
    for (Smoothing smoothing : {Smoothing::MovingAverage, Smoothing::Ewma}) {
        ThroughputProfile slow(2, smoothing, 10, 0.5);
        slow.record({0.5, 0.5});
        DOUBLES_EQUAL(4, slow.demand(4, 1), 0); // not ⌈4 / 0.5⌉ = 8
        ThroughputProfile fast(2, smoothing, 10, 0.5);
        fast.record({2, 2});
        DOUBLES_EQUAL(2, fast.demand(4, 1), 0); // ⌈4 / 2⌉, below θ: left alone
    }
}

TEST_GROUP(PfaResourceProfile){};

TEST(PfaResourceProfile, BudgetBuysNodesInProportionToRatioTimesCost)
{
    const std::vector<ProfileGroup> g = {{1, 1, 32}, {5, 1, 32}};
    auto mu = budget_profile(12, {0.5, 0.5}, g); // ν = 1/6, 5/6
    LONGS_EQUAL(2, mu[0]);
    LONGS_EQUAL(2, mu[1]);
    mu = budget_profile(8, {0.75, 0.25}, {{1, 1, 32}, {1, 1, 32}});
    LONGS_EQUAL(6, mu[0]);
    LONGS_EQUAL(2, mu[1]);
    mu = budget_profile(8, {0.75, 0.25}, {{1, 1, 4}, {1, 1, 32}});
    LONGS_EQUAL(4, mu[0]); // capacity
}

TEST(PfaResourceProfile, ScalesDownToDemandRoundingUp)
{
    auto mu = fit_to_demand({4, 2}, 3, 100, {{1, 1, 32}, {5, 1, 32}});
    LONGS_EQUAL(2, mu[0]); // ⌈3/6 × 4⌉
    LONGS_EQUAL(1, mu[1]); // ⌈3/6 × 2⌉
    mu = fit_to_demand({2, 2}, 8, 100, {{1, 4, 32}, {5, 4, 32}}); // cores: 16 > 8
    LONGS_EQUAL(1, mu[0]);
    LONGS_EQUAL(1, mu[1]);
}

TEST(PfaResourceProfile, InflatesWithCheaperNodesThenTradesDearOnesWithinBudget)
{
    const std::vector<ProfileGroup> g = {{1, 1, 32}, {5, 1, 32}};
    // (ii): 6 left buys 4 small for a demand of 5 cores.
    auto mu = fit_to_demand({1, 1}, 5, 12, g);
    LONGS_EQUAL(4, mu[0]);
    LONGS_EQUAL(1, mu[1]);
    // (iii): no budget left; one large (5) becomes three small to reach 6.
    mu = fit_to_demand({2, 2}, 6, 12, g);
    LONGS_EQUAL(5, mu[0]);
    LONGS_EQUAL(1, mu[1]);
    // Capacity stops both steps.
    mu = fit_to_demand({1, 1}, 5, 12, {{1, 1, 3}, {5, 1, 32}});
    LONGS_EQUAL(3, mu[0]);
    LONGS_EQUAL(1, mu[1]);
}

TEST_GROUP(PfaPolicy){};

namespace {

// One busy local core; small (1/h) and large (5/h) one-core groups.
StateBuilder two_groups()
{
    StateBuilder b;
    b.local("l1", 1, 1).group("small", 1, 10, 1.0).group("large", 1, 10, 5.0);
    b.running(1, 1, 0);
    b.state.snapshot.jobs.back().account = "a";
    b.state.snapshot.jobs.back().nodes = {"l1"};
    return b;
}

} // namespace

TEST(PfaPolicy, InflatesTheProfileToQueueDemandAndRoutesOnlyIntoHiredCores)
{
    PfaPolicy pfa = make({{"budget", "12"}, {"interval", "3600"}});
    StateBuilder b = two_groups();
    queue(b, 2, 8);
    ManualClock clock(0);
    Decision d = pfa.decide(b.state, clock);
    // σ = 9 cores (1 running + 8 pending), 1 local → 8 cloud.  Profile at
    // equal ratios {2 small, 2 large}, no budget left; trading one large (5)
    // for five small reaches 7 + 1 = 8 cores at a cost of 12.
    LONGS_EQUAL(7, hired(d, "small"));
    LONGS_EQUAL(1, hired(d, "large"));
    LONGS_EQUAL(8, routed(d, "small") + routed(d, "large"));
    CHECK(routed(d, "small") <= 7);
}

TEST(PfaPolicy, ScalesTheProfileDownToDemand)
{
    PfaPolicy pfa = make({{"budget", "24"}});
    StateBuilder b = two_groups();
    queue(b, 2, 1);
    ManualClock clock(0);
    Decision d = pfa.decide(b.state, clock);
    // Profile {4, 4} (8 cores) for σ = 2 − 1 local = 1: ⌈1/8 × 4⌉ each.
    LONGS_EQUAL(1, hired(d, "small"));
    LONGS_EQUAL(1, hired(d, "large"));
    LONGS_EQUAL(1, actions<RouteToCloud>(d).size());
}

TEST(PfaPolicy, TokenDemandCountsTheWidestWaveNotEveryQueuedTask)
{
    PfaPolicy pfa = make({{"budget", "100"}});
    StateBuilder b;
    b.group("g", 1, 20, 1.0);
    // A chain 1 → 2 → … → 6 plus nothing else: one task can run at a time.
    queue(b, 1, 6);
    for (JobId id = 2; id <= 6; ++id)
        depends(b, id, "afterok:" + std::to_string(id - 1));
    ManualClock clock(0);
    Decision d = pfa.decide(b.state, clock);
    LONGS_EQUAL(1, hired(d, "g"));
    LONGS_EQUAL(1, actions<RouteToCloud>(d).size()); // blocked tasks are not routed
    // The same six tasks without edges are six tasks of queue demand.
    PfaPolicy plain = make({{"budget", "100"}});
    StateBuilder q;
    q.group("g", 1, 20, 1.0);
    queue(q, 1, 6);
    LONGS_EQUAL(6, hired(plain.decide(q.state, clock), "g"));
}

TEST(PfaPolicy, NeverHiresPastTheBudgetRateAndReleasesIdleNodesBeyondTheTarget)
{
    PfaPolicy pfa = make({{"budget", "12"}});
    StateBuilder b = two_groups();
    queue(b, 2, 8);
    // Two large nodes are on and idle: 10 of the 12 per hour.
    b.up("large-1").up("large-2");
    b.state.instances = {instance("large-1", "large", -7200), instance("large-2", "large", -3600)};
    ManualClock clock(0);
    Decision d = pfa.decide(b.state, clock);
    // Target {7 small, 1 large}: only 2 small fit under the cap this cycle.
    LONGS_EQUAL(2, hired(d, "small"));
    LONGS_EQUAL(0, hired(d, "large"));
    auto releases = actions<ReleaseNodes>(d);
    LONGS_EQUAL(1, releases.size());
    LONGS_EQUAL(1, releases[0].nodes.size());
    // 2 hired small cores plus the large node kept take 3 jobs.
    LONGS_EQUAL(3, actions<RouteToCloud>(d).size());
    bool capped = false;
    for (const auto& n : d.notes)
        capped = capped || n.find("budget cap") != std::string::npos;
    CHECK(capped);
}

// Per-hour billing: a node Slurm powered down 300 s into its hour is
// billed to the hour's end, so it still takes 4 of the 12 per hour: with
// one node up, one more fits, not two.
TEST(PfaPolicy, NodesDownWithinTheirBilledPeriodStillCountAgainstTheCap)
{
    auto hires = [](bool one_billed_after_its_end) {
        PfaPolicy pfa = make({{"budget", "12"}, {"interval", "3600"}});
        StateBuilder b;
        b.group("h", 1, 10, 4.0);
        b.state.groups[0].billing = Billing::PerHour;
        b.up("h-1", 1);
        b.state.instances = {instance("h-1", "h", -600)};
        if (one_billed_after_its_end)
            b.state.ended_but_billed = {BilledSpan{"h-2", "h", -600, -300}};
        queue(b, 1, 5);
        ManualClock clock(0);
        return hired(pfa.decide(b.state, clock), "h");
    };
    LONGS_EQUAL(2, hires(false));
    LONGS_EQUAL(1, hires(true));
}

// Accounts share a group's nodes: its throughput counts every account's
// jobs.  On 4 cores on, a and b finish 3 cores each in the interval: τ =
// 6/4, and b's 6 queued cores need 6 / 1.5 = 4 cores.  b's own 3 over the 4
// cores (τ 0.75) would have it need all 6, as if a's work did not share
// them.
TEST(PfaPolicy, AGroupsThroughputCountsEveryAccountsJobs)
{
    PfaPolicy pfa = make({{"budget", "100"}, {"release_window", "0"}});
    StateBuilder b;
    b.group("g", 1, 10, 1.0);
    for (int i = 1; i <= 4; ++i)
        b.up("g-" + std::to_string(i));
    queue(b, 1, 6, "b");
    ManualClock clock(0);
    STRCMP_EQUAL("6.00", noted_demand(pfa.decide(b.state, clock), "b").c_str()); // no throughput yet: λ
    for (int i = 0; i < 3; ++i) {
        pfa.observe(ended("a", "g", 1));
        pfa.observe(ended("b", "g", 1));
    }
    clock.set(60);
    STRCMP_EQUAL("4.00", noted_demand(pfa.decide(b.state, clock), "b").c_str());
}

TEST(PfaPolicy, ReleasesOnlyIdleNodesWithinTheReleaseWindowOfTheirBillingBoundary)
{
    PfaPolicy pfa = make({{"budget", "100"}, {"release_window", "700"}});
    StateBuilder b;
    b.group("h", 1, 3, 1.0);
    b.state.groups[0].billing = Billing::PerHour;
    b.up("h-1").up("h-2").up("h-3");
    // Uptimes 1800 s, 3590 s and 3000 s: 1800, 10 and 600 s to the next hour.
    b.state.instances = {instance("h-1", "h", -1800), instance("h-2", "h", -3590), instance("h-3", "h", -3000)};
    ManualClock clock(0);
    Decision d = pfa.decide(b.state, clock); // no work: target 0
    auto releases = actions<ReleaseNodes>(d);
    LONGS_EQUAL(1, releases.size());
    LONGS_EQUAL(2, releases[0].nodes.size());
    STRCMP_EQUAL("h-2", releases[0].nodes[0].c_str());
    STRCMP_EQUAL("h-3", releases[0].nodes[1].c_str()); // h-1 has paid time left beyond the window
}

TEST(PfaPolicy, ReleasesIdleNodesNearestTheirBillingBoundaryFirst)
{
    PfaPolicy pfa = make({{"budget", "100"}, {"release_window", "700"}});
    StateBuilder b;
    b.group("h", 1, 2, 1.0);
    b.state.groups[0].billing = Billing::PerHour;
    b.up("h-1").up("h-2");
    // Both within the window, the one farther from its next hour listed first:
    // 600 s and 10 s to go.
    b.state.instances = {instance("h-1", "h", -3000), instance("h-2", "h", -3590)};
    queue(b, 1, 1); // one node's worth of work: one of the two goes
    ManualClock clock(0);
    auto releases = actions<ReleaseNodes>(pfa.decide(b.state, clock));
    LONGS_EQUAL(1, releases.size());
    LONGS_EQUAL(1, releases[0].nodes.size());
    STRCMP_EQUAL("h-2", releases[0].nodes[0].c_str());
}

// Per-second billing: both nodes are past MinBilled, at their boundary
// alike.  The older instance went idle last; the newer one has been idle
// since the first decision and goes.
TEST(PfaPolicy, ReleasesTheNodeIdleLongestAmongThoseAtTheirBillingBoundary)
{
    PfaPolicy pfa = make({{"budget", "100"}});
    StateBuilder b;
    b.group("s", 1, 2, 1.0);
    b.up("s-1", 1).up("s-2");
    b.state.instances = {instance("s-1", "s", -7200), instance("s-2", "s", -600)};
    b.running(1, 1, -300);
    b.state.snapshot.jobs.back().account = "a";
    b.state.snapshot.jobs.back().nodes = {"s-1"};
    queue(b, 2, 1);
    ManualClock clock(0);
    CHECK(actions<ReleaseNodes>(pfa.decide(b.state, clock)).empty()); // two cores of work on two nodes
    b.state.snapshot.jobs.erase(b.state.snapshot.jobs.begin()); // job 1 ended: s-1 idle too
    b.up("s-1");
    clock.set(600);
    auto releases = actions<ReleaseNodes>(pfa.decide(b.state, clock));
    LONGS_EQUAL(1, releases.size());
    LONGS_EQUAL(1, releases[0].nodes.size());
    STRCMP_EQUAL("s-2", releases[0].nodes[0].c_str());
}

TEST(PfaPolicy, SplitsTheSiteBudgetAcrossAccountsByFairShare)
{
    auto run = [](const std::string& split, double factor_a) {
        PfaPolicy pfa = make({{"budget", "8"}, {"split", split}});
        StateBuilder b;
        b.group("g", 1, 20, 1.0);
        queue(b, 1, 2, "a");
        queue(b, 10, 10, "b");
        b.state.snapshot.shares = {share("a", 0.75, factor_a), share("b", 0.25, 1.0)};
        ManualClock clock(0);
        return hired(pfa.decide(b.state, clock), "g");
    };
    LONGS_EQUAL(2 + 2, run("fairshare", 1.0)); // a: 6 for 2 cores of demand, b: 2
    LONGS_EQUAL(2 + 4, run("equal", 1.0));     // 4 and 4
    LONGS_EQUAL(2 + 5, run("fairshare", 0.2)); // a used more than its share: 3 and 5
}

TEST(PfaPolicy, ThroughputFeedbackShiftsTheProfileToTheGroupThatDeliversMore)
{
    PfaPolicy pfa = make({{"budget", "8"}, {"release_window", "3600"}});
    StateBuilder b;
    b.group("fast", 1, 10, 1.0).group("slow", 1, 10, 1.0);
    for (int i = 1; i <= 4; ++i) {
        b.up("fast-" + std::to_string(i), 1);
        b.up("slow-" + std::to_string(i));
    }
    queue(b, 1, 20);
    ManualClock clock(0);
    Decision first = pfa.decide(b.state, clock);
    CHECK(actions<ReleaseNodes>(first).empty()); // equal ratios: 4 and 4 wanted
    LONGS_EQUAL(4, routed(first, "slow"));
    for (int i = 0; i < 6; ++i)
        pfa.observe(ended("a", "fast", 1));
    // burstd's job_end events name nodes, not groups.
    for (int i = 0; i < 2; ++i) {
        JobEnd e = ended("a", "", 1);
        e.nodes = {"slow-1"};
        pfa.observe(e);
    }
    clock.set(60);
    Decision second = pfa.decide(b.state, clock);
    // τ = 6/4 and 2/4 → ρ = 0.75, 0.25 → profile 6 fast, 2 slow.
    auto releases = actions<ReleaseNodes>(second);
    LONGS_EQUAL(1, releases.size());
    LONGS_EQUAL(2, releases[0].nodes.size());
    LONGS_EQUAL(0, hired(second, "fast")); // the released nodes still count until they are down
    b.node("slow-3").flags = kNodeCloud | kNodePoweredDown;
    b.node("slow-4").flags = kNodeCloud | kNodePoweredDown;
    clock.set(120);
    LONGS_EQUAL(2, hired(pfa.decide(b.state, clock), "fast"));
}

namespace {

// pfa's ratios as its account notes word them.
std::string noted_ratios(const Decision& d)
{
    for (const auto& note : d.notes)
        if (const auto at = note.find(" ratios "); note.rfind("pfa: account ", 0) == 0 && at != std::string::npos)
            return note.substr(at + 8, note.find(" profile ") - at - 8);
    return "none";
}

} // namespace

TEST(PfaPolicy, AQuietSiteDecidesNothingAndStillClosesAnInterval)
{
    // A window of two intervals (depth 1).
    PfaPolicy pfa = make({{"budget", "8"}, {"depth", "1"}, {"release_window", "0"}});
    StateBuilder b;
    b.local("l1", 2, 0).group("fast", 1, 10, 1.0).group("slow", 1, 10, 1.0);
    for (int i = 1; i <= 4; ++i) {
        b.up("fast-" + std::to_string(i), 1);
        b.up("slow-" + std::to_string(i), 1);
    }
    queue(b, 1, 20);
    ManualClock clock(0);
    pfa.decide(b.state, clock);
    for (int i = 0; i < 6; ++i)
        pfa.observe(ended("a", "fast", 1));
    for (int i = 0; i < 2; ++i)
        pfa.observe(ended("a", "slow", 1));
    clock.set(60);
    STRCMP_EQUAL("fast=0.75 slow=0.25", noted_ratios(pfa.decide(b.state, clock)).c_str());

    // Quiet: every cloud node down, no job waiting, a job running locally.
    for (auto& n : b.state.snapshot.nodes)
        if (n.cloud())
            n.flags = kNodeCloud | kNodePoweredDown;
    const std::vector<Job> busy = b.state.snapshot.jobs;
    b.state.snapshot.jobs.clear();
    b.running(100, 2, 0);
    b.state.snapshot.jobs.back().nodes = {"l1"};
    clock.set(120);
    const Decision quiet = pfa.decide(b.state, clock);
    CHECK(quiet.actions.empty());
    CHECK(quiet.notes.empty());

    // The quiet decision closed an interval and saw no cores on, so jobs
    // ending since weigh against none; this decision closes another
    // interval, and the window no longer holds the measured one.
    for (int i = 0; i < 3; ++i)
        pfa.observe(ended("a", "fast", 1));
    pfa.observe(ended("a", "slow", 1));
    b.state.snapshot.jobs = busy;
    clock.set(180);
    const Decision after = pfa.decide(b.state, clock);
    STRCMP_EQUAL("fast=0.50 slow=0.50", noted_ratios(after).c_str());
    CHECK(hired(after, "fast") + hired(after, "slow") > 0);
}

TEST(PfaPolicy, AJobAwaitingItsDependencyIsDemandWhileNoJobWaits)
{
    PfaPolicy pfa = make({{"budget", "100"}});
    StateBuilder b;
    b.local("l1", 1, 1).group("g", 1, 20, 1.0);
    b.running(1, 1, 0);
    b.state.snapshot.jobs.back().account = "a";
    b.state.snapshot.jobs.back().nodes = {"l1"};
    queue(b, 2, 4);
    for (JobId id = 2; id <= 5; ++id)
        depends(b, id, "afterok:1");
    ManualClock clock(0);
    // Token propagation: the running job's wave, then its four children,
    // the widest wave (no throughput measured yet); the local core takes one.
    LONGS_EQUAL(3, hired(pfa.decide(b.state, clock), "g"));
}

TEST(PfaPolicy, JobsRunningOnALocalNodeDrainedUnderThemAreServedLocally)
{
    // Slurm drained l1 under its running job (maintenance): the job still
    // holds its cores there and needs no cloud core.
    PfaPolicy pfa = make({{"budget", "100"}});
    StateBuilder b;
    b.local("l1", 2, 2).local("l2", 1, 0).group("g", 1, 20, 1.0);
    b.node("l1").flags |= kNodeDrain;
    b.running(1, 2, 0);
    b.state.snapshot.jobs.back().account = "a";
    b.state.snapshot.jobs.back().nodes = {"l1"};
    ManualClock clock(0);
    LONGS_EQUAL(0, hired(pfa.decide(b.state, clock), "g"));
    // Three more one-core jobs: the free local core takes one, the cloud two.
    queue(b, 2, 3);
    clock.set(60);
    LONGS_EQUAL(2, hired(pfa.decide(b.state, clock), "g"));
}

TEST(PfaPolicy, LeavesOutItsAccountNotesWhenNobodyReadsThemAndDecidesTheSame)
{
    PfaPolicy read = make({{"budget", "12"}});
    PfaPolicy unread = make({{"budget", "12"}});
    unread.set_notes_read(false);
    StateBuilder b = two_groups();
    queue(b, 2, 8);
    ManualClock clock(0);
    const Decision a = read.decide(b.state, clock);
    const Decision u = unread.decide(b.state, clock);
    STRCMP_EQUAL("8.00", noted_demand(a, "a").c_str());
    STRCMP_EQUAL("none", noted_demand(u, "a").c_str());
    CHECK(!a.actions.empty());
    LONGS_EQUAL(a.actions.size(), u.actions.size());
    for (std::size_t i = 0; i < a.actions.size(); ++i)
        STRCMP_EQUAL(action_text(a.actions[i]).c_str(), action_text(u.actions[i]).c_str());
}

TEST(PfaPolicy, LambdaHiresOnlyNodesTheWaitingWorksExpectedWaitPaysFor)
{
    // 8 busy local cores come back at `back` (the running job's limit; no
    // runtimes learned yet); two 4-core jobs of 1 h wait.  The profile wants
    // both 4-core nodes (1.0/h, 100 s boot): each costs (100 + 3600) / 3600
    // ≈ 1.028 and saves λ · 4 · (back − 100) / 3600 = λ at back = 1000.
    auto decide = [](std::initializer_list<std::pair<std::string, std::string>> kv, Seconds back,
                     Seconds measured_boot = 0) {
        PfaPolicy pfa = make(kv);
        StateBuilder b;
        b.local("l1", 8, 8).group("g", 4, 4, 1.0).running(9, 8, 0, "r", back);
        if (measured_boot > 0)
            b.booted_once("g", measured_boot);
        b.pending(1, 4, BurstOption::Allow, "c", 3600).pending(2, 4, BurstOption::Allow, "c", 3600);
        ManualClock clock(0);
        return pfa.decide(b.state, clock);
    };
    Decision ungated = decide({}, 1000);
    LONGS_EQUAL(2, hired(ungated, "g"));
    LONGS_EQUAL(2, routed(ungated, "g"));
    Decision above = decide({{"lambda", "1.1"}}, 1000);
    LONGS_EQUAL(2, hired(above, "g"));
    LONGS_EQUAL(2, routed(above, "g"));
    Decision below = decide({{"lambda", "1.0"}}, 1000);
    CHECK(actions<HireNodes>(below).empty());
    CHECK(actions<RouteToCloud>(below).empty()); // no job goes where no node was hired
    // A longer local wait pays at a lower λ; the budget still caps it.
    LONGS_EQUAL(2, hired(decide({{"lambda", "0.1"}}, 36000), "g"));
    LONGS_EQUAL(1, hired(decide({{"lambda", "0.1"}, {"budget", "1"}}, 36000), "g"));
    // Nodes measured to boot in 900 s: each costs (900 + 3600) / 3600 = 1.25
    // and saves 1.1 · 4 · (1000 − 900) / 3600 ≈ 0.12.
    CHECK(actions<HireNodes>(decide({{"lambda", "1.1"}}, 1000, 900)).empty());
}

TEST(PfaPolicy, LambdaWeighsOnlyJobsNoCloudCoreUpTakesAlready)
{
    // One node is up and idle and takes the first waiting job, a 100-s one
    // that alone would pay for a node at any λ here ((100 + 100) / 3600 ≈
    // 0.056 against λ).  The one node more the profile wants is weighed for
    // the second job only, a 1-h one: worth it at λ = 1.1, not at 1.0.
    auto decide = [](const char* lambda) {
        PolicyParams p = params({{"lambda", lambda}});
        PfaPolicy pfa(p);
        StateBuilder b;
        b.local("l1", 8, 8).group("g", 4, 4, 1.0).running(9, 8, 0, "r", 1000).up("g-1");
        b.pending(1, 4, BurstOption::Allow, "c", 100).pending(2, 4, BurstOption::Allow, "c", 3600);
        ManualClock clock(0);
        return pfa.decide(b.state, clock);
    };
    Decision worth = decide("1.1");
    LONGS_EQUAL(1, hired(worth, "g"));
    LONGS_EQUAL(2, routed(worth, "g"));
    Decision not_worth = decide("1.0");
    CHECK(actions<HireNodes>(not_worth).empty());
    LONGS_EQUAL(1, routed(not_worth, "g")); // into the node that is up
}

TEST(PfaPolicy, RejectsBadParameters)
{
    CHECK_THROWS(PolicyConfigError, make({{"smoothing", "median"}}));
    CHECK_THROWS(PolicyConfigError, make({{"alpha", "1"}}));
    CHECK_THROWS(PolicyConfigError, make({{"budget", "-1"}}));
    CHECK_THROWS(PolicyConfigError, make({{"lambda", "-0.1"}}));
}
