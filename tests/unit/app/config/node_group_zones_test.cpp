#include "app/config/node_group_zones.hpp"

#include "app/config/config_parser.hpp"
#include "model/clock.hpp"
#include "provider/provider_registry.hpp"

#include <boost/asio/io_context.hpp>

#include <map>
#include <memory>
#include <string>

#include "provider/http/curl_multi.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// What --check-config sees: the parsed file and the providers built from it
// (building sends nothing, so the loop never runs).
struct Built {
    boost::asio::io_context io;
    CurlMulti http{io};
    ManualClock clock{1'700'000'000};
    RequestBudgets budgets;
    ProviderEnvironment env{http, clock, [](Seconds) {}, budgets};
    BurstdConfig config;
    std::map<std::string, std::unique_ptr<Provider>> providers;

    explicit Built(const std::string& text)
    {
        ConfigParseResult parsed = parse_config(text, "burstd.conf");
        if (!parsed.ok())
            FAIL(parsed.errors.front().c_str());
        config = parsed.config;
        for (const auto& p : config.providers)
            providers[p.name] = make_provider(p, config.provider_site(), env);
    }
};

const char* const kGce = "ClusterName=x\n"
                         "Provider=gce Type=gcp Project=p Zone=us-central1-a Template=global/instanceTemplates/t "
                         "TokenSource=metadata\n";

} // namespace

TEST_GROUP(NodeGroupZones){};

TEST(NodeGroupZones, AZoneTheProviderDoesNotHaveIsNamedAtTheNodeGroupLine)
{
    Built b(std::string(kGce) + "NodeGroup=gpu Provider=gce Nodes=g[1-2] Partition=q Cpus=8 PricePerHour=1 "
                                "InstanceTypes=a2-highgpu-1g Zones=us-central1-a,us-central1-f,us-central1-c\n");
    auto errors = node_group_zone_errors(b.config, b.providers);
    LONGS_EQUAL(2, errors.size());
    STRCMP_EQUAL("burstd.conf:3: NodeGroup=gpu: Zones=: zone us-central1-f is not among Provider=gce's "
                 "Zones=us-central1-a",
                 errors[0].c_str());
    STRCMP_CONTAINS("zone us-central1-c is not among", errors[1].c_str());
}

TEST(NodeGroupZones, ZonesAmongTheProvidersOrNoneAtAllPass)
{
    Built b(std::string(kGce) +
            "NodeGroup=a Provider=gce Nodes=a1 Partition=q Cpus=1 PricePerHour=1 InstanceTypes=t Zones=us-central1-a\n"
            "NodeGroup=b Provider=gce Nodes=b1 Partition=q Cpus=1 PricePerHour=1 InstanceTypes=t\n");
    CHECK(node_group_zone_errors(b.config, b.providers).empty());
}

TEST(NodeGroupZones, AGroupWhoseProviderWasNotBuiltIsLeftToThatError)
{
    Built b(std::string(kGce) + "NodeGroup=a Provider=gce Nodes=a1 Partition=q Cpus=1 PricePerHour=1 "
                                "InstanceTypes=t Zones=elsewhere\n");
    b.providers.clear();
    CHECK(node_group_zone_errors(b.config, b.providers).empty());
}
