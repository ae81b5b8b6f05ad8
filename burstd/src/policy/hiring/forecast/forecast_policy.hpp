#pragma once
#include "policy/hiring/forecast/burst_arrivals.hpp"
#include "policy/expander/expander.hpp"
#include "policy/hiring/forecast/hold_outcomes.hpp"
#include "policy/hiring/forecast/idle_retention.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"
#include "policy/site/routed_work.hpp"
#include "policy/runtime/runtime_ratio_model.hpp"
#include "policy/hiring/forecast/slot_scarcity.hpp"
#include "policy/site/site_view_builder.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>

namespace burst {

class SiteView;

// Bursts a job exactly when its forecast local wait costs more than the
// cloud: λ · cores · (Q − boot) / 3600 > C, with Q its start in a play of
// the local queue as Slurm's EASY backfill would run it and C its quote in
// the group the expander picks.  A job that does not pay for itself may
// still go for the cloud work its local run would displace, for what held
// jobs have cost beyond their forecasts, or for the waiting the jobs behind
// it save (benefit=queue).  Idle nodes are released as soon as keeping them
// is not expected to pay (retention), and a burst is charged what its node
// slots deny others (slots).  The rule, its options and what each was
// measured to do: doc/policies.md, section "forecast".
class ForecastPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "forecast";
    explicit ForecastPolicy(PolicyParams& params);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;
    void observe(const JobEnd& end) override
    {
        model_.observe(end);
        holds_.observe(end);
    }

private:
    SiteViewBuilder site_; // each decision's view, in storage kept from the last
    void release_idle(Decision& d, const SiteView& view, const std::vector<Instance>& instances);

    double lambda_;
    std::uint32_t depth_;
    std::uint32_t backfill_window_;
    std::uint32_t reforecasts_;
    bool queue_benefit_;
    enum class Displacement { Off, On, Bounded } displacement_;
    RuntimeRatioModel model_;
    // Held jobs' forecasts err one way (a job is held because its Q is
    // short): what holding them really cost prices the next hold.
    HoldOutcomes holds_;
    RoutedWork own_bursts_; // jobs routed for their own wait (displacement=bounded)
    std::unique_ptr<Expander> expander_;
    std::optional<IdleRetention> retention_;
    enum class Slots { Free, Blocked, Arrivals } slots_;
    // Per group, in ClusterState::groups order.
    std::vector<SlotScarcity> scarcity_;    // slots=blocked
    std::vector<BurstArrivals> arrivals_;   // slots=arrivals
    // Jobs waiting since after it are new arrivals; none are on the first
    // decision (at start or reload), whose whole queue is not new.
    Time last_decision_ = std::numeric_limits<Time>::max();
};

} // namespace burst
