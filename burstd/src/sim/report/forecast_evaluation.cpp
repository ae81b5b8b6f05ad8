#include "sim/report/forecast_evaluation.hpp"

#include "common/plain_number.hpp"
#include "policy/warm/forecasters/forecaster_registry.hpp"
#include "policy/warm/forecasters/last_value_forecaster.hpp"

#include <algorithm>
#include <cmath>

namespace burst {
namespace {

// The nodes a warm pool holds for a forecast: whole ones, rounded up as
// Gao et al. round in practice (a hair above a whole number is float noise).
double held_nodes(double forecast) { return std::ceil(forecast - 1e-9); }

} // namespace

std::uint32_t lead_ticks(Seconds boot, Seconds tick)
{
    return std::uint32_t(std::max(1.0, std::ceil(boot / tick)));
}

std::vector<GroupForecastScores> evaluate_forecasters(const BucketSeries& series,
                                                      const std::vector<std::string>& specs, Seconds training)
{
    const std::size_t first_scored = std::size_t(std::ceil(training / series.tick()));
    std::vector<GroupForecastScores> out;
    for (const GroupBucketSeries& g : series.groups()) {
        const std::vector<double>& y = g.counts;
        // Ticks whose forecast is scored: after training, with a target.
        std::vector<std::size_t> scored;
        for (std::size_t t = first_scored; t < y.size(); ++t)
            if (t + lead_ticks(g.lead[t], series.tick()) < y.size())
                scored.push_back(t);
        if (scored.empty())
            continue;
        GroupForecastScores scores{g.group, scored.size(), 0, 0, 0, {}};
        for (std::size_t t : scored) {
            const double target = y[t + lead_ticks(g.lead[t], series.tick())];
            scores.mean_count += target / double(scored.size());
            scores.max_count = std::max(scores.max_count, target);
            scores.mean_lead += g.lead[t] / double(scored.size());
        }
        ForecastScore static_max{"static-max", {}};
        for (std::size_t t : scored)
            static_max.error.add(y[t + lead_ticks(g.lead[t], series.tick())], scores.max_count);
        scores.scores.push_back(static_max);
        std::vector<std::string> scored_specs{std::string(LastValueForecaster::kName)};
        for (const auto& spec : specs)
            if (spec != scored_specs.front())
                scored_specs.push_back(spec);
        for (const auto& spec : scored_specs) {
            const std::unique_ptr<Forecaster> f = make_forecaster(spec, series.tick());
            ForecastScore score{spec, {}};
            for (std::size_t t = 0; t < y.size(); ++t) {
                f->observe(y[t]);
                const std::uint32_t lead = lead_ticks(g.lead[t], series.tick());
                if (t >= first_scored && t + lead < y.size())
                    score.error.add(y[t + lead], held_nodes(f->forecast(lead)));
            }
            scores.scores.push_back(std::move(score));
        }
        out.push_back(std::move(scores));
    }
    if (out.empty())
        throw ForecastEvaluationError("no node group's bucket series runs past the training period of " +
                                      plain_number(training) + " s: nothing to score (a shorter training period?)");
    return out;
}

} // namespace burst
