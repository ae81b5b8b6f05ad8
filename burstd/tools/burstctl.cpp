// burstctl: talks to burstd over its control socket.  Slurm runs it as
// ResumeProgram/SuspendProgram/ResumeFailProgram; admins run "burstctl status".
// See burstctl(1).

#include "app/control_client.hpp"
#include "ingest/json_ref.hpp"

#include <jansson.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <string>
#include <thread>

namespace {

using burst::JsonRef;

constexpr const char* kDefaultSocket = "/run/burstd/control.sock";
constexpr std::chrono::seconds kRestartPatience(15);

void usage(std::ostream& out)
{
    out << "usage: burstctl [--socket PATH] status [--json]\n"
           "       burstctl [--socket PATH] resume|suspend|resume-fail HOSTLIST\n"
           "       burstctl [--socket PATH] reset-group GROUP\n"
           "The socket is ControlSocket in burstd.conf (default " << kDefaultSocket
        << ", or $BURSTCTL_SOCKET).\n";
}

std::string dump(json_t* j, size_t flags)
{
    char* text = json_dumps(j, flags);
    std::string out = text ? text : "";
    std::free(text);
    return out;
}

std::int64_t integer(json_t* o, const char* key) { return json_integer_value(json_object_get(o, key)); }

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

void print_status(json_t* s)
{
    std::cout << "cluster " << json_string_value(json_object_get(s, "cluster")) << ", up "
              << integer(s, "uptime") << " s, " << integer(s, "cycles") << " cycles every "
              << json_number_value(json_object_get(s, "cycle_interval")) << " s, config "
              << json_string_value(json_object_get(s, "config_file")) << " (" << integer(s, "reloads")
              << " reloads, " << integer(s, "failed_reloads") << " refused)\n";
    json_t* snap = json_object_get(s, "snapshot");
    if (json_is_object(snap))
        std::cout << "snapshot seq " << integer(snap, "seq") << ", " << integer(snap, "age") << " s old: "
                  << integer(snap, "pending_jobs") << " pending jobs, " << integer(snap, "running_jobs")
                  << " running, " << integer(snap, "nodes") << " nodes, " << integer(snap, "cloud_nodes_up")
                  << " cloud nodes up\n";
    else
        std::cout << "snapshot: none received yet (is the job_submit/burst plugin loaded?)\n";
    json_t* in = json_object_get(s, "ingest");
    std::cout << "plugin connections: " << integer(in, "open_connections") << " open, " << integer(in, "connections")
              << " total, " << integer(in, "refused_peers") << " refused; messages: " << integer(in, "messages")
              << " accepted, " << integer(in, "bad_messages") << " rejected (" << integer(in, "oversized")
              << " oversized), " << integer(in, "job_ends") << " job ends\n";
    std::cout << "policy chain:";
    json_t* policies = json_object_get(s, "policies");
    for (size_t i = 0; i < json_array_size(policies); ++i)
        std::cout << " " << json_string_value(json_array_get(policies, i));
    if (json_array_size(policies) == 0)
        std::cout << " (none configured)";
    if (!json_is_true(json_object_get(s, "policy_chain_wired")))
        std::cout << " [not wired into this burstd]";
    std::cout << "\n";
    if (!json_is_true(json_object_get(s, "actuator_wired")))
        std::cout << "provider actuator: not wired into this burstd\n";
    json_t* groups = json_object_get(s, "node_groups");
    for (size_t i = 0; i < json_array_size(groups); ++i) {
        json_t* g = json_array_get(groups, i);
        std::cout << "node group " << json_string_value(json_object_get(g, "name")) << ": provider "
                  << json_string_value(json_object_get(g, "provider")) << ", nodes "
                  << json_string_value(json_object_get(g, "nodes")) << ", capacity " << integer(g, "capacity")
                  << ", " << json_number_value(json_object_get(g, "price_per_hour")) << "/hour\n";
        json_t* health = json_object_get(json_object_get(s, "group_health"), json_string_value(json_object_get(g, "name")));
        if (json_is_object(health)) {
            const char* mode = json_string_value(json_object_get(health, "mode"));
            std::cout << "  launches: " << (mode ? mode : "?");
            if (json_t* reason = json_object_get(health, "reason"))
                std::cout << " (" << json_string_value(reason) << ")";
            if (json_object_get(health, "probe_in"))
                std::cout << ", next probe in " << integer(health, "probe_in") << " s";
            std::cout << "; " << integer(health, "capacity_errors") << " capacity errors and "
                      << integer(health, "boot_failures") << " boot failures in a row, opened "
                      << integer(health, "opened") << " times\n";
        }
        json_t* states = json_object_get(json_object_get(s, "cloud_nodes"), json_string_value(json_object_get(g, "name")));
        const char* word;
        json_t* names;
        json_object_foreach(states, word, names)
            std::cout << "  " << word << ": " << json_string_value(names) << "\n";
    }
    json_t* instances = json_object_get(s, "instances");
    if (json_is_array(instances)) {
        std::cout << "instances: " << json_array_size(instances) << " open, " << integer(s, "closed_instances")
                  << " closed, " << integer(s, "provider_work_in_flight") << " provider calls in flight\n";
        for (size_t i = 0; i < json_array_size(instances); ++i) {
            json_t* r = json_array_get(instances, i);
            const char* id = json_string_value(json_object_get(r, "provider_id"));
            std::cout << "  " << json_string_value(json_object_get(r, "node")) << " "
                      << json_string_value(json_object_get(r, "state")) << " " << (id && *id ? id : "-")
                      << " (group " << json_string_value(json_object_get(r, "group")) << ")\n";
        }
    }
    json_t* spend = json_object_get(s, "spend");
    if (json_is_object(spend)) {
        std::cout << "spend since " << local_time(json_number_value(json_object_get(spend, "interval_start")))
                  << " (interval " << json_number_value(json_object_get(spend, "interval")) << " s): "
                  << money(json_number_value(json_object_get(spend, "total"))) << "\n";
        const char* key;
        json_t* amount;
        json_object_foreach(json_object_get(spend, "groups"), key, amount)
            std::cout << "  group " << key << ": " << money(json_number_value(amount)) << "\n";
        json_object_foreach(json_object_get(spend, "accounts"), key, amount)
            std::cout << "  account " << (*key ? key : "(no job: idle or unseen)") << ": "
                      << money(json_number_value(amount)) << "\n";
    }
    json_t* budgets = json_object_get(s, "budgets");
    for (size_t i = 0; i < json_array_size(budgets); ++i) {
        json_t* b = json_array_get(budgets, i);
        const char* account = json_string_value(json_object_get(b, "account"));
        const char* unbounded = json_string_value(json_object_get(b, "unbounded"));
        std::cout << "budget of " << (account && *account ? "account " + std::string(account) : "capacity no job uses")
                  << " (Budget=" << json_string_value(json_object_get(b, "budget")) << "): "
                  << money(json_number_value(json_object_get(b, "spent"))) << " spent + "
                  << money(json_number_value(json_object_get(b, "committed"))) << " committed of "
                  << money(json_number_value(json_object_get(b, "amount"))) << " per "
                  << json_number_value(json_object_get(b, "interval")) << " s"
                  << (unbounded ? std::string("; unbounded: ") + unbounded : std::string()) << "\n";
    }
    json_t* decisions = json_object_get(s, "decisions");
    if (json_is_array(decisions)) {
        std::cout << "recent decisions (" << json_array_size(decisions) << "):\n";
        for (size_t i = 0; i < json_array_size(decisions); ++i) {
            json_t* d = json_array_get(decisions, i);
            json_t* error = json_object_get(d, "error");
            std::cout << "  [" << local_time(json_number_value(json_object_get(d, "time"))) << "] "
                      << json_string_value(json_object_get(d, "action"))
                      << ": " << json_string_value(json_object_get(d, "reason"));
            if (error)
                std::cout << " -- FAILED: " << json_string_value(error);
            std::cout << "\n";
        }
    }
    json_t* notes = json_object_get(s, "notes");
    for (size_t i = 0; i < json_array_size(notes); ++i)
        std::cout << "note: " << json_string_value(json_array_get(notes, i)) << "\n";
}

} // namespace

int main(int argc, char** argv)
{
    const char* env_socket = std::getenv("BURSTCTL_SOCKET");
    std::string socket = env_socket ? env_socket : kDefaultSocket;
    int i = 1;
    if (i + 1 < argc && std::string(argv[i]) == "--socket") {
        socket = argv[i + 1];
        i += 2;
    }
    if (i >= argc) {
        usage(std::cerr);
        return 2;
    }
    std::string command = argv[i++];
    JsonRef request(json_object());
    bool as_json = false;
    std::chrono::milliseconds timeout(1000);
    if (command == "status") {
        if (i < argc && std::string(argv[i]) == "--json") {
            as_json = true;
            ++i;
        }
        timeout = std::chrono::milliseconds(5000);
    } else if (command == "resume" || command == "suspend" || command == "resume-fail") {
        if (i >= argc) {
            std::cerr << "burstctl: " << command << ": expected a hostlist\n";
            return 2;
        }
        json_object_set_new(request.get(), "nodes", json_string(argv[i++]));
        const char* resume_file = std::getenv("SLURM_RESUME_FILE");
        if (command == "resume" && resume_file && *resume_file) {
            json_error_t err;
            JsonRef file(json_load_file(resume_file, 0, &err));
            if (file && json_is_object(file.get()))
                json_object_set(request.get(), "resume_file", file.get());
            else
                std::cerr << "burstctl: warning: SLURM_RESUME_FILE " << resume_file << " ignored: "
                          << (file ? "expected a JSON object" : err.text) << "\n";
        }
    } else if (command == "reset-group") {
        if (i >= argc) {
            std::cerr << "burstctl: reset-group: expected a node group name\n";
            return 2;
        }
        json_object_set_new(request.get(), "group", json_string(argv[i++]));
    } else if (command == "-h" || command == "--help") {
        usage(std::cout);
        return 0;
    } else {
        std::cerr << "burstctl: unknown command \"" << command << "\"\n";
        usage(std::cerr);
        return 2;
    }
    if (i < argc) {
        std::cerr << "burstctl: unexpected argument \"" << argv[i] << "\"\n";
        return 2;
    }
    json_object_set_new(request.get(), "cmd", json_string(command.c_str()));

    burst::ControlExchange exchange = burst::exchange_control(socket, dump(request.get(), JSON_COMPACT), timeout);
    // Slurm does not repeat a ResumeProgram/SuspendProgram call: ride out a
    // burstd restart (systemd brings it back within seconds) instead of
    // losing the request.
    auto deadline = std::chrono::steady_clock::now() + kRestartPatience;
    while ((command == "resume" || command == "suspend" || command == "resume-fail") && !exchange.reply && exchange.not_running &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        exchange = burst::exchange_control(socket, dump(request.get(), JSON_COMPACT), timeout);
    }
    if (!exchange.reply) {
        std::cerr << "burstctl: " << (exchange.not_running ? "burstd is not running: " : "") << exchange.error << "\n";
        return 1;
    }
    json_error_t err;
    JsonRef reply(json_loads(exchange.reply->c_str(), 0, &err));
    if (!reply || !json_is_object(reply.get())) {
        std::cerr << "burstctl: unreadable reply from burstd: " << *exchange.reply << "\n";
        return 1;
    }
    if (!json_is_true(json_object_get(reply.get(), "ok"))) {
        json_t* e = json_object_get(reply.get(), "error");
        std::cerr << "burstctl: " << command << ": " << (json_is_string(e) ? json_string_value(e) : "failed") << "\n";
        return 1;
    }
    if (command == "status") {
        json_t* status = json_object_get(reply.get(), "status");
        if (as_json)
            std::cout << dump(status, JSON_INDENT(2)) << "\n";
        else
            print_status(status);
        return 0;
    }
    json_t* message = json_object_get(reply.get(), "message");
    if (json_is_string(message) && *json_string_value(message))
        std::cout << json_string_value(message) << "\n";
    return 0;
}
