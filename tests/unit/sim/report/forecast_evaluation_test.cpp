#include "sim/report/forecast_evaluation.hpp"

#include "common/plain_number.hpp"
#include "policy/policy_test_state.hpp"

#include <cmath>

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

namespace {

// A group of 1-core nodes whose count is counts[k] in tick k of 300 s (one
// cycle per tick), booting in boots[k] s (or in boots[0] at every tick).
BucketSeries series_of(const std::vector<std::uint32_t>& counts, const std::vector<Seconds>& boots)
{
    BucketSeries series(ResourceOrder(), 300);
    for (std::size_t k = 0; k < counts.size(); ++k) {
        StateBuilder b;
        b.local("n1", 4, 4).group("g", 1, 100, 0.1, boots.size() == 1 ? boots[0] : boots.at(k));
        for (std::uint32_t j = 0; j < counts[k]; ++j)
            b.pending(j + 1, 1);
        series.observe(b.state, SiteView::of(b.state), double(k) * 300);
    }
    return series;
}

BucketSeries series_of(const std::vector<std::uint32_t>& counts, Seconds boot)
{
    return series_of(counts, std::vector<Seconds>{boot});
}

std::string evaluation_error(const BucketSeries& series, Seconds training)
{
    try {
        evaluate_forecasters(series, {"last-value"}, training);
    } catch (const ForecastEvaluationError& e) {
        return e.what();
    }
    return "no error";
}

const ForecastScore& score(const GroupForecastScores& g, const std::string& name)
{
    for (const auto& s : g.scores)
        if (s.forecaster == name)
            return s;
    FAIL(("no score for " + name).c_str());
    return g.scores.front();
}

} // namespace

TEST_GROUP(ForecastEvaluation){};

TEST(ForecastEvaluation, ScoresEachForecasterOneMeasuredBootAheadAfterTraining)
{
    // Rising by one node a tick; a 400 s boot is two ticks ahead.  The
    // first three ticks train; forecasts from ticks 3..5 aim at 5..7.
    const std::vector<GroupForecastScores> scores =
        evaluate_forecasters(series_of({0, 1, 2, 3, 4, 5, 6, 7}, 400), {"last-value"}, 900);
    LONGS_EQUAL(1, scores.size());
    const GroupForecastScores& g = scores[0];
    STRCMP_EQUAL("g", g.group.c_str());
    LONGS_EQUAL(3, g.ticks);
    DOUBLES_EQUAL(6, g.mean_count, 1e-12);
    DOUBLES_EQUAL(7, g.max_count, 0);
    DOUBLES_EQUAL(400, g.mean_lead, 0);
    // The last value is always two short: MSE 4, never over.
    const ForecastScore& last = score(g, "last-value");
    DOUBLES_EQUAL(4, last.held.mse(), 1e-12);
    DOUBLES_EQUAL(0, last.held.pmse(), 0);
    // The static maximum, 7, is over by 2, 1, 0: all of its error is cost,
    // 5/3 a tick, and 5/2 on average over the two ticks it is over.
    const ForecastScore& top = score(g, "static-max");
    DOUBLES_EQUAL(5.0 / 3, top.held.mse(), 1e-12);
    DOUBLES_EQUAL(5.0 / 2, top.held.pmse(), 1e-12);
    DOUBLES_EQUAL(5.0 / 3, top.held.over_squares_per_tick(), 1e-12);
}

TEST(ForecastEvaluation, ScoresTheWholeNodesAForecastWouldHold)
{
    // ewma (alpha 0.5) after a burst of 2: 1, 0.5, 0.25 nodes, each held
    // as 1 while nothing comes.  Before it, 0 while 2 were coming.
    const std::vector<GroupForecastScores> scores =
        evaluate_forecasters(series_of({0, 0, 0, 2, 0, 0, 0}, 100), {"ewma,alpha=0.5"}, 0);
    LONGS_EQUAL(6, scores.at(0).ticks);
    const ForecastScore& ewma = score(scores.at(0), "ewma,alpha=0.5");
    DOUBLES_EQUAL(7.0 / 6, ewma.held.mse(), 1e-12);
    DOUBLES_EQUAL(1, ewma.held.pmse(), 1e-12); // over by 1 at each of 3 ticks
    DOUBLES_EQUAL(0.5, ewma.held.over_share(), 1e-12);
    // As made: 1, 0.5 and 0.25 over, 2 under.
    DOUBLES_EQUAL((4 + 1 + 0.25 + 0.0625) / 6, ewma.raw.mse(), 1e-12);
    DOUBLES_EQUAL((1 + 0.25 + 0.0625) / 3, ewma.raw.pmse(), 1e-12);
}

TEST(ForecastEvaluation, EachForecastLooksAsFarAheadAsTheBootMeasuredWhenItIsMade)
{
    // Counts 0..7; the boot takes one tick while the forecasts of ticks
    // 0..3 are made, three ticks from tick 4 on.  last-value is short by
    // the lead: 1 from ticks 0..3 (targets 1..4), 3 from ticks 4 (target
    // 7); later ticks' targets are past the end.
    const std::vector<GroupForecastScores> scores =
        evaluate_forecasters(series_of({0, 1, 2, 3, 4, 5, 6, 7}, {300, 300, 300, 300, 900, 900, 900, 900}),
                             {"last-value"}, 0);
    const GroupForecastScores& g = scores.at(0);
    LONGS_EQUAL(5, g.ticks);
    DOUBLES_EQUAL((4 * 300 + 900) / 5.0, g.mean_lead, 1e-9);
    DOUBLES_EQUAL((1 + 2 + 3 + 4 + 7) / 5.0, g.mean_count, 1e-12);
    DOUBLES_EQUAL((4 * 1 + 9) / 5.0, score(g, "last-value").held.mse(), 1e-12);
}

TEST(ForecastEvaluation, LeadIsAtLeastOneTickAndAtMostTheFarthestItCanSay)
{
    LONGS_EQUAL(1, lead_ticks(0, 300));
    LONGS_EQUAL(1, lead_ticks(120, 300));
    LONGS_EQUAL(2, lead_ticks(301, 300));
    LONGS_EQUAL(4294967295u, lead_ticks(1e30, 300));
    LONGS_EQUAL(4294967295u, lead_ticks(HUGE_VAL, 300));
}

TEST(ForecastEvaluation, ATrainingPeriodBeyondEverySeriesOrBelowZeroIsAnError)
{
    const BucketSeries series = series_of({1, 2, 3}, 100);
    for (Seconds training : {900.0, 1e30, HUGE_VAL})
        CHECK_TEXT(evaluation_error(series, training).find("nothing to score") != std::string::npos,
                   plain_number(training).c_str());
    STRCMP_EQUAL("training period -1 s: expected seconds >= 0", evaluation_error(series, -1).c_str());
    // 600 s leaves tick 2, whose target lies past the end: nothing either.
    CHECK(evaluation_error(series, 600).find("nothing to score") != std::string::npos);
    STRCMP_EQUAL("no error", evaluation_error(series, 300).c_str());
}

TEST(ForecastEvaluation, SaysSoWhenTrainingLeavesNothingToScore)
{
    try {
        evaluate_forecasters(series_of({1, 2, 3}, 100), {"last-value"}, 86400);
        FAIL("no error");
    } catch (const ForecastEvaluationError& e) {
        STRCMP_EQUAL("no node group's bucket series runs past the training period of 86400 s (the longest is 3 "
                     "ticks of 300 s): nothing to score (a shorter training period?)",
                     e.what());
    }
}
