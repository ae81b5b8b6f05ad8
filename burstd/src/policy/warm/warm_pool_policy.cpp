#include "policy/warm/warm_pool_policy.hpp"

#include "common/plain_number.hpp"
#include "policy/site/site_view.hpp"
#include "policy/warm/buckets/cloud_demand_buckets.hpp"
#include "policy/warm/forecasters/forecaster_registry.hpp"
#include "policy/warm/whole_nodes.hpp"

#include <algorithm>
#include <cmath>

namespace burst {

namespace {

constexpr Seconds kDefaultTick = 300; // Gao et al.'s aggregation, about one cloud boot

} // namespace

WarmPoolPolicy::WarmPoolPolicy(PolicyParams& params)
    : forecaster_spec_(params.get_text("forecaster", "ewma")),
      tick_(params.get_duration("tick", kDefaultTick, 1, 7 * 86400))
{
    try {
        order_ = ResourceOrder::parse(params.get_text("order", "gpus,memory,cpus"));
        make_forecaster(forecaster_spec_, tick_); // a bad spec is the configuration's error, not a cycle's
    } catch (const std::invalid_argument& e) {
        throw PolicyConfigError(e.what());
    }
}

WarmPoolPolicy::GroupForecast& WarmPoolPolicy::forecast_of(const std::string& group, std::int64_t tick)
{
    for (auto& f : groups_)
        if (f.group == group)
            return f;
    groups_.push_back(GroupForecast{group, make_forecaster(forecaster_spec_, tick_), tick, 0, 0});
    return groups_.back();
}

Decision WarmPoolPolicy::decide(const ClusterState& state, const Clock& clock)
{
    Decision d;
    d.time = clock.now();
    const SiteView& view = site_.build(state);
    const std::vector<std::uint32_t> counts = cloud_demand_buckets(view, order_);
    boots_.observe(state);
    const std::int64_t tick = std::int64_t(std::floor(d.time / tick_));
    for (std::size_t g = 0; g < state.groups.size(); ++g) {
        const NodeGroup& group = state.groups[g];
        GroupForecast& f = forecast_of(group.name, tick);
        if (tick > f.open_tick) {
            // A tick no cycle saw repeats the one before, as in the series burstsim evaluates.
            for (std::int64_t closing = f.open_tick; closing < tick; ++closing, ++f.closed)
                f.forecaster->observe(f.open_count);
            f.open_tick = tick;
            f.open_count = 0;
        }
        f.open_count = std::max(f.open_count, double(counts[g]));
        if (f.closed == 0) {
            d.notes.push_back("group " + group.name + ": no forecast before its first tick of counts closes, in " +
                              plain_number(std::ceil(double(tick + 1) * tick_ - d.time)) + " s");
            continue;
        }
        const Seconds lead = boots_.expected(group);
        const auto steps = std::uint32_t(std::max(1.0, std::ceil(lead / tick_)));
        const double forecast = f.forecaster->forecast(steps);
        // What the group can have on: up, booting, and what it may still
        // hire (within its capacity and, while it backs off, its hire limit).
        const GroupView& seen = view.groups[g];
        const std::uint32_t reachable = seen.up_nodes + seen.booting_nodes + seen.hireable_nodes;
        std::uint32_t keep = std::uint32_t(std::min<double>(whole_nodes(forecast), reachable));
        const std::string limit = keep < whole_nodes(forecast) && state.hire_limits.count(group.name)
                                      ? "; the group may not hire freely now"
                                      : "";
        d.add(KeepPlaceholders{group.name, keep},
              "warm pool: " + std::string(f.forecaster->name()) + " forecasts " +
                  plain_number(std::round(forecast * 100) / 100) + " node(s) of demand one boot (" +
                  plain_number(std::round(lead)) + " s) ahead" + limit);
    }
    return d;
}

} // namespace burst
