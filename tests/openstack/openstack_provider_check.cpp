// Drives the real OpenStackProvider against a real cloud, for the
// integration test (tests/openstack/test_openstack_provider.sh):
//
//   openstack-provider-check [options] launch CLUSTER BURSTD_ID FLAVOR NODE:TOKEN...
//       one line per node: "NODE launched ID ADDRESS" or "NODE error KIND MESSAGE";
//       several nodes are one batch (one POST /servers)
//   openstack-provider-check [options] list CLUSTER BURSTD_ID
//       one line per live server: "NODE ID STATE" (+ " error KIND MESSAGE"); NODE is "-" when none is known
//   openstack-provider-check [options] terminate ID...
//       one line per id: "ID terminated" or "ID error KIND MESSAGE"
//
//   options: --credentials FILE (required), --image ID, --network none|auto|UUID,
//            --region NAME, --interface NAME, --schedule-wait SECONDS,
//            --all-or-nothing yes (the nodes are one job's: all of them or none),
//            --batch-size N (nodes per POST, default 1)
// Exit status: 0 all ok, 1 a provider error, 2 bad usage or credentials.

#include "provider/http/curl_transport.hpp"
#include "provider/openstack/openstack_credentials.hpp"
#include "provider/openstack/openstack_provider.hpp"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace burst;

namespace {

int usage(const std::string& why)
{
    std::cerr << "openstack-provider-check: " << why << "\n"
              << "usage: openstack-provider-check --credentials FILE [--image ID] [--network none|auto|UUID]\n"
              << "         [--region NAME] [--interface NAME] [--schedule-wait SECONDS] [--all-or-nothing yes]\n"
              << "         [--batch-size N]\n"
              << "         launch CLUSTER BURSTD_ID FLAVOR NODE:TOKEN... | list CLUSTER BURSTD_ID | terminate ID...\n";
    return 2;
}

std::string describe(const ProviderError& e)
{
    return "error " + std::string(to_string(e.kind)) + " " + e.message;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    std::string credentials_file;
    OpenStackSettings settings;
    bool all_or_nothing = false;
    size_t i = 0;
    for (; i < args.size() && args[i].rfind("--", 0) == 0; i += 2) {
        if (i + 1 >= args.size())
            return usage(args[i] + " needs a value");
        const std::string& v = args[i + 1];
        if (args[i] == "--credentials")
            credentials_file = v;
        else if (args[i] == "--image")
            settings.image = v;
        else if (args[i] == "--network")
            settings.network = v;
        else if (args[i] == "--region")
            settings.region = v;
        else if (args[i] == "--interface")
            settings.interface = v;
        else if (args[i] == "--batch-size") {
            char* end = nullptr;
            const long n = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end || n < 1)
                return usage("--batch-size: expected a positive number, got '" + v + "'");
            settings.batch_size = static_cast<std::size_t>(n);
        } else if (args[i] == "--all-or-nothing")
            all_or_nothing = v == "yes";
        else if (args[i] == "--schedule-wait") {
            char* end = nullptr;
            settings.schedule_wait = std::strtod(v.c_str(), &end);
            if (v.empty() || *end || settings.schedule_wait < 0)
                return usage("--schedule-wait: expected seconds >= 0, got '" + v + "'");
        } else
            return usage("unknown option " + args[i]);
    }
    if (credentials_file.empty())
        return usage("--credentials is required");
    if (i >= args.size())
        return usage("missing command");
    const std::string command = args[i++];
    const std::vector<std::string> rest(args.begin() + static_cast<long>(i), args.end());

    OpenStackCredentials credentials;
    try {
        credentials = load_openstack_credentials(credentials_file);
    } catch (const std::exception& e) {
        std::cerr << "openstack-provider-check: " << e.what() << "\n";
        return 2;
    }
    CurlTransport transport;
    SystemClock clock;
    OpenStackProvider provider(transport, credentials, settings, clock, [](Seconds s) {
        std::this_thread::sleep_for(std::chrono::duration<double>(s));
    });

    bool failed = false;
    if (command == "launch") {
        if (rest.size() < 4)
            return usage("launch needs CLUSTER BURSTD_ID FLAVOR NODE:TOKEN...");
        if (settings.image.empty())
            return usage("launch needs --image");
        std::vector<LaunchRequest> requests;
        for (size_t n = 3; n < rest.size(); ++n) {
            const auto colon = rest[n].find(':');
            if (colon == std::string::npos || colon == 0 || colon + 1 == rest[n].size())
                return usage("expected NODE:TOKEN, got '" + rest[n] + "'");
            LaunchRequest r;
            r.node = rest[n].substr(0, colon);
            r.idempotency_token = rest[n].substr(colon + 1);
            r.instance_type = rest[2];
            r.tags = {rest[0], r.node, rest[1]};
            r.all_or_nothing = all_or_nothing;
            requests.push_back(r);
        }
        for (const auto& r : provider.launch(requests)) {
            if (r.error) {
                failed = true;
                std::cout << r.node << " " << describe(r.error) << "\n";
            } else {
                std::cout << r.node << " launched " << r.provider_id << " " << (r.address.empty() ? "-" : r.address)
                          << "\n";
            }
        }
    } else if (command == "list") {
        if (rest.size() != 2)
            return usage("list needs CLUSTER BURSTD_ID");
        const ListResult l = provider.list({rest[0], "", rest[1]});
        if (l.error) {
            std::cout << "list " << describe(l.error) << "\n";
            return 1;
        }
        for (const auto& inst : l.instances)
            std::cout << (inst.node.empty() ? "-" : inst.node) << " " << inst.provider_id << " " << inst.state
                      << (inst.error ? " " + describe(inst.error) : "") << "\n";
    } else if (command == "terminate") {
        if (rest.empty())
            return usage("terminate needs server ids");
        const auto errors = provider.terminate(rest);
        for (const auto& id : rest) {
            const auto e = errors.find(id);
            failed = failed || e != errors.end();
            std::cout << id << (e == errors.end() ? " terminated" : " " + describe(e->second)) << "\n";
        }
    } else {
        return usage("unknown command '" + command + "' (known: launch, list, terminate)");
    }
    return failed ? 1 : 0;
}
