// Builds and signs EC2 Query API requests exactly as burstd's Ec2Client does,
// and prints them instead of sending them, so tests/providers/aws-sdk-oracle
// can hold them against the official AWS SDK for JavaScript.  Credentials come
// from the environment through the real credential source; the clock is fixed
// by --time.
//
//   ec2-sign-check --time UNIX --region R --endpoint URL run-instances
//       --lt-id ID --lt-version V --type T [--subnet S] [--spot]
//       --node N --cluster C --burstd-id B --token K
//   ec2-sign-check ... describe-instances --cluster C --burstd-id B [--next-token T]
//   ec2-sign-check ... terminate-instances ID...
//   ec2-sign-check ... create-fleet --lt-id ID --lt-version V --type T... [--subnet S...]
//       --capacity N [--min N] [--spot] --cluster C --burstd-id B [--node N] --token K
//   ec2-sign-check --time UNIX --region R resign FILE
//       re-signs a captured request over exactly the headers its own
//       Authorization lists (x-amz-content-sha256 included when listed) and
//       prints our Authorization header.
// Exit status 2 for bad arguments, 1 for a request our builders reject.

#include "model/clock.hpp"
#include "provider/aws/credential_chain.hpp"
#include "provider/aws/ec2_client.hpp"
#include "provider/aws/ec2_query.hpp"
#include "provider/aws/environment_credentials.hpp"
#include "provider/aws/sigv4_signer.hpp"
#include "provider/http/http_request_parser.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace burst;

namespace {

[[noreturn]] void usage(const std::string& why)
{
    std::cerr << "ec2-sign-check: " << why << "\n";
    std::exit(2);
}

// Keeps the request it is given and answers 200, so Ec2Client signs and
// "sends" exactly what it would put on the wire.
class RecordingTransport final : public HttpTransport {
public:
    HttpResponse perform(const HttpRequest& request) override
    {
        sent.push_back(request);
        HttpResponse r;
        r.status = 200;
        r.body = "<ok/>";
        return r;
    }
    std::vector<HttpRequest> sent;
};

struct Args {
    std::map<std::string, std::vector<std::string>> options; // --name -> values
    std::vector<std::string> positional;
    std::string one(const std::string& name) const
    {
        auto it = options.find(name);
        if (it == options.end() || it->second.size() != 1)
            usage("expected exactly one --" + name);
        return it->second.front();
    }
    std::string optional(const std::string& name) const
    {
        auto it = options.find(name);
        return it == options.end() ? std::string() : it->second.front();
    }
    bool flag(const std::string& name) const { return options.count(name) != 0; }
};

Args parse_args(int argc, char** argv, int from)
{
    static const char* flags[] = {"spot"};
    Args a;
    for (int i = from; i < argc; ++i) {
        std::string s = argv[i];
        if (s.rfind("--", 0) != 0) {
            a.positional.push_back(s);
            continue;
        }
        const std::string name = s.substr(2);
        bool is_flag = false;
        for (const char* f : flags)
            is_flag = is_flag || name == f;
        if (is_flag) {
            a.options[name].emplace_back();
            continue;
        }
        if (i + 1 >= argc)
            usage("--" + name + " needs a value");
        a.options[name].push_back(argv[++i]);
    }
    return a;
}

Time parse_time(const std::string& s)
{
    char* end = nullptr;
    const long long t = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || t <= 0)
        usage("--time: expected a positive Unix time, got '" + s + "'");
    return static_cast<Time>(t);
}

Ec2Params build(const std::string& command, const Args& a)
{
    if (command == "run-instances") {
        RunInstancesSpec spec;
        spec.launch_template = {a.optional("lt-id"), a.optional("lt-name"), a.optional("lt-version")};
        spec.instance_type = a.one("type");
        spec.subnet_id = a.optional("subnet");
        spec.spot = a.flag("spot");
        spec.node = a.one("node");
        spec.tags = {a.one("cluster"), spec.node, a.one("burstd-id")};
        spec.client_token = a.one("token");
        return run_instances_params(spec);
    }
    if (command == "describe-instances")
        return describe_instances_params({a.one("cluster"), "", a.one("burstd-id")}, a.optional("next-token"));
    if (command == "terminate-instances") {
        auto batches = terminate_instances_params(a.positional);
        if (batches.size() != 1)
            usage("terminate-instances: give 1..1000 instance ids");
        return batches.front();
    }
    if (command == "create-fleet") {
        CreateFleetSpec spec;
        spec.launch_template = {a.optional("lt-id"), a.optional("lt-name"), a.optional("lt-version")};
        if (auto it = a.options.find("type"); it != a.options.end())
            spec.instance_types = it->second;
        if (auto it = a.options.find("subnet"); it != a.options.end())
            spec.subnet_ids = it->second;
        spec.target_capacity = std::atoi(a.one("capacity").c_str());
        spec.min_target_capacity = a.flag("min") ? std::atoi(a.one("min").c_str()) : 0;
        spec.spot = a.flag("spot");
        spec.tags = {a.one("cluster"), a.optional("node"), a.one("burstd-id")};
        spec.client_token = a.one("token");
        return create_fleet_params(spec);
    }
    usage("unknown command '" + command + "'");
}

// The header names listed in "SignedHeaders=a;b;c" of an Authorization value.
std::vector<std::string> signed_headers(const std::string& authorization)
{
    const std::string key = "SignedHeaders=";
    const auto start = authorization.find(key);
    if (start == std::string::npos)
        usage("captured request: Authorization has no SignedHeaders");
    const auto end = authorization.find(',', start);
    std::stringstream list(authorization.substr(start + key.size(), end - start - key.size()));
    std::vector<std::string> names;
    for (std::string n; std::getline(list, n, ';');)
        names.push_back(n);
    return names;
}

int resign(const std::string& file, Time now, const std::string& region)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        usage("cannot read " + file);
    std::stringstream text;
    text << in.rdbuf();
    HttpRequest captured = parse_http_request(text.str(), file);
    const std::vector<std::string> names = signed_headers(captured.header("Authorization"));
    bool sign_body = false;
    HttpRequest req = captured;
    req.headers.clear();
    for (const auto& name : names) {
        if (name == "x-amz-content-sha256") {
            sign_body = true; // our signer adds it from the body
            continue;
        }
        if (name == "x-amz-date")
            continue; // our signer adds it from the clock
        bool found = false;
        for (const auto& h : captured.headers)
            if (header_name_equals(h.name, name)) {
                req.headers.push_back(h);
                found = true;
            }
        if (!found)
            usage(file + ": signed header '" + name + "' is not in the request");
    }
    EnvironmentCredentials env(process_environment());
    auto creds = env.load();
    if (!creds)
        usage("AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY are not set");
    SigV4Signer signer(SigV4Options{region, "ec2", true, sign_body, false});
    signer.sign(req, *creds, now);
    std::cout << req.header("Authorization") << "\n";
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2)
        usage("usage: ec2-sign-check --time UNIX --region R [--endpoint URL] COMMAND ...");
    int i = 1;
    std::map<std::string, std::string> global;
    while (i + 1 < argc && std::string(argv[i]).rfind("--", 0) == 0) {
        global[std::string(argv[i]).substr(2)] = argv[i + 1];
        i += 2;
    }
    if (i >= argc)
        usage("no command");
    const std::string command = argv[i];
    if (!global.count("time") || !global.count("region"))
        usage("--time and --region are required");
    const Time now = parse_time(global["time"]);
    const Args args = parse_args(argc, argv, i + 1);
    try {
        if (command == "resign") {
            if (args.positional.size() != 1)
                usage("resign: expected one FILE");
            return resign(args.positional.front(), now, global["region"]);
        }
        if (!global.count("endpoint"))
            usage("--endpoint is required");
        Ec2Params params = build(command, args);
        ManualClock clock(now);
        std::vector<std::unique_ptr<CredentialSource>> sources;
        sources.push_back(std::make_unique<EnvironmentCredentials>(process_environment()));
        CredentialChain chain(std::move(sources), clock);
        RecordingTransport transport;
        Ec2Client client(transport, chain, clock, global["region"], global["endpoint"]);
        Ec2Reply reply = client.call(params);
        if (reply.error || transport.sent.size() != 1) {
            std::cerr << "ec2-sign-check: " << reply.error.message << "\n";
            return 1;
        }
        std::cout << to_text(transport.sent.front());
        return 0;
    } catch (const Ec2RequestError& e) {
        std::cerr << "ec2-sign-check: " << e.what() << "\n";
        return 1;
    } catch (const HttpParseError& e) {
        std::cerr << "ec2-sign-check: " << e.what() << "\n";
        return 2;
    }
}
