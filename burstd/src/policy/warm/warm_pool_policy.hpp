#pragma once
// Gao et al.'s predictive warm pool as a link of the chain: each node
// group's bucket count (policy/warm/buckets) is forecast one measured boot
// time ahead, and the group is asked to keep that many nodes powered on
// (KeepPlaceholders), every cycle: burstd holds the ones no real job uses
// with placeholder jobs (app/warm/placeholder_pool.hpp), burstsim keeps them
// up.  The count is the forecast in whole nodes, at most what the group may
// have up: its capacity, and while it may not hire freely, what is up or
// booting plus what it may still hire.
//
// A group gets no action until its first tick of counts has closed: with
// nothing to forecast from, the pool stays as found, so that a restart of
// burstd neither drops warm nodes nor adds any.

#include "model/clock.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"
#include "policy/runtime/measured_boot_times.hpp"
#include "policy/warm/buckets/resource_vector.hpp"
#include "policy/warm/forecasters/forecaster.hpp"
#include "policy/site/site_view_builder.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace burst {

class WarmPoolPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "warm";
    // Reads forecaster= (a NAME[,key=value...] of forecaster_registry),
    // tick= and order=; throws PolicyConfigError naming a bad one.
    explicit WarmPoolPolicy(PolicyParams& params);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;

private:
    SiteViewBuilder site_; // each decision's view, in storage kept from the last
    struct GroupForecast {
        std::string group;
        std::unique_ptr<Forecaster> forecaster;
        std::int64_t open_tick = 0; // the tick cycles count into now
        double open_count = 0;      // its largest count so far
        std::uint64_t closed = 0;   // ticks the forecaster has observed
    };
    GroupForecast& forecast_of(const std::string& group, std::int64_t tick);

    std::string forecaster_spec_;
    Seconds tick_;
    ResourceOrder order_;
    MeasuredBootTimes boots_;
    std::vector<GroupForecast> groups_;
};

} // namespace burst
