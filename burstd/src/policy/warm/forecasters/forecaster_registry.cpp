#include "policy/warm/forecasters/forecaster_registry.hpp"

#include "common/config_values.hpp"
#include "common/text.hpp"
#include "policy/warm/forecasters/ewma_forecaster.hpp"
#include "policy/warm/forecasters/holt_winters_forecaster.hpp"
#include "policy/warm/forecasters/last_value_forecaster.hpp"
#include "policy/warm/forecasters/quantile_forecaster.hpp"

#include <sstream>

namespace burst {
namespace {

template <class F>
std::unique_ptr<Forecaster> build_untimed(PolicyParams& params, Seconds)
{
    return std::make_unique<F>(params);
}

template <class F>
std::unique_ptr<Forecaster> build_timed(PolicyParams& params, Seconds tick)
{
    return std::make_unique<F>(params, tick);
}

// "NAME[,key=value...]" -> its name; the pairs go to `params`.
std::string read_spec(const std::string& spec, PolicyParams& params)
{
    const std::vector<std::string_view> items = split(spec, ',');
    if (items.front().empty())
        throw PolicyConfigError("expected NAME[,key=value...] (known names: " + joined(forecaster_names()) + ")");
    for (std::size_t i = 1; i < items.size(); ++i)
        params.set(std::string(items[i]));
    return std::string(items.front());
}

} // namespace

const Registry<ForecasterType>& forecaster_registry()
{
    static const Registry<ForecasterType> registry(
        "forecaster",
        {
            {LastValueForecaster::kName, "the last count: the reactive baseline", build_untimed<LastValueForecaster>,
             {}},
            {EwmaForecaster::kName, "exponentially weighted moving average of the counts",
             build_untimed<EwmaForecaster>,
             {{"alpha", "0.3", "the weight of the newest count, in (0, 1]"}}},
            {HoltWintersForecaster::kName,
             "additive Holt-Winters: level, trend, a daily and a weekly season (the tick must divide a day)",
             build_timed<HoltWintersForecaster>,
             {{"alpha", "0.5", "the level's smoothing, in [0, 1]"},
              {"beta", "0.001", "the trend's smoothing, in [0, 1]"},
              {"gamma", "0.3", "the daily season's smoothing, in [0, 1]"},
              {"delta", "0.1", "the weekly season's smoothing, in [0, 1]"},
              {"seasons", "daily+weekly", "daily, weekly or daily+weekly"}}},
            {QuantileForecaster::kName,
             "the last count plus a quantile of its past moves over the lead: the count at or below the forecast "
             "about that share of ticks",
             build_timed<QuantileForecaster>,
             {{"quantile", "0.9", "the share of ticks the count stays at or below the forecast, in (0, 1)"},
              {"window", "7d", "how much history the moves are taken from (at least two ticks)"}}},
        });
    return registry;
}

std::vector<std::string> forecaster_names() { return forecaster_registry().names(); }

std::unique_ptr<Forecaster> make_forecaster(const std::string& spec, Seconds tick)
{
    try {
        PolicyParams params;
        const std::string name = read_spec(spec, params);
        const ForecasterType* type = forecaster_registry().find(name);
        if (!type)
            throw PolicyConfigError(forecaster_registry().unknown(name));
        std::unique_ptr<Forecaster> forecaster = type->build(params, tick);
        params.reject_unread(name);
        return forecaster;
    } catch (const PolicyConfigError& e) {
        throw PolicyConfigError("forecaster '" + spec + "': " + e.what());
    }
}

std::string forecaster_listing()
{
    std::ostringstream out;
    out << "Forecasters (burstsim --forecaster NAME[,key=value...]):\n";
    for (const auto& f : forecaster_registry().entries()) {
        out << "  " << f.name << ": " << f.description << "\n";
        for (const auto& param : f.parameters)
            out << "      " << param.key << " (" << param.fallback << "): " << param.description << "\n";
    }
    return out.str();
}

} // namespace burst
