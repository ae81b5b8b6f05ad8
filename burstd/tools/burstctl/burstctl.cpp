// burstctl: talks to burstd over its control socket.  Slurm runs it as
// ResumeProgram/SuspendProgram/ResumeFailProgram; admins run "burstctl status".
// See burstctl(1).

#include "app/control/control_client.hpp"
#include "app/control/job_explanation.hpp"
#include "app/control/status_text.hpp"
#include "common/json_ref.hpp"

#include <jansson.h>

#include <chrono>
#include <cstdlib>
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
           "       burstctl [--socket PATH] explain JOBID [--json]\n"
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
    } else if (command == "explain") {
        char* end = nullptr;
        const unsigned long long id = i < argc ? std::strtoull(argv[i], &end, 10) : 0;
        if (i >= argc || !*argv[i] || *end || id == 0 || id > 4294967295ULL) {
            std::cerr << "burstctl: explain: expected a job id\n";
            return 2;
        }
        json_object_set_new(request.get(), "job", json_integer(json_int_t(id)));
        ++i;
        if (i < argc && std::string(argv[i]) == "--json") {
            as_json = true;
            ++i;
        }
        timeout = std::chrono::milliseconds(5000);
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
            burst::write_status_text(std::cout, status);
        return 0;
    }
    if (command == "explain") {
        json_t* explanation = json_object_get(reply.get(), "explanation");
        if (as_json)
            std::cout << dump(explanation, JSON_INDENT(2)) << "\n";
        else
            burst::write_explanation_text(std::cout, explanation);
        return 0;
    }
    json_t* message = json_object_get(reply.get(), "message");
    if (json_is_string(message) && *json_string_value(message))
        std::cout << json_string_value(message) << "\n";
    return 0;
}
