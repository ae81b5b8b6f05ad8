#include "sim/report/forecast_evaluation.hpp"

#include "common/plain_number.hpp"
#include "policy/warm/forecasters/forecaster_registry.hpp"
#include "policy/warm/forecasters/last_value_forecaster.hpp"
#include "policy/warm/whole_nodes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace burst {

std::uint32_t lead_ticks(Seconds boot, Seconds tick)
{
    constexpr std::uint32_t kFarthest = std::numeric_limits<std::uint32_t>::max();
    const double ticks = std::ceil(boot / tick);
    if (!(ticks < double(kFarthest)))
        return kFarthest;
    return std::uint32_t(std::max(1.0, ticks));
}

std::vector<GroupForecastScores> evaluate_forecasters(const BucketSeries& series,
                                                      const std::vector<std::string>& specs, Seconds training)
{
    if (!(training >= 0))
        throw ForecastEvaluationError("training period " + plain_number(training) + " s: expected seconds >= 0");
    // In double first: a training period of 1e30 s is no tick index.
    const double training_ticks = std::ceil(training / series.tick());
    std::size_t longest = 0;
    std::vector<GroupForecastScores> out;
    for (const GroupBucketSeries& g : series.groups()) {
        const std::vector<double>& y = g.counts;
        longest = std::max(longest, y.size());
        if (!(training_ticks < double(y.size())))
            continue;
        const std::size_t first_scored = std::size_t(training_ticks);
        // The target of the forecast made at tick t, when t is scored.
        auto target_of = [&](std::size_t t) -> const double* {
            const std::uint32_t lead = lead_ticks(g.lead[t], series.tick());
            return t >= first_scored && lead < y.size() - t ? &y[t + lead] : nullptr;
        };
        GroupForecastScores scores{g.group, 0, 0, 0, 0, {}};
        for (std::size_t t = first_scored; t < y.size(); ++t)
            if (const double* target = target_of(t)) {
                ++scores.ticks;
                scores.mean_count += *target;
                scores.max_count = std::max(scores.max_count, *target);
                scores.mean_lead += g.lead[t];
            }
        if (scores.ticks == 0)
            continue;
        scores.mean_count /= double(scores.ticks);
        scores.mean_lead /= double(scores.ticks);

        ForecastScore static_max{"static-max", {}, {}};
        for (std::size_t t = first_scored; t < y.size(); ++t)
            if (const double* target = target_of(t)) {
                static_max.held.add(*target, scores.max_count);
                static_max.raw.add(*target, scores.max_count);
            }
        scores.scores.push_back(std::move(static_max));
        std::vector<std::string> scored_specs{std::string(LastValueForecaster::kName)};
        for (const auto& spec : specs)
            if (spec != scored_specs.front())
                scored_specs.push_back(spec);
        for (const auto& spec : scored_specs) {
            const std::unique_ptr<Forecaster> f = make_forecaster(spec, series.tick());
            ForecastScore score{spec, {}, {}};
            for (std::size_t t = 0; t < y.size(); ++t) {
                f->observe(y[t]);
                if (const double* target = target_of(t)) {
                    const double forecast = f->forecast(lead_ticks(g.lead[t], series.tick()));
                    score.held.add(*target, whole_nodes(forecast));
                    score.raw.add(*target, forecast);
                }
            }
            scores.scores.push_back(std::move(score));
        }
        out.push_back(std::move(scores));
    }
    if (out.empty())
        throw ForecastEvaluationError(
            "no node group's bucket series runs past the training period of " + plain_number(training) +
            " s (the longest is " + std::to_string(longest) + " ticks of " + plain_number(series.tick()) +
            " s): nothing to score (a shorter training period?)");
    return out;
}

} // namespace burst
