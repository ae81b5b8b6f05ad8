#include "app/metrics/burstd_metrics.hpp"

#include "app/metrics/prometheus_text.hpp"

namespace burst {

namespace {

// The metrics burstsim reports per run (model/run_metrics.hpp), counted since
// burstd started.
void render_run_metrics(PrometheusText& m, const BurstdMetricsInput& in)
{
    using T = PrometheusText::Type;
    const RunMetrics& r = in.run;
    m.family("burstd_run_metrics_start_seconds", "When the run metrics started counting (burstd's start, Unix time).",
             T::Gauge);
    m.sample(in.run_since);
    m.family("burstd_job_wait_seconds",
             "Waits (eligible to start, cloud boot included) of jobs that started since burstd started.",
             T::Histogram);
    const auto& bounds = WaitHistogram::bounds();
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < bounds.size(); ++i) {
        cumulative += r.waits().counts()[i];
        m.sample(double(cumulative), {{"le", PrometheusText::format_value(bounds[i])}}, "_bucket");
    }
    m.sample(double(r.waits().count()), {{"le", "+Inf"}}, "_bucket");
    m.sample(r.wait_sum(), {}, "_sum");
    m.sample(double(r.waits().count()), {}, "_count");
    m.family("burstd_job_wait_quantile_seconds",
             "Median and 95th percentile wait (nearest rank, from the histogram: within a factor 2^(1/4)).",
             T::Gauge);
    m.sample(r.wait_quantile(0.5), {{"quantile", "0.5"}});
    m.sample(r.wait_quantile(0.95), {{"quantile", "0.95"}});
    m.family("burstd_job_bounded_slowdown",
             "Bounded slowdown max(1, (wait + run) / max(run, 10 s)) of jobs that ended, counted at their start.",
             T::Summary);
    m.sample(r.bounded_slowdown_sum(), {}, "_sum");
    m.sample(double(r.jobs_ended()), {}, "_count");
    m.family("burstd_waiting_core_seconds_total", "Cores times wait of the jobs that started (HTA's shortage).",
             T::Counter);
    m.sample(r.shortage_core_seconds());
    m.family("burstd_cloud_powered_core_seconds_total", "Core-seconds of CLOUD nodes powered on.", T::Counter);
    m.sample(r.cloud_powered_core_seconds());
    m.family("burstd_cloud_busy_core_seconds_total", "Core-seconds jobs ran on CLOUD nodes (counted at their end).",
             T::Counter);
    m.sample(r.cloud_busy_core_seconds());
    m.family("burstd_cloud_waste_core_seconds",
             "Powered CLOUD core-seconds no job ran in (HTA's waste; dips when a long cloud job ends).", T::Gauge);
    m.sample(r.waste_core_seconds());
    const ProvisioningSamples& p = r.provisioning();
    m.family("burstd_provisioning_samples_total",
             "Cycles that sampled demand against supply, by how they compared (beyond_capacity: demand above "
             "every core, left out of a_U, a_O, t_U and t_O).",
             T::Counter);
    m.sample(double(p.samples + p.beyond_capacity), {{"side", "all"}});
    m.sample(double(p.under_samples), {{"side", "under"}});
    m.sample(double(p.over_samples), {{"side", "over"}});
    m.sample(double(p.beyond_capacity), {{"side", "beyond_capacity"}});
    m.family("burstd_provisioning_accuracy",
             "PFA's a_U / a_O: mean missing / surplus cores as a fraction of every local and cloud core.", T::Gauge);
    m.sample(p.a_under(), {{"side", "under"}});
    m.sample(p.a_over(), {{"side", "over"}});
    m.family("burstd_provisioning_time_share", "PFA's t_U / t_O: share of cycles under / over-provisioned.",
             T::Gauge);
    m.sample(p.t_under(), {{"side", "under"}});
    m.sample(p.t_over(), {{"side", "over"}});
    m.family("burstd_cloud_cost_total", "Money spent on cloud instances.", T::Counter);
    m.sample(r.total_cloud_cost());
    m.family("burstd_cloud_cost_account_total",
             "Money spent on cloud instances, per Slurm account (\"\" = no job used it).", T::Counter);
    for (const auto& [account, cost] : r.account_costs())
        m.sample(cost, {{"account", account}});
    if (in.objective_lambda) {
        m.family("burstd_objective", "J(lambda) = cloud cost + lambda x waiting core-hours (ObjectiveLambda=).",
                 T::Gauge);
        m.sample(r.objective(*in.objective_lambda), {{"lambda", PrometheusText::format_value(*in.objective_lambda)}});
    }
    m.family("burstd_budget_intervals_total", "Budget intervals seen, summed over every Budget= line and account.",
             T::Counter);
    m.sample(double(r.budget_intervals()));
    m.family("burstd_budget_violations_total", "Budget intervals whose spend exceeded the budget (must stay 0).",
             T::Counter);
    m.sample(double(r.budget_violations()));
}

// Each cloud provider's HTTP requests to its API, as its request budget saw
// them (provider/http/throttled_transport.hpp).
void render_request_budgets(PrometheusText& m, const std::vector<RequestBudgetView>& budgets)
{
    using T = PrometheusText::Type;
    auto where = [](const RequestBudgetView& b) {
        return PrometheusText::Labels{{"provider", b.provider}, {"region", b.region}};
    };
    m.family("burstd_provider_request_rate_limit",
             "The provider's request budget: tokens per second (ReadRequestRate=, WriteRequestRate=).", T::Gauge);
    for (const auto& b : budgets) {
        m.sample(b.limits.read.rate, {{"provider", b.provider}, {"region", b.region}, {"kind", "read"}});
        m.sample(b.limits.write.rate, {{"provider", b.provider}, {"region", b.region}, {"kind", "write"}});
    }
    m.family("burstd_provider_request_burst_limit",
             "The provider's request budget: bucket size (ReadRequestBurst=, WriteRequestBurst=).", T::Gauge);
    for (const auto& b : budgets) {
        m.sample(b.limits.read.burst, {{"provider", b.provider}, {"region", b.region}, {"kind", "read"}});
        m.sample(b.limits.write.burst, {{"provider", b.provider}, {"region", b.region}, {"kind", "write"}});
    }
    m.family("burstd_provider_requests_total",
             "HTTP requests to a cloud provider's API (retries included), by the bucket they spent: read or write.",
             T::Counter);
    for (const auto& b : budgets) {
        m.sample(double(b.reads), {{"provider", b.provider}, {"region", b.region}, {"kind", "read"}});
        m.sample(double(b.writes), {{"provider", b.provider}, {"region", b.region}, {"kind", "write"}});
    }
    m.family("burstd_provider_throttled_total",
             "Answers by which the cloud throttled a request (RequestLimitExceeded, HTTP 429, rateLimitExceeded).",
             T::Counter);
    for (const auto& b : budgets)
        m.sample(double(b.throttled), where(b));
    m.family("burstd_provider_throttle_gave_up_total",
             "Throttled requests not retried any more (ThrottleRetries= spent, or a Retry-After above "
             "ThrottleMaxWait=): the call failed as throttled.",
             T::Counter);
    for (const auto& b : budgets)
        m.sample(double(b.gave_up), where(b));
    m.family("burstd_provider_budget_wait_seconds_total",
             "Time provider calls waited for a token of the provider's request budget.", T::Counter);
    for (const auto& b : budgets)
        m.sample(b.bucket_wait, where(b));
    m.family("burstd_provider_throttle_backoff_seconds_total",
             "Time provider calls backed off after the cloud throttled them.", T::Counter);
    for (const auto& b : budgets)
        m.sample(b.backoff_wait, where(b));
}

} // namespace

std::string render_metrics(const BurstdMetricsInput& in)
{
    using T = PrometheusText::Type;
    PrometheusText m;
    const auto& c = in.ingest;
    m.family("burstd_snapshot_messages_total", "Messages from the slurmctld plugin, by result.", T::Counter);
    m.sample(double(c.messages), {{"result", "accepted"}});
    m.sample(double(c.bad_messages), {{"result", "rejected"}});
    m.family("burstd_snapshot_oversized_total", "Rejected plugin messages that exceeded the size limit.", T::Counter);
    m.sample(double(c.oversized));
    m.family("burstd_snapshot_states_total", "Plugin state messages applied, by kind.", T::Counter);
    m.sample(double(in.whole_snapshots), {{"kind", "whole"}});
    m.sample(double(in.deltas), {{"kind", "delta"}});
    m.family("burstd_snapshot_deltas_refused_total",
             "Deltas that did not fit burstd's state (a lost message, a failed check); each left burstd without a "
             "state until the next whole snapshot.",
             T::Counter);
    m.sample(double(in.refused_deltas));
    m.family("burstd_snapshot_resyncs_total", "Whole snapshots burstd asked the plugin for.", T::Counter);
    m.sample(double(in.resyncs));
    m.family("burstd_plugin_connections_total", "Plugin connections, by outcome.", T::Counter);
    m.sample(double(c.connections), {{"outcome", "accepted"}});
    m.sample(double(c.refused_peers), {{"outcome", "refused"}});
    m.family("burstd_job_ends_total", "job_end events received.", T::Counter);
    m.sample(double(in.job_ends));

    m.family("burstd_cycles_total", "Cycles run (with or without a snapshot).", T::Counter);
    m.sample(double(in.cycles));
    m.family("burstd_policy_decision_seconds", "Wall time the policy chain spent deciding, per cycle.", T::Summary);
    m.sample(in.policy.decide_seconds_sum, {}, "_sum");
    m.sample(double(in.policy.runs), {}, "_count");
    m.family("burstd_policy_last_decision_seconds", "Wall time of the last cycle's decisions.", T::Gauge);
    m.sample(in.policy.last_decide_seconds);
    m.family("burstd_actions_total", "Actions the policies decided, by kind and whether Slurm applied them.",
             T::Counter);
    for (const auto& [key, n] : in.policy.actions)
        m.sample(double(n), {{"kind", key.first}, {"outcome", key.second}});
    m.family("burstd_fenced_nodes",
             "Powered-down cloud nodes burstd keeps drained because their node group may not launch.", T::Gauge);
    m.sample(double(in.policy.fenced_nodes));

    m.family("burstd_warm_pool_target_nodes",
             "Nodes of the group Policy=warm asks to keep powered on (its forecast; absent before the first).",
             T::Gauge);
    for (const auto& [group, pool] : in.policy.warm)
        if (pool.keep)
            m.sample(double(*pool.keep), {{"group", group}});
    m.family("burstd_placeholder_jobs", "burstd's placeholder jobs per group, by state (running holds a node).",
             T::Gauge);
    for (const auto& [group, pool] : in.policy.warm) {
        m.sample(double(pool.placeholders_running), {{"group", group}, {"state", "running"}});
        m.sample(double(pool.placeholders_queued), {{"group", group}, {"state", "queued"}});
    }
    m.family("burstd_scavenger_jobs_running", "Jobs of ScavengerQOS running on the group's nodes.", T::Gauge);
    for (const auto& [group, pool] : in.policy.warm)
        m.sample(double(pool.scavengers_running), {{"group", group}});

    m.family("burstd_interactive_cores",
             "Cores of the partition kept for interactive jobs (Interactive=), held by hold jobs now, and "
             "asked for by interactive jobs waiting there.",
             T::Gauge);
    for (const auto& [partition, p] : in.policy.interactive) {
        m.sample(double(p.keep), {{"partition", partition}, {"state", "kept"}});
        m.sample(double(p.readiness.held), {{"partition", partition}, {"state", "held"}});
        m.sample(double(p.readiness.waiting), {{"partition", partition}, {"state", "waiting"}});
    }

    std::map<std::pair<std::string, std::string>, std::size_t> instances;
    for (const auto& r : in.open_records)
        ++instances[{r.node_group, std::string(to_string(r.state))}];
    m.family("burstd_instances", "Open instances in the ledger, by node group and state.", T::Gauge);
    for (const auto& [key, n] : instances)
        m.sample(double(n), {{"group", key.first}, {"state", key.second}});
    m.family("burstd_provider_calls_total",
             "Provider launches (per node and placement tried) and terminations (per instance) per node group, "
             "by outcome (ok or the error kind).",
             T::Counter);
    for (const auto& [key, n] : in.provider_calls)
        m.sample(double(n), {{"call", std::get<0>(key)}, {"group", std::get<1>(key)}, {"outcome", std::get<2>(key)}});
    render_request_budgets(m, in.request_budgets);
    m.family("burstd_provider_launch_requests_total",
             "Launch requests sent to the provider per node group: one per batch of nodes, retries included.",
             T::Counter);
    for (const auto& [group, n] : in.launch_requests)
        m.sample(double(n), {{"group", group}});
    m.family("burstd_provider_work_in_flight", "Provider calls queued or running.", T::Gauge);
    m.sample(double(in.provider_work_in_flight));
    m.family("burstd_reconcile_repairs_total", "Repairs reconciliation applied, by kind.", T::Counter);
    for (const auto& [kind, n] : in.repairs)
        m.sample(double(n), {{"kind", kind}});
    m.family("burstd_early_launch_nodes_total",
             "CLOUD nodes launched as soon as Slurm allocated them, ahead of ResumeProgram.", T::Counter);
    m.sample(double(in.early_launch.launched_nodes));
    m.family("burstd_early_launch_jobs_total", "Jobs followed after routing, by how following ended.", T::Counter);
    m.sample(double(in.early_launch.launched_jobs), {{"end", "launched"}});
    m.sample(double(in.early_launch.expired), {{"end", "still_pending"}});
    m.sample(double(in.early_launch.probe_errors), {{"end", "gone"}});
    m.family("burstd_early_launch_following", "Routed jobs followed now, waiting for their allocation.", T::Gauge);
    m.sample(double(in.early_launch.following));

    // Breaker state as one 0/1 series per possible state (the Prometheus
    // idiom for an enum), so alerts can match state="open" directly.
    m.family("burstd_group_breaker_state", "Node group circuit breaker: 1 for its current state.", T::Gauge);
    for (const auto& [group, v] : in.group_health)
        for (BreakerState s : {BreakerState::Closed, BreakerState::Open, BreakerState::HalfOpen, BreakerState::Disabled})
            m.sample(v.state == s ? 1 : 0, {{"group", group}, {"state", std::string(to_string(s))}});
    m.family("burstd_group_protected_mode",
             "1 while the node group is in protected mode (its instances launched but never registered).", T::Gauge);
    for (const auto& [group, v] : in.group_health)
        m.sample(v.mode == "protected" ? 1 : 0, {{"group", group}});
    m.family("burstd_group_breaker_opened_total", "Times the node group's circuit breaker opened.", T::Counter);
    for (const auto& [group, v] : in.group_health)
        m.sample(double(v.opened), {{"group", group}});
    m.family("burstd_group_breaker_probe_in_seconds",
             "Seconds until an open breaker admits its next probe launch (0 when not open).", T::Gauge);
    for (const auto& [group, v] : in.group_health)
        m.sample(v.state == BreakerState::Open && v.open_until > in.now ? v.open_until - in.now : 0,
                 {{"group", group}});
    m.family("burstd_placement_backoff_seconds",
             "Seconds an instance type in a zone is still avoided after a capacity error (0: probing, tried again "
             "in its place).",
             T::Gauge);
    for (const auto& v : in.placement_backoffs)
        m.sample(v.until > in.now ? v.until - in.now : 0,
                 {{"group", v.node_group}, {"instance_type", v.instance_type}, {"zone", v.zone}});
    m.family("burstd_placement_capacity_errors", "Capacity errors in a row for an instance type in a zone.",
             T::Gauge);
    for (const auto& v : in.placement_backoffs)
        m.sample(double(v.shortages), {{"group", v.node_group}, {"instance_type", v.instance_type}, {"zone", v.zone}});

    m.family("burstd_spend_interval_start_seconds", "Start of the current budget interval (Unix time).", T::Gauge);
    m.sample(in.spend.interval_start);
    m.family("burstd_spend_group", "Money spent in the current budget interval, per node group.", T::Gauge);
    for (const auto& g : in.groups) {
        auto it = in.spend.groups.find(g);
        m.sample(it == in.spend.groups.end() ? 0.0 : it->second, {{"group", g}});
    }
    m.family("burstd_spend_account",
             "Money spent in the current budget interval, per Slurm account (\"\" = no job used it).", T::Gauge);
    for (const auto& [account, amount] : in.spend.accounts)
        m.sample(amount, {{"account", account}});
    render_run_metrics(m, in);
    return m.text();
}

} // namespace burst
