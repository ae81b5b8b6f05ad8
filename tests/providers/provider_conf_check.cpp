// Builds one provider exactly as burstd does — burstd.conf parsed by the
// daemon's parser, the section handed to the provider factory, HTTPS through
// a CurlMulti on an io_context thread — and drives it from the shell, for
// tests/providers/test_cloud_tls_server.sh and the OpenStack tests.
//
//   provider-conf-check -f BURSTD_CONF -p PROVIDER [-w WORKERS] COMMAND ...
//   launch CLUSTER BURSTD_ID TYPE NODE:TOKEN...   "NODE launched ID ADDRESS" | "NODE error KIND MESSAGE"
//   list CLUSTER BURSTD_ID                        "NODE ID STATE" [" error KIND MESSAGE"] | "error KIND MESSAGE"
//   terminate ID...                               "ID terminated" | "ID error KIND MESSAGE"
//   resume LEDGER [JOB=NODE,...]... NODE...
//                           burstd's InstanceManager resumes the nodes (of the
//                           conf's NodeGroups on this provider) with a ledger at
//                           LEDGER and no Slurm (-w: its provider workers,
//                           default 1, burstd's 4), JOB=NODE,... standing for
//                           SLURM_RESUME_FILE's jobs; prints what it asked Slurm for
//                           ("slurm ..."), then every ledger record of the nodes:
//                           "NODE TYPE ZONE STATE PROVIDER_ID" (- for empty), and
//                           the placements short of capacity: "short TYPE ZONE"
//   suspend LEDGER NODE...  the same for Slurm powering the nodes down
// A TYPE of "-" leaves the instance type to the provider's default.
// Exit status 2 for bad arguments or configuration, 1 when any operation
// reported an error.

#include "app/config/config_parser.hpp"
#include "app/instances/instance_manager.hpp"
#include "ledger/ledger.hpp"
#include "model/clock.hpp"
#include "provider/http/curl_multi.hpp"
#include "provider/provider_registry.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace burst;

namespace {

int usage(const std::string& why)
{
    std::cerr << "provider-conf-check: " << why << "\n"
              << "usage: provider-conf-check -f BURSTD_CONF -p PROVIDER launch CLUSTER BURSTD_ID TYPE NODE:TOKEN...\n"
                 "       | list CLUSTER BURSTD_ID | terminate ID... | resume LEDGER [JOB=NODE,...]... NODE...\n"
                 "       | suspend LEDGER NODE...\n";
    return 2;
}

std::string describe(const ProviderError& e)
{
    std::string out = "error " + std::string(to_string(e.kind)) + " " + e.message;
    if (e.retry_after > 0)
        out += " (retry after " + std::to_string(static_cast<long>(e.retry_after)) + " s)";
    return out;
}

std::string dash(const std::string& s) { return s.empty() ? "-" : s; }

// Slurm as far as a resume touches it: every call is printed.
class PrintingActuator final : public SlurmActuator {
public:
    ActuatorError set_job_partitions(JobId, const std::vector<std::string>&, std::string_view) override { return {}; }
    ActuatorError set_job_cpus(const JobCpuChange&, std::string_view) override { return {}; }
    ActuatorError set_job_why(JobId, std::string_view) override { return {}; }
    ActuatorError submit_placeholder(const PlaceholderJob&, std::string_view, JobId&) override
    {
        return {"placeholders are not submitted here"};
    }
    ActuatorError cancel_job(JobId, std::string_view) override { return {"jobs are not cancelled here"}; }
    ActuatorError hold_job(JobId, std::string_view) override { return {"jobs are not held here"}; }
    ActuatorError requeue_job(JobId, std::string_view) override { return {"jobs are not requeued here"}; }
    ActuatorError place_job(const JobPlacement&, std::string_view) override { return {"jobs are not placed here"}; }
    ActuatorError power(const std::vector<std::string>& nodes, PowerAction action, std::string_view) override
    {
        for (const auto& n : nodes)
            say("power " + std::string(to_string(action)) + " " + n);
        return {};
    }
    ActuatorError set_node_instance(const NodeInstance& instance, std::string_view) override
    {
        if (!instance.address.empty())
            say("address " + instance.node + " " + instance.address);
        return {};
    }
    ActuatorError hand_back_node(const std::string& node, std::string_view, const std::vector<JobId>& meant_for,
                                 std::vector<JobId>&) override
    {
        std::string jobs;
        for (JobId id : meant_for)
            jobs += " " + std::to_string(id);
        say("hand-back " + node + jobs);
        return {};
    }
    ActuatorError drain(const std::vector<std::string>&, std::string_view) override { return {}; }
    ActuatorError undrain_own(const std::vector<std::string>&, std::string_view, std::vector<std::string>&) override
    {
        return {};
    }

private:
    void say(const std::string& what)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        std::cout << "slurm " << what << "\n";
    }
    std::mutex mutex_;
};

// The io_context thread burstd's main loop would be.
class Loop {
public:
    Loop() : work_(io_.get_executor()), http_(io_), thread_([this] { io_.run(); }) {}
    ~Loop()
    {
        work_.reset();
        io_.stop();
        thread_.join();
        http_.shutdown();
    }
    CurlMulti& http() { return http_; }

private:
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
    CurlMulti http_;
    std::thread thread_;
};

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    std::string conf, name, workers = "1";
    std::size_t i = 0;
    for (; i + 1 < args.size() && (args[i] == "-f" || args[i] == "-p" || args[i] == "-w"); i += 2)
        (args[i] == "-f" ? conf : args[i] == "-p" ? name : workers) = args[i + 1];
    if (conf.empty() || name.empty() || i >= args.size())
        return usage("-f, -p and a command are required");
    const std::string command = args[i++];
    const std::vector<std::string> rest(args.begin() + static_cast<long>(i), args.end());

    ConfigParseResult loaded = load_config(conf);
    for (const auto& e : loaded.errors)
        std::cerr << e << "\n";
    if (!loaded.ok())
        return 2;
    const ProviderConfig* section = loaded.config.provider(name);
    if (!section)
        return usage("no Provider=" + name + " in " + conf);

    Loop loop;
    SystemClock clock;
    RequestBudgets budgets;
    const ProviderEnvironment env{
        loop.http(), clock, [](Seconds s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); },
        budgets};
    std::unique_ptr<Provider> provider;
    try {
        provider = make_provider(*section, loaded.config.provider_site(), env);
    } catch (const ProviderConfigError& e) {
        std::cerr << e.what() << "\n";
        return 2;
    }

    bool failed = false;
    if (command == "launch") {
        if (rest.size() < 4)
            return usage("launch CLUSTER BURSTD_ID TYPE NODE:TOKEN...");
        std::vector<LaunchRequest> requests;
        for (std::size_t a = 3; a < rest.size(); ++a) {
            const auto colon = rest[a].find(':');
            if (colon == std::string::npos)
                return usage("expected NODE:TOKEN, got '" + rest[a] + "'");
            LaunchRequest r;
            r.node = rest[a].substr(0, colon);
            r.idempotency_token = rest[a].substr(colon + 1);
            r.instance_type = rest[2] == "-" ? "" : rest[2];
            r.tags = {rest[0], r.node, rest[1]};
            requests.push_back(r);
        }
        for (const auto& r : provider->launch(requests)) {
            failed = failed || r.error;
            std::cout << r.node << " " << (r.error ? describe(r.error) : "launched " + r.provider_id + " " + r.address)
                      << "\n";
        }
    } else if (command == "list") {
        if (rest.size() != 2)
            return usage("list CLUSTER BURSTD_ID");
        const ListResult r = provider->list({rest[0], "", rest[1]});
        if (r.error) {
            std::cout << describe(r.error) << "\n";
            return 1;
        }
        for (const auto& inst : r.instances)
            std::cout << (inst.node.empty() ? "-" : inst.node) << " " << inst.provider_id << " " << inst.state
                      << (inst.error ? " " + describe(inst.error) : "") << "\n";
    } else if (command == "terminate") {
        if (rest.empty())
            return usage("terminate ID...");
        const auto errors = provider->terminate(rest);
        for (const auto& id : rest) {
            const auto e = errors.find(id);
            failed = failed || e != errors.end();
            std::cout << id << " " << (e == errors.end() ? "terminated" : describe(e->second)) << "\n";
        }
    } else if (command == "resume" || command == "suspend") {
        if (rest.size() < 2)
            return usage(command == "resume" ? "resume LEDGER [JOB=NODE,...]... NODE..." : "suspend LEDGER NODE...");
        Ledger ledger(rest[0]);
        PrintingActuator slurm;
        std::ostringstream log_text;
        Logger log(log_text, LogLevel::Info, false);
        InstanceManagerSettings settings;
        settings.owner = {loaded.config.cluster_name, "", loaded.config.burstd_id};
        for (const auto& g : loaded.config.node_groups)
            if (g.provider == name)
                settings.groups.push_back(g);
        settings.workers = std::size_t(std::max(1, std::atoi(workers.c_str())));
        std::map<std::string, std::unique_ptr<Provider>> providers;
        providers[name] = std::move(provider);
        std::vector<std::string> nodes;
        std::map<JobId, std::vector<std::string>> jobs;
        for (auto a = rest.begin() + 1; a != rest.end(); ++a) {
            const auto equals = a->find('=');
            if (equals == std::string::npos) {
                nodes.push_back(*a);
                continue;
            }
            std::vector<std::string>& of_job = jobs[JobId(std::stoul(a->substr(0, equals)))];
            std::istringstream names(a->substr(equals + 1));
            for (std::string n; std::getline(names, n, ',');)
                of_job.push_back(n);
        }
        try {
            InstanceManager manager(std::move(providers), ledger, slurm, clock, log, settings);
            manager.request(command == "resume" ? PowerRequestKind::Resume : PowerRequestKind::Suspend, nodes, jobs);
            while (manager.busy() > 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            for (const auto& node : nodes) {
                const auto records = ledger.for_node(node);
                failed = failed || records.empty() || records.back().state == InstanceState::Failed;
                for (const auto& r : records)
                    std::cout << r.node << " " << dash(r.instance_type) << " " << dash(r.zone) << " "
                              << to_string(r.state) << " " << dash(r.provider_id) << "\n";
            }
            for (const auto& v : manager.placements().views(clock.now()))
                std::cout << "short " << dash(v.instance_type) << " " << dash(v.zone) << "\n";
        } catch (const std::invalid_argument& e) {
            std::cerr << e.what() << "\n";
            return 2;
        }
        std::cerr << log_text.str();
    } else {
        return usage("unknown command '" + command + "' (known: launch, list, terminate, resume, suspend)");
    }
    return failed ? 1 : 0;
}
