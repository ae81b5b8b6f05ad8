#include "app/metrics/burstd_metrics.hpp"
#include "app/metrics/metrics_http.hpp"
#include "app/metrics/metrics_server.hpp"
#include "app/metrics/prometheus_text.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <stdexcept>
#include <string>
#include <thread>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

bool has(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }

// One request over a real loopback connection; returns everything the server sent.
std::string exchange(std::uint16_t port, const std::string& request)
{
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket s(io);
    s.connect({boost::asio::ip::address_v4::loopback(), port});
    boost::asio::write(s, boost::asio::buffer(request));
    std::string reply;
    boost::system::error_code ec;
    char buf[4096];
    for (;;) {
        std::size_t n = s.read_some(boost::asio::buffer(buf), ec);
        reply.append(buf, n);
        if (ec)
            break;
    }
    return reply;
}

} // namespace

TEST_GROUP(PrometheusText){};

TEST(PrometheusText, WritesHelpTypeAndEscapedLabels)
{
    PrometheusText m;
    m.family("x_total", "Things\nseen \\ counted.", PrometheusText::Type::Counter);
    m.sample(3, {{"group", "a\"b\\c\nd"}});
    m.family("y_seconds", "Time.", PrometheusText::Type::Summary);
    m.sample(0.25, {}, "_sum");
    STRCMP_EQUAL("# HELP x_total Things\\nseen \\\\ counted.\n# TYPE x_total counter\n"
                 "x_total{group=\"a\\\"b\\\\c\\nd\"} 3\n"
                 "# HELP y_seconds Time.\n# TYPE y_seconds summary\ny_seconds_sum 0.25\n",
                 m.text().c_str());
}

TEST(PrometheusText, RefusesBadOrRepeatedNamesAndOrphanSamples)
{
    PrometheusText m;
    CHECK_THROWS(std::logic_error, m.sample(1));
    CHECK_THROWS(std::invalid_argument, m.family("1bad", "", PrometheusText::Type::Gauge));
    CHECK_THROWS(std::invalid_argument, m.family("has-dash", "", PrometheusText::Type::Gauge));
    m.family("ok", "", PrometheusText::Type::Gauge);
    CHECK_THROWS(std::invalid_argument, m.family("ok", "", PrometheusText::Type::Gauge));
    CHECK_THROWS(std::invalid_argument, m.sample(1, {{"bad-label", "v"}}));
}

TEST(PrometheusText, FormatsSpecialValues)
{
    STRCMP_EQUAL("NaN", PrometheusText::format_value(0.0 / 0.0).c_str());
    STRCMP_EQUAL("+Inf", PrometheusText::format_value(1.0 / 0.0).c_str());
    STRCMP_EQUAL("12", PrometheusText::format_value(12).c_str());
    STRCMP_EQUAL("0.10000000000000001", PrometheusText::format_value(0.1).c_str());
}

TEST_GROUP(MetricsHttp){};

TEST(MetricsHttp, GetMetricsGetsTheExposition)
{
    auto r = metrics_http_reply("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", [] { return std::string("a 1\n"); });
    LONGS_EQUAL(200, r.status);
    CHECK(has(r.text, "HTTP/1.1 200 OK\r\n"));
    CHECK(has(r.text, "Content-Type: text/plain; version=0.0.4"));
    CHECK(has(r.text, "Content-Length: 4\r\n"));
    CHECK(has(r.text, "\r\n\r\na 1\n"));
    auto q = metrics_http_reply("GET /metrics?x=1 HTTP/1.0\r\n\r\n", [] { return std::string("a 1\n"); });
    LONGS_EQUAL(200, q.status);
}

TEST(MetricsHttp, HeadGetsHeadersOnly)
{
    auto r = metrics_http_reply("HEAD /metrics HTTP/1.1\r\n\r\n", [] { return std::string("a 1\n"); });
    LONGS_EQUAL(200, r.status);
    CHECK(has(r.text, "Content-Length: 4\r\n"));
    CHECK(r.text.size() >= 4 && r.text.substr(r.text.size() - 4) == "\r\n\r\n");
}

TEST(MetricsHttp, RejectsOtherPathsMethodsAndGarbage)
{
    bool rendered = false;
    auto render = [&] {
        rendered = true;
        return std::string();
    };
    LONGS_EQUAL(404, metrics_http_reply("GET / HTTP/1.1\r\n\r\n", render).status);
    auto post = metrics_http_reply("POST /metrics HTTP/1.1\r\n\r\n", render);
    LONGS_EQUAL(405, post.status);
    CHECK(has(post.text, "Allow: GET, HEAD\r\n"));
    LONGS_EQUAL(400, metrics_http_reply("GET\r\n\r\n", render).status);
    LONGS_EQUAL(400, metrics_http_reply("GET /metrics HTTP/1.1 extra\r\n\r\n", render).status);
    LONGS_EQUAL(400, metrics_http_reply("GET metrics HTTP/1.1\r\n\r\n", render).status);
    LONGS_EQUAL(505, metrics_http_reply("GET /metrics SPDY/3\r\n\r\n", render).status);
    LONGS_EQUAL(431, metrics_http_too_large().status);
    CHECK(!rendered);
}

TEST_GROUP(BurstdMetrics){};

TEST(BurstdMetrics, RendersEveryFamilyWithItsLabels)
{
    BurstdMetricsInput in;
    in.ingest.messages = 7;
    in.ingest.bad_messages = 2;
    in.cycles = 5;
    in.policy.runs = 4;
    in.policy.decide_seconds_sum = 0.5;
    in.policy.actions[{"route", "applied"}] = 3;
    in.policy.fenced_nodes = 5;
    in.provider_calls[{"launch", "cloud", "capacity"}] = 1;
    in.provider_calls[{"launch", "cloud", "ok"}] = 2;
    in.launch_requests["cloud"] = 1;
    in.repairs["adopt"] = 1;
    in.groups = {"cloud", "gpu"};
    LedgerRecord r;
    r.node_group = "cloud";
    r.state = InstanceState::Running;
    in.open_records = {r, r};
    in.spend.groups["cloud"] = 1.5;
    in.spend.accounts["alpha"] = 1.0;
    in.spend.accounts[""] = 0.5;
    in.early_launch.launched_nodes = 2;
    in.early_launch.following = 7;
    std::string t = render_metrics(in);
    CHECK(has(t, "burstd_snapshot_messages_total{result=\"accepted\"} 7\n"));
    CHECK(has(t, "burstd_snapshot_messages_total{result=\"rejected\"} 2\n"));
    CHECK(has(t, "burstd_cycles_total 5\n"));
    CHECK(has(t, "# TYPE burstd_policy_decision_seconds summary\n"));
    CHECK(has(t, "burstd_policy_decision_seconds_sum 0.5\nburstd_policy_decision_seconds_count 4\n"));
    CHECK(has(t, "burstd_actions_total{kind=\"route\",outcome=\"applied\"} 3\n"));
    CHECK(has(t, "burstd_instances{group=\"cloud\",state=\"running\"} 2\n"));
    CHECK(has(t, "burstd_provider_calls_total{call=\"launch\",group=\"cloud\",outcome=\"capacity\"} 1\n"));
    CHECK(has(t, "burstd_provider_launch_requests_total{group=\"cloud\"} 1\n"));
    CHECK(has(t, "burstd_reconcile_repairs_total{kind=\"adopt\"} 1\n"));
    CHECK(has(t, "burstd_spend_group{group=\"cloud\"} 1.5\n"));
    CHECK(has(t, "burstd_spend_group{group=\"gpu\"} 0\n"));
    CHECK(has(t, "burstd_spend_account{account=\"alpha\"} 1\n"));
    CHECK(has(t, "burstd_spend_account{account=\"\"} 0.5\n"));
    CHECK(has(t, "burstd_early_launch_nodes_total 2\n"));
    CHECK(has(t, "# TYPE burstd_early_launch_following gauge\nburstd_early_launch_following 7\n"));
    CHECK(has(t, "# TYPE burstd_fenced_nodes gauge\nburstd_fenced_nodes 5\n"));
}

TEST(BurstdMetrics, RendersEachProvidersRequestsAndThrottling)
{
    BurstdMetricsInput in;
    RequestBudgetView b;
    b.provider = "aws-east";
    b.region = "us-east-1";
    b.limits.read = {20, 100};
    b.limits.write = {5, 50};
    b.reads = 40;
    b.writes = 12;
    b.throttled = 3;
    b.gave_up = 1;
    b.bucket_wait = 2.5;
    b.backoff_wait = 4.25;
    in.request_budgets.push_back(b);
    const std::string t = render_metrics(in);
    const std::string where = "provider=\"aws-east\",region=\"us-east-1\"";
    CHECK(has(t, "burstd_provider_request_rate_limit{" + where + ",kind=\"write\"} 5\n"));
    CHECK(has(t, "burstd_provider_request_burst_limit{" + where + ",kind=\"read\"} 100\n"));
    CHECK(has(t, "burstd_provider_requests_total{" + where + ",kind=\"read\"} 40\n"));
    CHECK(has(t, "burstd_provider_requests_total{" + where + ",kind=\"write\"} 12\n"));
    CHECK(has(t, "# TYPE burstd_provider_throttled_total counter\nburstd_provider_throttled_total{" + where + "} 3\n"));
    CHECK(has(t, "burstd_provider_throttle_gave_up_total{" + where + "} 1\n"));
    CHECK(has(t, "burstd_provider_budget_wait_seconds_total{" + where + "} 2.5\n"));
    CHECK(has(t, "burstd_provider_throttle_backoff_seconds_total{" + where + "} 4.25\n"));
}

TEST(BurstdMetrics, RendersEachGroupsWarmPool)
{
    BurstdMetricsInput in;
    WarmPoolStats pool;
    pool.keep = 3;
    pool.placeholders_running = 2;
    pool.placeholders_queued = 1;
    in.policy.warm["cloud"] = pool;
    in.policy.warm["gpu"].scavengers_running = 4; // no forecast yet
    const std::string t = render_metrics(in);
    CHECK(has(t, "# TYPE burstd_warm_pool_target_nodes gauge\nburstd_warm_pool_target_nodes{group=\"cloud\"} 3\n"));
    CHECK(!has(t, "burstd_warm_pool_target_nodes{group=\"gpu\"}"));
    CHECK(has(t, "burstd_placeholder_jobs{group=\"cloud\",state=\"running\"} 2\n"));
    CHECK(has(t, "burstd_placeholder_jobs{group=\"cloud\",state=\"queued\"} 1\n"));
    CHECK(has(t, "burstd_scavenger_jobs_running{group=\"gpu\"} 4\n"));
}

TEST(BurstdMetrics, RendersEachPartitionsInteractiveCores)
{
    BurstdMetricsInput in;
    InteractiveStats debug;
    debug.keep = 4;
    debug.readiness.held = 3;
    debug.readiness.waiting = 1;
    in.policy.interactive["debug"] = debug;
    const std::string t = render_metrics(in);
    CHECK(has(t, "# TYPE burstd_interactive_cores gauge\n"
                 "burstd_interactive_cores{partition=\"debug\",state=\"kept\"} 4\n"
                 "burstd_interactive_cores{partition=\"debug\",state=\"held\"} 3\n"
                 "burstd_interactive_cores{partition=\"debug\",state=\"waiting\"} 1\n"));
}

TEST(BurstdMetrics, RendersTheRunMetricsAsHistogramCountersAndGauges)
{
    BurstdMetricsInput in;
    in.run_since = 1000;
    in.run.job_started(2, 0);
    in.run.job_started(4, 3);   // bucket (2.83, 4]
    in.run.job_started(1, 100); // bucket (90.5, 128]
    in.run.job_ended(3, 5, 1200);
    in.run.cloud_powered(8000);
    in.run.cloud_busy(400);
    in.run.cloud_cost(0.5);
    in.run.account_cost("b", 0.125);
    in.run.provisioning().capacity = 100;
    in.run.provisioning().add(80, 64);
    in.run.provisioning().add(0, 64);
    in.run.provisioning().add(150, 64); // beyond every core: counted, not measured
    in.run.budget_spend("b@86400", 0, 6, 5);
    in.objective_lambda = 2;
    const std::string t = render_metrics(in);
    CHECK(has(t, "burstd_run_metrics_start_seconds 1000\n"));
    CHECK(has(t, "# TYPE burstd_job_wait_seconds histogram\n"
                 "burstd_job_wait_seconds_bucket{le=\"0\"} 1\n"
                 "burstd_job_wait_seconds_bucket{le=\"1\"} 1\n"
                 "burstd_job_wait_seconds_bucket{le=\"1.4142135623730951\"} 1\n"));
    CHECK(has(t, "burstd_job_wait_seconds_bucket{le=\"2.8284271247461903\"} 1\n"
                 "burstd_job_wait_seconds_bucket{le=\"4\"} 2\n"));
    CHECK(has(t, "burstd_job_wait_seconds_bucket{le=\"90.509667991878089\"} 2\n"
                 "burstd_job_wait_seconds_bucket{le=\"128\"} 3\n"));
    CHECK(has(t, "burstd_job_wait_seconds_bucket{le=\"4194304\"} 3\n"
                 "burstd_job_wait_seconds_bucket{le=\"+Inf\"} 3\n"
                 "burstd_job_wait_seconds_sum 103\n"
                 "burstd_job_wait_seconds_count 3\n"));
    // 3 s lies in (2.83, 4]: read as 4 / 2^(1/4).
    CHECK(has(t, "burstd_job_wait_quantile_seconds{quantile=\"0.5\"} 3.36358566101"));
    CHECK(has(t, "burstd_job_wait_quantile_seconds{quantile=\"0.95\"} 100\n"));
    CHECK(has(t, "burstd_job_bounded_slowdown_sum 1\nburstd_job_bounded_slowdown_count 1\n"));
    CHECK(has(t, "burstd_waiting_core_seconds_total 112\n"));
    CHECK(has(t, "burstd_cloud_powered_core_seconds_total 8000\n"));
    CHECK(has(t, "burstd_cloud_busy_core_seconds_total 400\n"));
    CHECK(has(t, "# TYPE burstd_cloud_waste_core_seconds gauge\nburstd_cloud_waste_core_seconds 7600\n"));
    CHECK(has(t, "burstd_provisioning_samples_total{side=\"all\"} 3\n"
                 "burstd_provisioning_samples_total{side=\"under\"} 1\n"
                 "burstd_provisioning_samples_total{side=\"over\"} 1\n"
                 "burstd_provisioning_samples_total{side=\"beyond_capacity\"} 1\n"));
    CHECK(has(t, "burstd_provisioning_accuracy{side=\"under\"} 0.080000000000000002\n"
                 "burstd_provisioning_accuracy{side=\"over\"} 0.32000000000000001\n"));
    CHECK(has(t, "burstd_provisioning_time_share{side=\"under\"} 0.5\n"));
    CHECK(has(t, "burstd_cloud_cost_total 0.5\n"));
    CHECK(has(t, "burstd_cloud_cost_account_total{account=\"\"} 0.375\n"
                 "burstd_cloud_cost_account_total{account=\"b\"} 0.125\n"));
    CHECK(has(t, "burstd_objective{lambda=\"2\"} 0.562222222222222"));
    CHECK(has(t, "\nburstd_budget_intervals_total 1\n"));
    CHECK(has(t, "\nburstd_budget_violations_total 1\n"));
    in.objective_lambda.reset();
    CHECK_FALSE(has(render_metrics(in), "burstd_objective"));
}

TEST(BurstdMetrics, RendersBreakersProtectedModeAndPlacementBackoffs)
{
    BurstdMetricsInput in;
    in.now = 1000;
    GroupHealthView open;
    open.state = BreakerState::Open;
    open.mode = "protected";
    open.open_until = 1090;
    open.opened = 2;
    GroupHealthView closed;
    closed.mode = "hiring";
    in.group_health = {{"cloud", open}, {"gpu", closed}};
    in.placement_backoffs = {{"cloud", "n2-standard-8", "us-central1-a", true, 1045, 60, 3},
                             {"cloud", "n2-standard-8", "us-central1-b", false, 990, 120, 1}};
    const std::string t = render_metrics(in);
    CHECK(has(t, "# TYPE burstd_group_breaker_state gauge\n"));
    CHECK(has(t, "burstd_group_breaker_state{group=\"cloud\",state=\"closed\"} 0\n"
                 "burstd_group_breaker_state{group=\"cloud\",state=\"open\"} 1\n"
                 "burstd_group_breaker_state{group=\"cloud\",state=\"half-open\"} 0\n"
                 "burstd_group_breaker_state{group=\"cloud\",state=\"disabled\"} 0\n"));
    CHECK(has(t, "burstd_group_breaker_state{group=\"gpu\",state=\"closed\"} 1\n"));
    CHECK(has(t, "burstd_group_protected_mode{group=\"cloud\"} 1\nburstd_group_protected_mode{group=\"gpu\"} 0\n"));
    CHECK(has(t, "# TYPE burstd_group_breaker_opened_total counter\n"
                 "burstd_group_breaker_opened_total{group=\"cloud\"} 2\n"));
    CHECK(has(t, "burstd_group_breaker_probe_in_seconds{group=\"cloud\"} 90\n"));
    CHECK(has(t, "burstd_group_breaker_probe_in_seconds{group=\"gpu\"} 0\n"));
    CHECK(has(t, "burstd_placement_backoff_seconds{group=\"cloud\",instance_type=\"n2-standard-8\","
                 "zone=\"us-central1-a\"} 45\n"));
    CHECK(has(t, "burstd_placement_backoff_seconds{group=\"cloud\",instance_type=\"n2-standard-8\","
                 "zone=\"us-central1-b\"} 0\n"));
    CHECK(has(t, "burstd_placement_capacity_errors{group=\"cloud\",instance_type=\"n2-standard-8\","
                 "zone=\"us-central1-a\"} 3\n"));
}

TEST_GROUP(MetricsServer){};

TEST(MetricsServer, ServesScrapesAndRefusesOtherRequestsOverLoopback)
{
    boost::asio::io_context io;
    MetricsServer server(io, 0, [] { return std::string("burstd_up 1\n"); });
    CHECK(server.port() != 0);
    auto guard = boost::asio::make_work_guard(io);
    std::thread runner([&io] { io.run(); });
    std::string ok = exchange(server.port(), "GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n");
    std::string post = exchange(server.port(), "POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
    std::string huge = exchange(server.port(), "GET /metrics HTTP/1.1\r\nX: " + std::string(10000, 'a') + "\r\n\r\n");
    guard.reset();
    io.stop();
    runner.join();
    CHECK(has(ok, "HTTP/1.1 200 OK\r\n"));
    CHECK(has(ok, "\r\n\r\nburstd_up 1\n"));
    CHECK(has(post, "HTTP/1.1 405 "));
    CHECK(has(huge, "HTTP/1.1 431 "));
}

TEST(MetricsServer, NamesThePortItCannotTake)
{
    boost::asio::io_context io;
    MetricsServer first(io, 0, [] { return std::string(); });
    try {
        MetricsServer second(io, first.port(), [] { return std::string(); });
        FAIL("a second server bound the same port");
    } catch (const std::runtime_error& e) {
        CHECK(has(e.what(), "MetricsPort=" + std::to_string(first.port())));
    }
}
