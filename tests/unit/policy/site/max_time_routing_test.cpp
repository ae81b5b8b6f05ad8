// Every hiring policy, on a site whose cloud partition has a MaxTime: Slurm
// never starts a job there whose time limit is longer, or that has none,
// so routing it, or hiring nodes for it, buys nodes that idle.  A site sets
// the MaxTime to keep long narrow jobs off the cloud (doc/policies.md,
// "High-throughput sites").
#include "policy/policy_registry.hpp"
#include "policy/site/site_view.hpp"
#include "policy/warm/warm_pool_policy.hpp"

#include "policy/policy_test_state.hpp"
#include "policy/site/routing_test_policies.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::actions;
using burst::test::hiring_policy;
using burst::test::mentions;
using burst::test::routes;
using burst::test::StateBuilder;

namespace {

constexpr Seconds kHour = 3600;
constexpr JobId kShortJob = 2, kLongJob = 3, kUnlimitedJob = 4;

Partition partition(const std::string& name, Seconds max_time)
{
    Partition p;
    p.name = name;
    p.max_time = max_time;
    return p;
}

// A full local node; one short, one long and one unlimited job wait; the
// cloud partition "cpu" has MaxTime 4 h.
StateBuilder site()
{
    StateBuilder b;
    b.local("n1", 8, 8).group("cpu", 8, 4, 0.4);
    b.state.snapshot.partitions.push_back(partition("cpu", 4 * kHour));
    b.running(1, 8, 0, "r", 7 * 24 * kHour)
        .pending(kShortJob, 8, BurstOption::Allow, "p", kHour)
        .pending(kLongJob, 8, BurstOption::Allow, "p", 8 * kHour)
        .pending(kUnlimitedJob, 8, BurstOption::Allow, "p", 0);
    return b;
}

} // namespace

TEST_GROUP(MaxTimeRouting){};

TEST(MaxTimeRouting, ALimitUpToTheMaxTimeIsServedAndNoLimitIsNot)
{
    StateBuilder b = site();
    const SiteView view = SiteView::of(b.state);
    LONGS_EQUAL(4 * kHour, view.groups[0].max_time);
    CHECK(within_max_time(4 * kHour, 4 * kHour));
    CHECK_FALSE(within_max_time(4 * kHour + 1, 4 * kHour));
    CHECK_FALSE(within_max_time(0, 4 * kHour)); // no limit
    CHECK(within_max_time(0, 0));               // a partition without MaxTime takes any
    CHECK(within_max_time(1e9, 0));
    CHECK(view.within_some_max_time(4 * kHour));
    CHECK_FALSE(view.within_some_max_time(8 * kHour));
    LONGS_EQUAL(2, view.too_long_jobs);
    for (std::size_t i = 0; i < view.pending.size(); ++i)
        CHECK_EQUAL(view.pending[i]->id == kShortJob, view.pending_burst[i] != BurstOption::Never);
}

// The local node runs a job of a week, beyond the cloud's MaxTime: it is
// local supply, no reason to hire less for the short job (pfa counted it as
// no demand and hired nothing).
TEST(MaxTimeRouting, EveryPolicyRoutesOrHiresForTheShortJobOnly)
{
    StateBuilder b = site();
    for (const auto& name : policy_names()) {
        if (name == "never" || name == WarmPoolPolicy::kName) // the warm pool weighs no job
            continue;
        auto policy = hiring_policy(name);
        ManualClock clock(100000);
        const Decision d = policy->decide(b.state, clock);
        for (const auto& r : routes(d))
            CHECK_TEXT(r.job == kShortJob, (name + " routed job " + std::to_string(r.job) +
                                            ", whose time limit the cloud partition's MaxTime refuses")
                                               .c_str());
        std::uint32_t hired = 0;
        for (const auto& h : actions<HireNodes>(d))
            hired += h.count;
        CHECK_TEXT(hired <= 1, (name + " hired " + std::to_string(hired) + " nodes for one job it may run").c_str());
        CHECK_TEXT(hired == 1 || routes(d).size() == 1, (name + " did nothing for the short job").c_str());
        CHECK_TEXT(mentions(d, "2 burstable job(s) have a time limit (or none) beyond the MaxTime of every node "
                               "group's partition that could run them: they stay local"),
                   (name + " did not say why the long jobs stay").c_str());
    }
}

// Routed to the cloud partition already (submitted with -p local,cpu, or
// MaxTime lowered since): Slurm will not start it there, so it is local
// work, and no group grows for it.
TEST(MaxTimeRouting, AJobRoutedBeyondTheMaxTimeIsLocalWork)
{
    StateBuilder b = site();
    b.state.snapshot.jobs[2].partitions = {"local", "cpu"}; // the 8 h job
    const SiteView view = SiteView::of(b.state);
    for (std::size_t i = 0; i < view.pending.size(); ++i)
        if (view.pending[i]->id == kLongJob) {
            LONGS_EQUAL(-1, view.pending_group[i]);
            CHECK(view.pending_burst[i] == BurstOption::Never);
        }
    LONGS_EQUAL(0, view.groups[0].routed_pending_cpus);
    LONGS_EQUAL(2, view.too_long_jobs);
    auto policy = hiring_policy("threshold");
    ManualClock clock(100000);
    std::uint32_t hired = 0;
    for (const auto& h : actions<HireNodes>(policy->decide(b.state, clock)))
        hired += h.count;
    LONGS_EQUAL(1, hired); // for the short job only
}

// A cheap group whose partition has MaxTime 2 h and a dear one without:
// the long job may only go to the dear one.
TEST(MaxTimeRouting, AJobLongerThanOneGroupsMaxTimeGoesToAnotherGroup)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("cheap", 8, 4, 0.1).group("dear", 8, 4, 4.0);
    b.state.snapshot.partitions.push_back(partition("cheap", 2 * kHour));
    b.running(1, 8, 0, "r", 7 * 24 * kHour).pending(kLongJob, 8, BurstOption::Allow, "p", 8 * kHour);
    bool someone_routed = false;
    for (const auto& name : policy_names()) {
        if (name == "never" || name == WarmPoolPolicy::kName)
            continue;
        auto policy = hiring_policy(name);
        ManualClock clock(100000);
        const Decision d = policy->decide(b.state, clock);
        for (const auto& r : routes(d)) {
            STRCMP_EQUAL_TEXT("dear", r.group.c_str(), (name + " routed the 8 h job past cheap's MaxTime").c_str());
            someone_routed = true;
        }
        for (const auto& h : actions<HireNodes>(d))
            STRCMP_EQUAL_TEXT("dear", h.group.c_str(), (name + " hired cheap nodes the job may not run on").c_str());
    }
    CHECK(someone_routed);
}
