#include "policy/policy_registry.hpp"
#include "sim/report/sim_metrics.hpp"
#include "sim/engine/simulator.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "sim/sim_fixtures.hpp"

using namespace burst;
using namespace burst::test;

// burstsim applies burstd's BudgetCap to every decision, with spend booked
// by burstd's SpendTracker.  The workloads are sized so the amounts can be
// worked out by hand: a cloud node costs 0.001 per second, boots in 30 s,
// and a routed job's bound is one node for 30 s + its 600 s limit = 0.63.

namespace {

// A 4-core job of `account`'s own user.
TraceJob job(JobId id, const std::string& account, Time submit, Seconds runtime = 500, Seconds limit = 600)
{
    return submitted_by(account, account, trace_job(id, submit, 4, runtime, limit));
}

SimConfig site(std::vector<BudgetLimit> budgets, bool enforce = true)
{
    SimConfig c = local_site(4, 4, 10);
    c.suspend_time = 100;
    c.groups = {cloud_group("cloud", 4, 3.6, 30, 10, 60)};
    c.budgets = std::move(budgets);
    c.enforce_budgets = enforce;
    return c;
}

std::size_t cloud_jobs(const SimResult& r, const std::string& account)
{
    return std::size_t(std::count_if(r.jobs.begin(), r.jobs.end(),
                                     [&](const JobOutcome& j) { return j.account == account && j.group >= 0; }));
}

const BudgetLineMetrics& line(const SimMetrics& m, const std::string& account)
{
    for (const auto& l : m.budget_lines)
        if (l.limit.account == account)
            return l;
    FAIL(("no budget line for " + account).c_str());
    return m.budget_lines.front();
}

// Six 4-core jobs of bio at once on a 4-core site: always bursts five.
std::vector<TraceJob> six_bio_jobs()
{
    std::vector<TraceJob> trace;
    for (JobId id = 1; id <= 6; ++id)
        trace.push_back(job(id, "bio", 0));
    return trace;
}

} // namespace

TEST_GROUP(SimulatorBudget){};

TEST(SimulatorBudget, TheCapKeepsAnAccountWithinItsBudgetAndWhatDoesNotFitWaitsLocally)
{
    const std::vector<TraceJob> trace = six_bio_jobs();
    // Booked against the line but not enforced: bio's five cloud jobs are
    // each booked their 530 s of boot and run, the last 10 s of it (after
    // the cycle at 520 s) from their ends.
    const SimResult uncapped = replay("always", site({{"bio", 1.5, 86400}}, false), trace);
    const SimMetrics without = compute_metrics(uncapped, 1);
    CHECK_EQUAL(5u, cloud_jobs(uncapped, "bio"));
    DOUBLES_EQUAL(2.65, line(without, "bio").spend, 1e-9);
    CHECK_EQUAL(1u, line(without, "bio").violations);
    CHECK(without.over_budget.empty());
    // Booking does not change the replay.
    DOUBLES_EQUAL(replay("always", site({}), trace).cloud_cost, uncapped.cloud_cost, 0);

    const SimResult capped = replay("always", site({{"bio", 1.5, 86400}}), trace);
    const SimMetrics with = compute_metrics(capped, 1);
    // 0.63 + 0.63 fits 1.5, a third route would not; once the two have run,
    // 1.06 is booked and 0.63 more would not fit either.
    CHECK_EQUAL(2u, cloud_jobs(capped, "bio"));
    CHECK_EQUAL(0u, line(with, "bio").violations);
    CHECK(line(with, "bio").max_spend <= 1.5);
    DOUBLES_EQUAL(1.06, line(with, "bio").spend, 1e-9);
    CHECK(capped.over_budget.at("route") > 0);
    CHECK(capped.budget_notes > 0);
    CHECK(capped.first_budget_notes.front().find("budget of account bio") != std::string::npos);
    // Uncapped, five waited the 30 s boot; capped, the three that stayed
    // local ran one after another on the 4 cores: (2 × 30 + 500 + 1000 +
    // 1500) / 6.
    DOUBLES_EQUAL(25, without.mean_wait, 1e-9);
    DOUBLES_EQUAL(510, with.mean_wait, 1e-9);
    CHECK(with.cloud_cost < without.cloud_cost / 2);
}

TEST(SimulatorBudget, AStarLineHoldsEveryOtherAccountToItsOwnAmount)
{
    std::vector<TraceJob> trace;
    for (JobId id = 1; id <= 3; ++id) {
        trace.push_back(job(id, "chem", 0));
        trace.push_back(job(10 + id, "phys", 0));
    }
    // bio has a line of its own and no jobs; chem, phys and the capacity no
    // job uses are each held to 0.7 a day: one route of 0.63 each.
    const SimResult capped = replay("always", site({{"bio", 5, 86400}, {"*", 0.7, 86400}}), trace);
    const SimMetrics m = compute_metrics(capped, 1);
    CHECK_EQUAL(1u, cloud_jobs(capped, "chem"));
    CHECK_EQUAL(1u, cloud_jobs(capped, "phys"));
    const BudgetLineMetrics& star = line(m, "*");
    CHECK_EQUAL(0u, star.violations);
    CHECK_EQUAL(1u, star.accounts.count("chem"));
    CHECK_EQUAL(1u, star.accounts.count("phys"));
    CHECK_EQUAL(1u, star.accounts.count("")); // the nodes' idle time before they power down
    CHECK_EQUAL(0u, star.accounts.count("bio"));
    DOUBLES_EQUAL(0.53, star.accounts.at("chem").spend, 1e-9);
    CHECK_EQUAL(0u, line(m, "bio").accounts.size());

    // Uncapped, chem's and phys's bursts break the line once each.
    const SimResult uncapped = replay("always", site({{"bio", 5, 86400}, {"*", 0.7, 86400}}, false), trace);
    CHECK_EQUAL(2u, cloud_jobs(uncapped, "chem"));
    CHECK_EQUAL(2u, line(compute_metrics(uncapped, 1), "*").violations);
}

TEST(SimulatorBudget, EachIntervalLengthIsBookedByItsOwnTrackerAndAnHourlyBudgetRenewsEveryHour)
{
    // chem holds the local cores for 20000 s; bio submits two jobs in each
    // of the first three hours.  bio may spend 0.7 an hour: one burst.
    std::vector<TraceJob> trace = {job(1, "chem", 0, 20000, 20000)};
    for (int h = 0; h < 3; ++h) {
        trace.push_back(job(JobId(10 + 2 * h), "bio", h * 3600 + 100));
        trace.push_back(job(JobId(11 + 2 * h), "bio", h * 3600 + 100));
    }
    const SimResult capped = replay("always", site({{"bio", 0.7, 3600}, {"*", 100, 86400}}), trace);
    const SimMetrics m = compute_metrics(capped, 1);
    // All six burst in the end, no two in the same hour: the hour's budget
    // renews, and the commitments of a job running over the boundary count.
    CHECK_EQUAL(6u, cloud_jobs(capped, "bio"));
    std::set<long> hours;
    for (const auto& j : capped.jobs)
        if (j.account == "bio")
            hours.insert(long(j.start) / 3600);
    CHECK_EQUAL(6u, hours.size());
    CHECK_EQUAL(0u, line(m, "bio").violations);
    CHECK(line(m, "bio").intervals >= 6);
    CHECK_EQUAL(1u, line(m, "*").intervals);
    std::set<Seconds> lengths;
    for (const auto& b : capped.booked)
        lengths.insert(b.interval);
    CHECK((lengths == std::set<Seconds>{3600, 86400}));

    // A day's budget of the same amount allows one burst in all.
    const SimResult daily = replay("always", site({{"bio", 0.7, 86400}}), trace);
    CHECK_EQUAL(1u, cloud_jobs(daily, "bio"));
}

TEST(SimulatorBudget, ACappedReplayIsDeterministicForASeed)
{
    SimConfig config = site({{"bio", 1.5, 86400}, {"*", 0.7, 3600}});
    config.boot_jitter = 0.2;
    config.seed = 42;
    std::vector<TraceJob> trace = six_bio_jobs();
    for (JobId id = 1; id <= 3; ++id)
        trace.push_back(job(20 + id, "chem", 200 * Time(id)));
    const SimResult a = replay("always", config, trace), b = replay("always", config, trace);
    CHECK_EQUAL(a.jobs.size(), b.jobs.size());
    for (std::size_t i = 0; i < a.jobs.size(); ++i) {
        CHECK_EQUAL(a.jobs[i].id, b.jobs[i].id);
        CHECK_EQUAL(a.jobs[i].group, b.jobs[i].group);
        DOUBLES_EQUAL(a.jobs[i].start, b.jobs[i].start, 0);
    }
    CHECK(a.over_budget == b.over_budget);
    CHECK_EQUAL(a.budget_notes, b.budget_notes);
    CHECK(a.first_budget_notes == b.first_budget_notes);
    CHECK_EQUAL(a.booked.size(), b.booked.size());
    for (std::size_t i = 0; i < a.booked.size(); ++i)
        CHECK(a.booked[i].accounts == b.booked[i].accounts);
    DOUBLES_EQUAL(a.cloud_cost, b.cloud_cost, 0);
    CHECK(a.over_budget.at("route") > 0);
}

TEST(SimulatorBudget, BadBudgetLinesAreRejected)
{
    const std::vector<TraceJob> trace = six_bio_jobs();
    CHECK_THROWS(SimConfigError, replay("always", site({{"bio", 1, 3600}, {"bio", 2, 86400}}), trace));
    CHECK_THROWS(SimConfigError, replay("always", site({{"bio", -1, 3600}}), trace));
    CHECK_THROWS(SimConfigError, replay("always", site({{"bio", 1, 0}}), trace));
    CHECK_THROWS(SimConfigError, replay("always", site({{"", 1, 3600}}), trace));
}

// pfa's own budget (not a Budget= line) with per-hour billing: three 1-core
// nodes at 4 per hour fill its 12 per hour.  Bursts of three 60-s jobs come
// every 600 s for an hour on a site of one core.  pfa hires two nodes for
// the first; they go idle and Slurm suspends them after 120 s, 210 s into
// an hour the provider bills in full.  Counting them until the hour ends,
// pfa hires one node for the second burst and none after: hiring two per
// burst, as it did when it counted only the nodes on, would have twelve
// billed in the first hour (48).  The metric books each instance's billed
// hour, so it would count that hour as a violation.
TEST(SimulatorBudget, PfaCountsNodesSuspendedWithinTheirBilledHourAgainstItsBudget)
{
    SimConfig c = local_site(1, 1, 30);
    c.suspend_time = 120;
    NodeGroup hourly = cloud_group("h", 1, 4, 30, 10, 0);
    hourly.billing = Billing::PerHour;
    c.groups = {hourly};
    std::vector<TraceJob> trace;
    for (JobId id = 1; id <= 3 * 6; ++id)
        trace.push_back(submitted_by("bio", "bio", trace_job(id, Time((id - 1) / 3 * 600), 1, 60, 120)));
    auto pfa = make_policy("pfa", PolicyParams({{"budget", "12"}, {"interval", "3600"}}));
    SimResult r = simulate(c, trace, *pfa);
    LONGS_EQUAL(3, r.instances.size());
    LONGS_EQUAL(3, cloud_jobs(r, "bio"));
    DOUBLES_EQUAL(12, r.cloud_cost, 1e-9); // each billed one whole hour
    SimMetrics m = compute_metrics(r, 1, 10, 12, 3600);
    LONGS_EQUAL(0, m.budget_violations);
    CHECK(within_budget(m.max_interval_spend, 12));
    CHECK(m.max_interval_spend > 11); // the billed hours, not the 630 s up (2.1)
}

// Budget= lines against what the provider bills: with billing by the hour
// a node up 630 s for a burst costs its whole hour (3.6).  Two bio jobs
// arrive every 900 s for four hours on 4 local cores, so always bursts one
// each time: 14.4 an hour uncapped.  Under Budget=* Amount=4 per hour, bio
// and "" may each spend 4 an hour, so the bill must stay within 8 in every
// hour.  Counting uptime, the cap let every burst through (its "" saw
// 0.13 of boot and idle each) and its booking showed no violation.
TEST(SimulatorBudget, BilledByTheHourTheCapHoldsEveryLineToWhatTheProviderBills)
{
    SimConfig c = site({{"*", 4, 3600}});
    c.groups.front().billing = Billing::PerHour;
    std::vector<TraceJob> trace;
    for (JobId id = 1; id <= 32; ++id)
        trace.push_back(job(id, "bio", Time((id - 1) / 2 * 900)));
    const SimResult uncapped = replay("always", site({}), trace);
    CHECK_EQUAL(16u, cloud_jobs(uncapped, "bio"));

    const SimResult capped = replay("always", c, trace);
    const SimMetrics m = compute_metrics(capped, 1, 10, 8, 3600);
    CHECK_EQUAL(0u, m.budget_violations);
    CHECK(m.max_interval_spend > 3);
    CHECK_EQUAL(0u, line(m, "*").violations);
    // The billed hours are booked, to "" where no job ran.
    CHECK(line(m, "*").accounts.at("").max_spend > 2);
    CHECK(cloud_jobs(capped, "bio") >= 4);
}

// Boots drawn up to 1.5 × the group's 300 s: the cap counts each boot that
// long (NodeGroup::longest_boot), so no line is broken by a slow boot, for
// any policy of the factory that hires or routes.  A route's job may cost
// (450 + 600) × 0.001, more than the line's 0.9, so none is routed; counted
// at 300 s, 0.90 fit, and a slow boot made every policy break the line.
TEST(SimulatorBudget, BootsLongerThanBootTimeBreakNoLine)
{
    SimConfig c = site({{"*", 0.9, 3600}});
    c.groups.front().boot_time = 300;
    c.boot_jitter = 0.5;
    std::vector<TraceJob> trace;
    for (JobId id = 1; id <= 60; ++id)
        trace.push_back(job(id, "bio", Time(id * 200)));
    double most = 0;
    for (const char* policy : {"always", "threshold", "boot-window", "pfa", "forecast", "predictive"}) {
        const SimMetrics m = compute_metrics(replay(policy, c, trace), 1);
        CHECK_EQUAL_TEXT(0u, line(m, "*").violations, policy);
        most = std::max(most, line(m, "*").max_spend);
    }
    CHECK(most > 0.5); // threshold's hires still spend on the line
}
