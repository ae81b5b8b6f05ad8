#include "app/control/status_text.hpp"

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>

namespace burst {

namespace {

std::int64_t integer(json_t* o, const char* key) { return json_integer_value(json_object_get(o, key)); }

// A missing field prints as nothing rather than breaking the stream.
const char* text(json_t* o, const char* key)
{
    const char* v = json_string_value(json_object_get(o, key));
    return v ? v : "";
}

// Epoch seconds as burstd's log lines stamp them (local time, milliseconds).
std::string local_time(double epoch)
{
    std::time_t t = static_cast<std::time_t>(epoch);
    std::tm tm{};
    localtime_r(&t, &tm);
    char stamp[40];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    char frac[8];
    std::snprintf(frac, sizeof frac, ".%03d", int((epoch - double(t)) * 1000) % 1000);
    return std::string(stamp) + frac;
}

std::string money(double amount)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", amount);
    return buf;
}

} // namespace

void write_status_text(std::ostream& out, json_t* s)
{
    out << "cluster " << text(s, "cluster") << ", up "
              << integer(s, "uptime") << " s, " << integer(s, "cycles") << " cycles every "
              << json_number_value(json_object_get(s, "cycle_interval")) << " s, config "
              << text(s, "config_file") << " (" << integer(s, "reloads")
              << " reloads, " << integer(s, "failed_reloads") << " refused)\n";
    json_t* snap = json_object_get(s, "snapshot");
    if (json_is_object(snap))
        out << "snapshot seq " << integer(snap, "seq") << ", " << integer(snap, "age") << " s old: "
                  << integer(snap, "pending_jobs") << " pending jobs, " << integer(snap, "running_jobs")
                  << " running, " << integer(snap, "nodes") << " nodes, " << integer(snap, "cloud_nodes_up")
                  << " cloud nodes up\n";
    else if (json_is_true(json_object_get(s, "awaiting_whole_snapshot")))
        out << "snapshot: none — a delta did not fit; no decisions until the plugin's next whole snapshot\n";
    else
        out << "snapshot: none received yet (is the job_submit/burst plugin loaded?)\n";
    json_t* in = json_object_get(s, "ingest");
    out << "plugin connections: " << integer(in, "open_connections") << " open, " << integer(in, "connections")
              << " total, " << integer(in, "refused_peers") << " refused; messages: " << integer(in, "messages")
              << " accepted, " << integer(in, "bad_messages") << " rejected (" << integer(in, "oversized")
              << " oversized), " << integer(in, "job_ends") << " job ends; states: "
              << integer(in, "whole_snapshots") << " whole, " << integer(in, "deltas") << " deltas, "
              << integer(in, "refused_deltas") << " deltas refused, " << integer(in, "resyncs") << " resyncs asked\n";
    out << "policy chain:";
    json_t* policies = json_object_get(s, "policies");
    for (size_t i = 0; i < json_array_size(policies); ++i)
        out << " " << json_string_value(json_array_get(policies, i));
    if (json_array_size(policies) == 0)
        out << " (none configured)";
    if (!json_is_true(json_object_get(s, "policy_chain_wired")))
        out << " [not wired into this burstd]";
    out << "\n";
    if (!json_is_true(json_object_get(s, "actuator_wired")))
        out << "provider actuator: not wired into this burstd\n";
    json_t* groups = json_object_get(s, "node_groups");
    for (size_t i = 0; i < json_array_size(groups); ++i) {
        json_t* g = json_array_get(groups, i);
        out << "node group " << text(g, "name") << ": provider "
                  << text(g, "provider") << ", nodes "
                  << text(g, "nodes") << ", capacity " << integer(g, "capacity")
                  << ", " << json_number_value(json_object_get(g, "price_per_hour")) << "/hour\n";
        json_t* health = json_object_get(json_object_get(s, "group_health"), text(g, "name"));
        if (json_is_object(health)) {
            out << "  launches: " << text(health, "mode");
            if (json_object_get(health, "reason"))
                out << " (" << text(health, "reason") << ")";
            if (json_object_get(health, "probe_in"))
                out << ", next probe in " << integer(health, "probe_in") << " s";
            out << "; " << integer(health, "capacity_errors") << " capacity errors and "
                      << integer(health, "boot_failures") << " boot failures in a row, opened "
                      << integer(health, "opened") << " times\n";
        }
        json_t* short_of = json_object_get(s, "placement_backoffs");
        for (size_t k = 0; k < json_array_size(short_of); ++k) {
            json_t* p = json_array_get(short_of, k);
            if (std::string(text(p, "group")) != text(g, "name"))
                continue;
            const std::string type = text(p, "instance_type"), zone = text(p, "zone");
            out << "  short of capacity: " << (type.empty() ? "default type" : type) << " in "
                << (zone.empty() ? "default zone" : zone) << ", " << integer(p, "capacity_errors")
                << " capacity errors in a row; ";
            if (json_is_true(json_object_get(p, "backing_off")))
                out << "tried last for " << integer(p, "retry_in") << " s more\n";
            else
                out << "probing (tried in its place again)\n";
        }
        json_t* states = json_object_get(json_object_get(s, "cloud_nodes"), text(g, "name"));
        const char* word;
        json_t* names;
        json_object_foreach(states, word, names)
            out << "  " << word << ": " << json_string_value(names) << "\n";
        if (json_t* warm = json_object_get(json_object_get(s, "warm"), text(g, "name"))) {
            out << "  warm pool: ";
            if (json_t* keep = json_object_get(warm, "keep"))
                out << "keep " << json_integer_value(keep) << " node(s) on (" << text(warm, "reason") << "); ";
            else
                out << "no forecast yet; ";
            out << integer(warm, "placeholders_running") << " placeholder(s) holding nodes, "
                << integer(warm, "placeholders_queued") << " queued, " << integer(warm, "scavengers_running")
                << " scavenger job(s) running\n";
        }
    }
    const char* partition;
    json_t* reserve;
    json_object_foreach(json_object_get(s, "interactive"), partition, reserve) {
        out << "interactive " << partition << ": keep " << integer(reserve, "keep") << " core(s) ready, "
            << integer(reserve, "held") << " held, " << integer(reserve, "queued") << " hold(s) queued, "
            << integer(reserve, "waiting") << " interactive core(s) waiting\n";
    }
    json_t* instances = json_object_get(s, "instances");
    if (json_is_array(instances)) {
        out << "instances: " << json_array_size(instances) << " open, " << integer(s, "closed_instances")
                  << " closed, " << integer(s, "provider_work_in_flight") << " provider calls in flight\n";
        for (size_t i = 0; i < json_array_size(instances); ++i) {
            json_t* r = json_array_get(instances, i);
            const char* id = text(r, "provider_id");
            out << "  " << text(r, "node") << " "
                      << text(r, "state") << " " << (id && *id ? id : "-")
                      << " (group " << text(r, "group")
                      << (*text(r, "zone") ? std::string(", zone ") + text(r, "zone") : std::string()) << ")\n";
        }
    }
    json_t* spend = json_object_get(s, "spend");
    if (json_is_object(spend)) {
        out << "spend since " << local_time(json_number_value(json_object_get(spend, "interval_start")))
                  << " (interval " << json_number_value(json_object_get(spend, "interval")) << " s): "
                  << money(json_number_value(json_object_get(spend, "total"))) << "\n";
        const char* key;
        json_t* amount;
        json_object_foreach(json_object_get(spend, "groups"), key, amount)
            out << "  group " << key << ": " << money(json_number_value(amount)) << "\n";
        json_object_foreach(json_object_get(spend, "accounts"), key, amount)
            out << "  account " << (*key ? key : "(no job: idle or unseen)") << ": "
                      << money(json_number_value(amount)) << "\n";
    }
    json_t* budgets = json_object_get(s, "budgets");
    for (size_t i = 0; i < json_array_size(budgets); ++i) {
        json_t* b = json_array_get(budgets, i);
        const char* account = json_string_value(json_object_get(b, "account"));
        const char* unbounded = json_string_value(json_object_get(b, "unbounded"));
        out << "budget of " << (account && *account ? "account " + std::string(account) : "capacity no job uses")
            << " (Budget=" << json_string_value(json_object_get(b, "budget")) << "): "
            << money(json_number_value(json_object_get(b, "spent"))) << " spent + "
            << money(json_number_value(json_object_get(b, "committed"))) << " committed of "
            << money(json_number_value(json_object_get(b, "amount"))) << " per "
            << json_number_value(json_object_get(b, "interval")) << " s"
            << (unbounded ? std::string("; unbounded: ") + unbounded : std::string()) << "\n";
    }
    json_t* run = json_object_get(s, "run_metrics");
    if (json_is_object(run)) {
        auto num = [&](const char* key) { return json_number_value(json_object_get(run, key)); };
        auto fixed = [](double v, int digits) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.*f", digits, v);
            return std::string(buf);
        };
        out << "since " << local_time(num("since")) << ": " << integer(run, "jobs_started")
            << " jobs started, wait mean " << fixed(num("mean_wait"), 0) << " s, median "
            << fixed(num("median_wait"), 0) << " s, p95 " << fixed(num("p95_wait"), 0) << " s; "
            << integer(run, "jobs_ended") << " ended, mean bounded slowdown " << fixed(num("mean_bounded_slowdown"), 2)
            << "\n";
        out << "  cloud cost " << money(num("cloud_cost")) << ", waiting " << fixed(num("waiting_core_hours"), 2)
            << " core-h, waste " << fixed(num("waste_core_hours"), 2) << " core-h";
        if (json_object_get(run, "objective"))
            out << "; J(" << num("lambda") << ") = " << money(num("objective"));
        out << "\n";
        const char* key;
        json_t* amount;
        json_object_foreach(json_object_get(run, "accounts"), key, amount)
            out << "  cost of account " << (*key ? key : "(no job: idle or unseen)") << ": "
                << money(json_number_value(amount)) << "\n";
        out << "  provisioning over " << integer(run, "samples") << " cycles: a_U " << fixed(num("a_under"), 3)
            << ", a_O " << fixed(num("a_over"), 3) << ", t_U " << fixed(num("t_under"), 2) << ", t_O "
            << fixed(num("t_over"), 2) << "; budget violations " << integer(run, "budget_violations") << " in "
            << integer(run, "budget_intervals") << " intervals\n";
    }
    json_t* decisions = json_object_get(s, "decisions");
    if (json_is_array(decisions)) {
        out << "recent decisions (" << json_array_size(decisions) << "):\n";
        for (size_t i = 0; i < json_array_size(decisions); ++i) {
            json_t* d = json_array_get(decisions, i);
            json_t* error = json_object_get(d, "error");
            out << "  [" << local_time(json_number_value(json_object_get(d, "time"))) << "] "
                      << text(d, "action")
                      << ": " << text(d, "reason");
            if (error)
                out << " -- FAILED: " << json_string_value(error);
            out << "\n";
        }
    }
    if (json_t* scaling = json_object_get(s, "thread_scaling")) {
        out << "thread scaling: " << integer(scaling, "categories")
            << " categories learned from completed runs, " << integer(scaling, "known") << " known\n";
        if (json_t* policy = json_object_get(scaling, "policy")) {
            out << "thread policy " << json_string_value(policy) << ": CPUs per task for new --threads=auto jobs:";
            json_t* advice = json_object_get(scaling, "advice");
            const char* category;
            json_t* count;
            json_object_foreach(advice, category, count) out << " " << category << " " << json_integer_value(count);
            const json_int_t all = integer(scaling, "advised_categories");
            if (all > json_int_t(json_object_size(advice)))
                out << " and " << all - json_int_t(json_object_size(advice)) << " more";
            out << (all ? "\n" : " none advised yet\n");
        }
    }
    json_t* notes = json_object_get(s, "notes");
    for (size_t i = 0; i < json_array_size(notes); ++i)
        out << "note: " << json_string_value(json_array_get(notes, i)) << "\n";
}


} // namespace burst
