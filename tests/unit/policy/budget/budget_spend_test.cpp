#include "policy/budget/budget_spend.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

NodeGroup cloud()
{
    NodeGroup g;
    g.name = "cloud";
    g.price_per_hour = 3.6; // 0.001 per second
    g.cpus = 4;
    return g;
}

Job on_c1(const std::string& account)
{
    Job j;
    j.id = 1;
    j.account = account;
    j.cpus = 4;
    j.state = JobState::Running;
    j.nodes = {"c1"};
    return j;
}

} // namespace

TEST_GROUP(BudgetSpend){};

TEST(BudgetSpend, OneTrackerPerIntervalLengthEachStartingAtItsOwnBoundary)
{
    BudgetSpend spend;
    const std::vector<BudgetLimit> limits = {{"bio", 1, 3600}, {"*", 5, 86400}, {"chem", 2, 3600}};
    const std::vector<BilledSpan> spans = {{"c1", "cloud", 3000, std::nullopt}};
    const std::vector<Job> jobs = {on_c1("bio")};
    spend.update(3000, limits, spans, jobs, {cloud()});
    IntervalSpend s = spend.update(3700, limits, spans, jobs, {cloud()});
    CHECK_EQUAL(2u, s.size());
    CHECK_EQUAL(2u, spend.trackers().size());
    // The hour began at 3600: 100 s; the day at 0: all 700 s, booked to bio.
    DOUBLES_EQUAL(0.1, s[3600]["bio"], 1e-9);
    DOUBLES_EQUAL(0.7, s[86400]["bio"], 1e-9);
}

TEST(BudgetSpend, ATrackerThatStaysAccruesAndADroppedIntervalStartsAfresh)
{
    BudgetSpend spend;
    const std::vector<BilledSpan> spans = {{"c1", "cloud", 0, std::nullopt}};
    spend.update(0, {{"bio", 1, 86400}}, spans, {on_c1("bio")}, {cloud()});
    // Between the updates the node's time goes to whoever runs on it at the
    // second one; bio's tracker remembers its earlier share.
    IntervalSpend s = spend.update(100, {{"bio", 1, 86400}}, spans, {on_c1("bio")}, {cloud()});
    DOUBLES_EQUAL(0.1, s[86400]["bio"], 1e-9);
    s = spend.update(200, {{"bio", 1, 86400}}, spans, {on_c1("chem")}, {cloud()});
    DOUBLES_EQUAL(0.1, s[86400]["bio"], 1e-9);
    DOUBLES_EQUAL(0.1, s[86400]["chem"], 1e-9);
    // A reload without the day line, then with it again: what the day's
    // tracker had accrued is gone, bio's 0.1 with it.
    spend.update(300, {{"bio", 1, 3600}}, spans, {on_c1("chem")}, {cloud()});
    CHECK_EQUAL(0u, spend.trackers().count(86400));
    s = spend.update(400, {{"bio", 1, 86400}}, spans, {on_c1("chem")}, {cloud()});
    CHECK_EQUAL(0u, s[86400].count("bio"));
    DOUBLES_EQUAL(0.4, s[86400]["chem"], 1e-9);
}

TEST(BudgetSpend, TheReportedIntervalSharesTheTrackerOfLimitsOfItsLength)
{
    BudgetSpend spend;
    const std::vector<BilledSpan> spans = {{"c1", "cloud", 0, std::nullopt}};
    spend.update(0, {{"bio", 1, 86400}}, spans, {on_c1("bio")}, {cloud()}, 86400);
    spend.update(100, {{"bio", 1, 86400}}, spans, {on_c1("bio")}, {cloud()}, 86400);
    CHECK_EQUAL(1u, spend.trackers().size());
    // The day's line goes (a reload); the day, still the reported interval,
    // keeps bio's share accrued under the line.
    IntervalSpend s = spend.update(200, {}, spans, {on_c1("chem")}, {cloud()}, 86400);
    DOUBLES_EQUAL(0.1, s[86400]["bio"], 1e-9);
    DOUBLES_EQUAL(0.1, s[86400]["chem"], 1e-9);
    DOUBLES_EQUAL(0.2, spend.trackers().at(86400).last().total, 1e-9);
}

TEST(BudgetSpend, StatusReportsSpendOverTheShortestLineOrADayWithoutLines)
{
    CHECK_EQUAL(86400, reported_spend_interval({}));
    CHECK_EQUAL(3600, reported_spend_interval({{"*", 5, 7 * 86400}, {"bio", 1, 3600}, {"chem", 2, 86400}}));
}

TEST(BudgetSpend, TrackersCarryOnFromTheBookingsOfTheLastRunAndDropTheOthers)
{
    BudgetSpend spend;
    const std::vector<BilledSpan> spans = {{"c1", "cloud", 0, std::nullopt}};
    // The last run booked up to 3650: bio's job on c1 all along.
    spend.resume({SpendBooking{3600, 3600, 3650, {{"bio", 0.05}}}, SpendBooking{86400, 0, 3650, {{"bio", 3.65}}}});
    IntervalSpend s = spend.update(3700, {{"bio", 1, 3600}}, spans, {on_c1("chem")}, {cloud()});
    DOUBLES_EQUAL(0.05, s[3600]["bio"], 1e-9);
    DOUBLES_EQUAL(0.05, s[3600]["chem"], 1e-9); // 3650..3700
    const std::vector<SpendBooking> kept = spend.bookings();
    CHECK_EQUAL(1u, kept.size());
    DOUBLES_EQUAL(3700, kept[0].booked_until, 0);
    DOUBLES_EQUAL(0.05, kept[0].accounts.at("bio"), 1e-9);
    // The day's booking, which no line used at the restart, is gone (the
    // ledger keeps what the first update books): a reload that adds the
    // day's line starts it afresh, as a reload that drops and re-adds it.
    s = spend.update(3800, {{"bio", 1, 3600}, {"*", 10, 86400}}, spans, {on_c1("chem")}, {cloud()});
    CHECK_EQUAL(0u, s[86400].count("bio"));
    // Resuming after the first update changes nothing.
    spend.resume({SpendBooking{3600, 3600, 3790, {{"bio", 9}}}});
    s = spend.update(3900, {{"bio", 1, 3600}}, spans, {on_c1("chem")}, {cloud()});
    DOUBLES_EQUAL(0.05, s[3600]["bio"], 1e-9);
}

TEST(BudgetSpend, JobEndsHeardBeforeTheFirstUpdateAreBookedByIt)
{
    // burstd restarts with bio's booking up to 8000; the plugin's queued
    // end of bio's job (8000..8050 on c1 since the booking) arrives before
    // its first snapshot, at 8100.
    BudgetSpend spend;
    const std::vector<BilledSpan> spans = {{"c1", "cloud", 7200, std::nullopt}};
    spend.resume({SpendBooking{3600, 7200, 8000, {{"bio", 0.8}}}});
    JobEnd end;
    end.id = 1;
    end.account = "bio";
    end.cpus = 4;
    end.nodes = {"c1"};
    end.start_time = 7200;
    end.end_time = 8050;
    end.elapsed = 850;
    spend.job_ended(end);
    IntervalSpend s = spend.update(8100, {{"bio", 1, 3600}}, spans, {}, {cloud()});
    DOUBLES_EQUAL(0.85, s[3600]["bio"], 1e-9);
    DOUBLES_EQUAL(0.85, spend.bookings().at(0).accounts.at("bio"), 1e-9);
}
