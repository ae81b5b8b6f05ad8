#include "sim/report/forecast_evaluation.hpp"

#include "policy/policy_test_state.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

namespace {

// A group of 1-core nodes booting in `boot` s, whose count is counts[k]
// in tick k of 300 s (one cycle per tick).
BucketSeries series_of(const std::vector<std::uint32_t>& counts, Seconds boot)
{
    BucketSeries series(ResourceOrder(), 300);
    for (std::size_t k = 0; k < counts.size(); ++k) {
        StateBuilder b;
        b.local("n1", 4, 4).group("g", 1, 100, 0.1, boot);
        for (std::uint32_t j = 0; j < counts[k]; ++j)
            b.pending(j + 1, 1);
        series.observe(b.state, double(k) * 300);
    }
    return series;
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
    DOUBLES_EQUAL(4, last.error.mse(), 1e-12);
    DOUBLES_EQUAL(0, last.error.pmse(), 0);
    // The static maximum, 7, is over by 2, 1, 0: all of its error is cost.
    const ForecastScore& top = score(g, "static-max");
    DOUBLES_EQUAL(5.0 / 3, top.error.mse(), 1e-12);
    DOUBLES_EQUAL(top.error.mse(), top.error.pmse(), 0);
}

TEST(ForecastEvaluation, ScoresTheWholeNodesAForecastWouldHold)
{
    // ewma (alpha 0.5) after a burst of 2: 1, 0.5, 0.25 nodes, each held
    // as 1 while nothing comes.  Before it, 0 while 2 were coming.
    const std::vector<GroupForecastScores> scores =
        evaluate_forecasters(series_of({0, 0, 0, 2, 0, 0, 0}, 100), {"ewma,alpha=0.5"}, 0);
    const ForecastError& e = score(scores.at(0), "ewma,alpha=0.5").error;
    LONGS_EQUAL(6, e.count());
    DOUBLES_EQUAL(7.0 / 6, e.mse(), 1e-12);
    DOUBLES_EQUAL(3.0 / 6, e.pmse(), 1e-12);
    DOUBLES_EQUAL(0.5, e.over_share(), 1e-12);
}

TEST(ForecastEvaluation, LeadIsAtLeastOneTick)
{
    LONGS_EQUAL(1, lead_ticks(0, 300));
    LONGS_EQUAL(1, lead_ticks(120, 300));
    LONGS_EQUAL(2, lead_ticks(301, 300));
}

TEST(ForecastEvaluation, SaysSoWhenTrainingLeavesNothingToScore)
{
    try {
        evaluate_forecasters(series_of({1, 2, 3}, 100), {"last-value"}, 86400);
        FAIL("no error");
    } catch (const ForecastEvaluationError& e) {
        STRCMP_EQUAL("no node group's bucket series runs past the training period of 86400 s: nothing to score (a "
                     "shorter training period?)",
                     e.what());
    }
}
