#include "app/metrics/run_metrics_json.hpp"

namespace burst {

json_t* run_metrics_json(const RunMetricsFeed& feed, std::optional<double> lambda)
{
    const RunMetrics& m = feed.metrics();
    const ProvisioningSamples& p = m.provisioning();
    json_t* o = json_object();
    json_object_set_new(o, "since", json_real(feed.epoch()));
    json_object_set_new(o, "jobs_started", json_integer(json_int_t(m.jobs_started())));
    json_object_set_new(o, "jobs_ended", json_integer(json_int_t(m.jobs_ended())));
    json_object_set_new(o, "mean_wait", json_real(m.mean_wait()));
    json_object_set_new(o, "median_wait", json_real(m.wait_quantile(0.5)));
    json_object_set_new(o, "p95_wait", json_real(m.wait_quantile(0.95)));
    json_object_set_new(o, "mean_bounded_slowdown", json_real(m.mean_bounded_slowdown()));
    json_object_set_new(o, "waiting_core_hours", json_real(m.waiting_core_hours()));
    json_object_set_new(o, "waste_core_hours", json_real(m.waste_core_seconds() / 3600));
    json_object_set_new(o, "cloud_cost", json_real(m.total_cloud_cost()));
    json_t* accounts = json_object();
    for (const auto& [account, cost] : m.account_costs())
        json_object_set_new(accounts, account.c_str(), json_real(cost));
    json_object_set_new(o, "accounts", accounts);
    json_object_set_new(o, "samples", json_integer(json_int_t(p.samples)));
    json_object_set_new(o, "samples_beyond_capacity", json_integer(json_int_t(p.beyond_capacity)));
    json_object_set_new(o, "a_under", json_real(p.a_under()));
    json_object_set_new(o, "a_over", json_real(p.a_over()));
    json_object_set_new(o, "t_under", json_real(p.t_under()));
    json_object_set_new(o, "t_over", json_real(p.t_over()));
    json_object_set_new(o, "budget_intervals", json_integer(json_int_t(m.budget_intervals())));
    json_object_set_new(o, "budget_violations", json_integer(json_int_t(m.budget_violations())));
    if (lambda) {
        json_object_set_new(o, "lambda", json_real(*lambda));
        json_object_set_new(o, "objective", json_real(m.objective(*lambda)));
    }
    return o;
}

} // namespace burst
