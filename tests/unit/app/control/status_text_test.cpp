#include "app/control/status_text.hpp"
#include "common/json_ref.hpp"

#include <sstream>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

bool has(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }

std::string render(const char* status_json)
{
    json_error_t err;
    JsonRef s(json_loads(status_json, 0, &err));
    if (!s)
        FAIL(err.text);
    std::ostringstream out;
    write_status_text(out, s.get());
    return out.str();
}

} // namespace

TEST_GROUP(StatusText){};

TEST(StatusText, ShowsProtectedModeAndThePlacementsShortOfCapacityPerGroup)
{
    const std::string t = render(R"({
        "cluster": "hpc", "uptime": 5, "cycles": 2, "cycle_interval": 10, "config_file": "/etc/burstd.conf",
        "node_groups": [{"name": "gcp", "provider": "google", "nodes": "g[1-4]", "capacity": 4, "price_per_hour": 0.5},
                        {"name": "aws", "provider": "ec2", "nodes": "a[1-2]", "capacity": 2, "price_per_hour": 0.2}],
        "group_health": {"gcp": {"mode": "protected", "state": "open", "reason": "boot: g1 did not register",
                                 "probe_in": 42, "capacity_errors": 0, "boot_failures": 3, "opened": 1},
                         "aws": {"mode": "hiring", "state": "closed", "capacity_errors": 1, "boot_failures": 0,
                                 "opened": 0}},
        "placement_backoffs": [
            {"group": "gcp", "instance_type": "n2-standard-8", "zone": "us-central1-a", "backing_off": true,
             "retry_in": 45, "cool_down": 60, "capacity_errors": 2},
            {"group": "gcp", "instance_type": "", "zone": "us-central1-b", "backing_off": false, "retry_in": 0,
             "cool_down": 120, "capacity_errors": 1}],
        "instances": [{"node": "g2", "group": "gcp", "provider_id": "projects/p/zones/us-central1-b/instances/g2",
                       "state": "launching", "zone": "us-central1-b"},
                      {"node": "a1", "group": "aws", "provider_id": "", "state": "requested", "zone": ""}],
        "closed_instances": 3, "provider_work_in_flight": 1})");
    CHECK(has(t, "node group gcp: provider google, nodes g[1-4], capacity 4, 0.5/hour\n"
                 "  launches: protected (boot: g1 did not register), next probe in 42 s; 0 capacity errors and 3 boot "
                 "failures in a row, opened 1 times\n"
                 "  short of capacity: n2-standard-8 in us-central1-a, 2 capacity errors in a row; tried last for 45 s "
                 "more\n"
                 "  short of capacity: default type in us-central1-b, 1 capacity errors in a row; probing (tried in "
                 "its place again)\n"
                 "node group aws:"));
    CHECK(has(t, "  launches: hiring; 1 capacity errors and 0 boot failures in a row, opened 0 times\n"));
    CHECK(has(t, "instances: 2 open, 3 closed, 1 provider calls in flight\n"
                 "  g2 launching projects/p/zones/us-central1-b/instances/g2 (group gcp, zone us-central1-b)\n"
                 "  a1 requested - (group aws)\n"));
}

TEST(StatusText, ShowsTheRunMetricsBurstsimReports)
{
    const std::string t = render(R"({
        "cluster": "hpc", "uptime": 5, "cycles": 2, "cycle_interval": 10, "config_file": "/etc/burstd.conf",
        "run_metrics": {"since": 1000, "jobs_started": 3, "jobs_ended": 2, "mean_wait": 52, "median_wait": 36.4,
                        "p95_wait": 120, "mean_bounded_slowdown": 2.55, "waiting_core_hours": 0.0733,
                        "waste_core_hours": 2.1111, "cloud_cost": 0.5, "accounts": {"": 0.375, "b": 0.125},
                        "samples": 4, "a_under": 0.04, "a_over": 0.32, "t_under": 0.25, "t_over": 0.5,
                        "budget_intervals": 4, "budget_violations": 1, "lambda": 2, "objective": 0.6467}})");
    CHECK_TEXT(has(t, ": 3 jobs started, wait mean 52 s, median 36 s, p95 120 s; 2 ended, mean bounded slowdown 2.55\n"
                      "  cloud cost 0.5000, waiting 0.07 core-h, waste 2.11 core-h; J(2) = 0.6467\n"
                      "  cost of account (no job: idle or unseen): 0.3750\n"
                      "  cost of account b: 0.1250\n"
                      "  provisioning over 4 cycles: a_U 0.040, a_O 0.320, t_U 0.25, t_O 0.50; budget violations 1 "
                      "in 4 intervals\n"),
               t.c_str());
    const std::string without_lambda = render(R"({"run_metrics": {"since": 1000, "cloud_cost": 1}})");
    CHECK_TEXT(has(without_lambda, "  cloud cost 1.0000, waiting 0.00 core-h, waste 0.00 core-h\n"),
               without_lambda.c_str());
}

TEST(StatusText, ShowsTheCoresKeptForInteractiveJobsPerPartition)
{
    const std::string t = render(R"({"cluster": "hpc", "uptime": 5, "cycles": 2, "cycle_interval": 10,
        "interactive": {"debug": {"keep": 4, "held": 3, "queued": 1, "waiting": 0},
                        "old": {"keep": 0, "held": 1, "queued": 0, "waiting": 2}}})");
    CHECK(has(t, "interactive debug: keep 4 core(s) ready, 3 held, 1 hold(s) queued, 0 interactive core(s) waiting\n"
                 "interactive old: keep 0 core(s) ready, 1 held, 0 hold(s) queued, 2 interactive core(s) waiting\n"));
}
