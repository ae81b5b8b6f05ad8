#pragma once
// burstsim --forecast-eval: how well each forecaster would have foreseen
// each node group's bucket counts on a replay, one measured boot time
// ahead, judged by Gao et al.'s MSE and PMSE against two baselines: the
// static maximum (the most the group's count ever was in the scored ticks,
// held all the time: what a site sizing a fixed pool for its peak would
// pay, never short) and the last value (what a reactive autoscaler
// assumes).
//
// Each forecast is scored twice: as the whole nodes a warm pool would hold
// for it, rounded up (our choice: Gao et al. round the counts, not the
// forecasts), and as made, so that a ranking is not decided by the
// rounding alone.  Every forecaster sees every tick from the first; only
// forecasts made in the scored ticks (after `training`) count, so that
// Holt-Winters' first week is not held against it and all are scored on
// the same ticks.  The lead of a forecast made at a tick is the group's
// measured boot time then, in whole ticks (at least one).  A tick's count
// is the largest its cycles saw, so a forecast made "at" tick t is made
// with all of t seen: one tick later than a forecaster running in the
// tick could make it, as in Gao et al.'s one-step-ahead evaluation.

#include "model/clock.hpp"
#include "policy/warm/buckets/bucket_series.hpp"
#include "policy/warm/forecasters/forecast_error.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace burst {

class ForecastEvaluationError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct ForecastScore {
    std::string forecaster; // "static-max" or the spec as given
    ForecastError held;     // the whole nodes held for each forecast
    ForecastError raw;      // each forecast as made
};

struct GroupForecastScores {
    std::string group;
    std::size_t ticks = 0;  // scored
    double mean_count = 0;  // of the counts forecast, over the scored ticks
    double max_count = 0;
    Seconds mean_lead = 0;  // measured boot time, over the scored ticks
    std::vector<ForecastScore> scores; // static-max, last-value, then the other specs in order
};

// The lead of a forecast made when the measured boot time was `boot`: at
// least one tick, and at most UINT32_MAX (far past any series' end) for a
// boot no series could score.
std::uint32_t lead_ticks(Seconds boot, Seconds tick);

// `specs` are scored in order, last-value among them once, as the
// baseline.  Throws PolicyConfigError for a spec that does not build, and
// ForecastEvaluationError for a training period below 0 or when no group
// has a tick to score after it.
std::vector<GroupForecastScores> evaluate_forecasters(const BucketSeries& series,
                                                      const std::vector<std::string>& specs, Seconds training);

} // namespace burst
