#include "policy/policy_registry.hpp"

#include "common/config_values.hpp"
#include "policy/expander/expander.hpp"
#include "policy/hiring/always/always_policy.hpp"
#include "policy/hiring/boot_window/boot_window_policy.hpp"
#include "policy/hiring/fixed_delay/fixed_delay_policy.hpp"
#include "policy/hiring/forecast/forecast_policy.hpp"
#include "policy/hiring/never/never_policy.hpp"
#include "policy/hiring/pfa/pfa_policy.hpp"
#include "policy/hiring/predictive/predictive_policy.hpp"
#include "policy/hiring/threshold/threshold_policy.hpp"
#include "policy/warm/warm_pool_policy.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace burst {
namespace {

template <class P>
std::unique_ptr<Policy> build(PolicyParams& params)
{
    return std::make_unique<P>(params);
}

constexpr std::string_view kGate = "money per waiting core-hour; hires only nodes whose waiting jobs pay for them";

} // namespace

const Registry<PolicyType>& policy_registry()
{
    static const Registry<PolicyType> registry(
        "policy",
        {
            {NeverPolicy::kName, "never bursts (the baseline without a cloud)", build<NeverPolicy>, {}},
            {AlwaysPolicy::kName,
             "Slurm's stock reactive bursting: every job that cannot start locally now may run in a group with room",
             build<AlwaysPolicy>,
             {{{"expander", "price", "chooses the node group"}, ""}}},
            {ThresholdPolicy::kName,
             "HPA-like sizing of the site to a utilization or queue target, scaling down after a stabilization window",
             build<ThresholdPolicy>,
             {{{"metric", "utilization", "utilization, hpa or queue"}, ""},
              {{"target_utilization", "0.8", "the utilization kept"}, "metric=utilization"},
              {{"target_queue", "4", "waiting jobs per cloud node"}, "metric=queue"},
              {{"stabilization", "300", "scale down below the highest wish over this long"}, ""},
              {{"expander", "price", "chooses the node group"}, ""},
              {{"lambda", "", kGate}, ""}}},
            {BootWindowPolicy::kName,
             "Zheng et al.'s HTA: plays the queue forward one boot time and hires for what is still waiting then",
             build<BootWindowPolicy>,
             {{{"expander", "least-waste", "chooses the node group"}, ""}, {{"lambda", "", kGate}, ""}}},
            {PredictivePolicy::kName,
             "Smowton et al.'s predictive scaling: bursts a job when the reward its wait loses exceeds the cloud cost",
             build<PredictivePolicy>,
             {{{"lambda", "1", "money per waiting core-hour"}, ""},
              {{"reward", "time", "time or throughput"}, ""},
              {{"reward_scale", "lambda x 3600", "the throughput reward's scale"}, ""},
              {{"late", "uniform", "uniform or immediate: when a job past its expected end ends"}, ""},
              {{"max_error", "0.5", "the uniform window's half width, relative"}, ""},
              {{"benefit", "self", "self, queue or replay: whose waiting a burst saves"}, ""},
              {{"local_price", "0", "money per local core-hour a burst frees"}, ""},
              {{"depth", "1000", "pending jobs considered per cycle"}, ""},
              {{"runtime", "learned", "learned or limit"}, ""},
              {{"expander", "least-cost", "chooses the node group"}, ""}}},
            {FixedDelayPolicy::kName, "reference: a job that cannot start locally bursts after waiting delay",
             build<FixedDelayPolicy>,
             {{{"delay", "600", "seconds a job waits before it bursts"}, ""},
              {{"expander", "price", "chooses the node group"}, ""}}},
            {PfaPolicy::kName,
             "Ilyushkin et al.'s performance-feedback autoscaler: a throughput profile per group, under a budget",
             build<PfaPolicy>,
             {{{"budget", "100", "money per interval"}, ""},
              {{"interval", "3600", "the budget's period"}, ""},
              {{"scope", "site", "site (split over accounts) or account (each its own budget)"}, ""},
              {{"split", "fairshare", "fairshare, shares or equal"}, "scope=site"},
              {{"smoothing", "ma", "ma or ewma: of the throughput ratios"}, ""},
              {{"depth", "10", "intervals in the moving average"}, "smoothing=ma"},
              {{"alpha", "0.7", "the exponential smoothing's weight"}, "smoothing=ewma"},
              {{"release_window", "60", "idle nodes are released this close to their billing boundary"}, ""},
              {{"expander", "least-waste", "chooses the node group"}, ""},
              {{"lambda", "", kGate}, ""}}},
            {ForecastPolicy::kName,
             "bursts a job exactly when its forecast local wait costs more than the cloud (EASY backfill played forward)",
             build<ForecastPolicy>,
             {{{"lambda", "1", "money per waiting core-hour"}, ""},
              {{"depth", "500", "pending jobs played forward"}, ""},
              {{"backfill_window", "100", "jobs behind a blocked head that backfill looks at"}, ""},
              {{"reforecasts", "4", "extra plays per decision"}, ""},
              {{"benefit", "queue", "self or queue: whose waiting a burst saves"}, ""},
              {{"displacement", "on", "on, bounded or off: the work a held job's run pushes out"}, ""},
              {{"max_error", "learned", "the window a late job ends in, relative"}, ""},
              {{"expander", "least-cost", "chooses the node group"}, ""},
              {{"retention", "learned", "learned or suspend: when idle cloud nodes power down"}, ""},
              {{"slots", "blocked", "blocked, arrivals or free: what a burst's node slots cost"}, ""}}},
            {WarmPoolPolicy::kName,
             "Gao et al.'s warm pool: keeps each group's forecast demand, one boot ahead, powered on (placeholder jobs)",
             build<WarmPoolPolicy>,
             {{{"forecaster", "ewma", "NAME[,key=value...]: forecasts each group's bucket count (burstsim --list-policies)"}, ""},
              {{"tick", "300", "seconds per count the forecaster sees"}, ""},
              {{"order", "gpus,memory,cpus", "the resources' order of cost, for the buckets"}, ""}}},
        });
    return registry;
}

std::vector<std::string> policy_names() { return policy_registry().names(); }

std::unique_ptr<Policy> make_policy(const std::string& name, PolicyParams params)
{
    const PolicyType* type = policy_registry().find(name);
    if (!type)
        throw PolicyConfigError(policy_registry().unknown(name));
    auto policy = type->build(params);
    params.reject_unread("policy " + name);
    return policy;
}

namespace {

// Builds `name` with `params` to see what it reads; throws for an unknown name.
PolicyParams read_by(const std::string& name, PolicyParams params)
{
    const PolicyType* type = policy_registry().find(name);
    if (!type)
        throw PolicyConfigError(policy_registry().unknown(name));
    type->build(params);
    return params;
}

} // namespace

bool policy_has_parameter(const std::string& name, const std::string& key)
{
    return read_by(name, PolicyParams()).was_read(key);
}

std::vector<std::string> policy_reads(const std::string& name, PolicyParams params)
{
    const PolicyParams built = read_by(name, params);
    std::vector<std::string> read;
    for (const auto& entry : built.values())
        if (built.was_read(entry.first))
            read.push_back(entry.first);
    return read;
}

bool policy_lambda_is_gate(const std::string& name)
{
    const PolicyParams defaults = read_by(name, PolicyParams());
    return defaults.was_read("lambda") && std::isinf(defaults.double_fallback("lambda"));
}

std::string policy_listing()
{
    std::ostringstream out;
    out << "Policies (burstd.conf Policy=NAME key=value ...; burstsim --policy NAME --param key=value):\n";
    for (const auto& p : policy_registry().entries()) {
        out << "  " << p.name << ": " << p.description << "\n";
        for (const auto& param : p.parameters) {
            out << "      " << param.key << " (" << (param.fallback.empty() ? "unset" : param.fallback) << ")";
            if (!param.only_with.empty())
                out << " [only with " << param.only_with << "]";
            out << ": " << param.description << "\n";
        }
    }
    out << "Expanders (expander=NAME):\n";
    for (const auto& e : expander_registry().entries())
        out << "  " << e.name << ": " << e.description << "\n";
    return out.str();
}

} // namespace burst
