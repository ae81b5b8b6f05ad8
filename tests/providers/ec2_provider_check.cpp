// Drives provider "aws" (Ec2Provider over Ec2Client and the libcurl
// transport, TLS peers verified) from the shell, for
// tests/providers/test_ec2_tls_server.sh.  Credentials come from
// AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY only: the full chain would also ask
// instance metadata, which is not on loopback.
//
//   ec2-provider-check --endpoint URL --region R [--ca-file PEM]
//       [--subnet S]... [--fallback-type T]... [--spot] [--all-or-nothing] COMMAND ...
//   launch CLUSTER BURSTD_ID TYPE NODE:TOKEN...   "NODE launched ID ADDRESS" | "NODE error KIND MESSAGE"
//   list CLUSTER BURSTD_ID                        "NODE ID STATE"
//   terminate ID...                               "ID terminated" | "ID error KIND MESSAGE"
// Exit status 2 for bad arguments, 1 when any operation reported an error.

#include "model/clock.hpp"
#include "provider/aws/credential_chain.hpp"
#include "provider/aws/ec2_client.hpp"
#include "provider/aws/ec2_provider.hpp"
#include "provider/aws/environment_credentials.hpp"
#include "provider/http/curl_transport.hpp"

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace burst;

namespace {

[[noreturn]] void usage(const std::string& why)
{
    std::cerr << "ec2-provider-check: " << why << "\n";
    std::exit(2);
}

} // namespace

int main(int argc, char** argv)
{
    std::string endpoint, region, ca_file;
    bool spot = false;
    bool all_or_nothing = false; // the launch's nodes are one job's
    Ec2ProviderConfig config;
    config.launch_template = {"lt-0123456789abcdef0", "", ""};
    int i = 1;
    for (; i < argc && std::string(argv[i]).rfind("--", 0) == 0; ++i) {
        const std::string opt = argv[i];
        if (opt == "--spot") {
            spot = true;
            continue;
        }
        if (opt == "--all-or-nothing") {
            all_or_nothing = true;
            continue;
        }
        if (i + 1 >= argc)
            usage(opt + " needs a value");
        const std::string value = argv[++i];
        if (opt == "--endpoint")
            endpoint = value;
        else if (opt == "--region")
            region = value;
        else if (opt == "--ca-file")
            ca_file = value;
        else if (opt == "--subnet")
            config.subnet_ids.push_back(value);
        else if (opt == "--fallback-type")
            config.fallback_instance_types.push_back(value);
        else
            usage("unknown option " + opt);
    }
    if (endpoint.empty() || region.empty() || i >= argc)
        usage("usage: ec2-provider-check --endpoint URL --region R [--ca-file PEM] COMMAND ...");
    const std::string command = argv[i++];
    std::vector<std::string> args(argv + i, argv + argc);

    SystemClock clock;
    std::vector<std::unique_ptr<CredentialSource>> sources;
    sources.push_back(std::make_unique<EnvironmentCredentials>(process_environment()));
    CredentialChain credentials(std::move(sources), clock);
    CurlTransport transport(CurlTimeouts{5, 20}, ca_file);
    Ec2Client client(transport, credentials, clock, region, endpoint);
    Ec2Provider provider(client, config);

    bool failed = false;
    if (command == "launch") {
        if (args.size() < 4)
            usage("launch CLUSTER BURSTD_ID TYPE NODE:TOKEN...");
        std::vector<LaunchRequest> requests;
        for (size_t a = 3; a < args.size(); ++a) {
            const auto colon = args[a].find(':');
            if (colon == std::string::npos)
                usage("expected NODE:TOKEN, got '" + args[a] + "'");
            LaunchRequest r;
            r.node = args[a].substr(0, colon);
            r.idempotency_token = args[a].substr(colon + 1);
            r.instance_type = args[2];
            r.tags = {args[0], r.node, args[1]};
            r.spot = spot;
            r.all_or_nothing = all_or_nothing;
            requests.push_back(r);
        }
        for (const auto& r : provider.launch(requests)) {
            if (r.error) {
                failed = true;
                std::cout << r.node << " error " << to_string(r.error.kind) << " " << r.error.message << "\n";
            } else {
                std::cout << r.node << " launched " << r.provider_id << " " << r.address << "\n";
            }
        }
    } else if (command == "list") {
        if (args.size() != 2)
            usage("list CLUSTER BURSTD_ID");
        ListResult r = provider.list({args[0], "", args[1]});
        if (r.error) {
            std::cout << "error " << to_string(r.error.kind) << " " << r.error.message << "\n";
            return 1;
        }
        for (const auto& inst : r.instances)
            std::cout << (inst.node.empty() ? "-" : inst.node) << " " << inst.provider_id << " " << inst.state << "\n";
    } else if (command == "terminate") {
        if (args.empty())
            usage("terminate ID...");
        auto errors = provider.terminate(args);
        for (const auto& id : args) {
            auto e = errors.find(id);
            if (e == errors.end()) {
                std::cout << id << " terminated\n";
            } else {
                failed = true;
                std::cout << id << " error " << to_string(e->second.kind) << " " << e->second.message << "\n";
            }
        }
    } else {
        usage("unknown command '" + command + "' (known: launch, list, terminate)");
    }
    return failed ? 1 : 0;
}
