#include "app/config/reload_scope.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

BurstdConfig running_config()
{
    BurstdConfig c;
    c.cluster_name = "lab";
    ProviderConfig p;
    p.name = "box";
    p.type = "openstack";
    p.region = "RegionOne";
    p.params["Image"] = "rocky9";
    c.providers.push_back(p);
    NodeGroup g;
    g.name = "dev";
    g.provider = "box";
    g.nodes = {"c1", "c2"};
    g.zones = {"az1", "az2"};
    g.cpus = 4;
    g.price_per_hour = 0.2;
    c.node_groups.push_back(g);
    c.node_group_origins.push_back("burstd.conf:4");
    return c;
}

bool said(const std::vector<std::string>& held, const std::string& text)
{
    return std::find(held.begin(), held.end(), text) != held.end();
}

} // namespace

TEST_GROUP(ReloadScope){};

TEST(ReloadScope, AnUnchangedFileHoldsNothingBack)
{
    const BurstdConfig running = running_config();
    BurstdConfig next = running_config();
    CHECK_TRUE(keep_restart_only_settings(running, next).empty());
}

TEST(ReloadScope, NodeGroupChangesAreNamedAndHeldBackButRecoveryKnobsApply)
{
    const BurstdConfig running = running_config();
    BurstdConfig next = running_config();
    next.node_groups[0].zones = {"az2"};
    next.node_groups[0].price_per_hour = 0.3;
    next.node_groups[0].recovery.cool_down = 5;
    next.node_groups[0].recovery.capacity_errors = 9;
    const auto held = keep_restart_only_settings(running, next);
    LONGS_EQUAL(1, held.size());
    STRCMP_EQUAL("NodeGroup=dev: the change of Zones, PricePerHour takes effect after a restart", held[0].c_str());
    CHECK_TRUE(next.node_groups[0].zones == running.node_groups[0].zones);
    DOUBLES_EQUAL(0.2, next.node_groups[0].price_per_hour, 0);
    DOUBLES_EQUAL(5, next.node_groups[0].recovery.cool_down, 0);
    LONGS_EQUAL(9, next.node_groups[0].recovery.capacity_errors);
}

TEST(ReloadScope, AddedAndRemovedGroupsAndProvidersWaitForARestart)
{
    const BurstdConfig running = running_config();
    BurstdConfig next = running_config();
    next.node_groups[0].name = "prod";
    next.providers[0].name = "cloud2";
    next.node_groups[0].provider = "cloud2";
    const auto held = keep_restart_only_settings(running, next);
    CHECK_TRUE(said(held, "NodeGroup=prod is new: it takes effect after a restart"));
    CHECK_TRUE(said(held, "NodeGroup=dev was removed: it stays until a restart"));
    CHECK_TRUE(said(held, "Provider=cloud2 is new: it takes effect after a restart"));
    CHECK_TRUE(said(held, "Provider=box was removed: it stays until a restart"));
    LONGS_EQUAL(1, next.node_groups.size());
    STRCMP_EQUAL("dev", next.node_groups[0].name.c_str());
    STRCMP_EQUAL("box", next.providers[0].name.c_str());
    STRCMP_EQUAL("burstd.conf:4", next.node_group_origins[0].c_str());
}

TEST(ReloadScope, ProviderKeysAndDaemonPathsWaitForARestartWhileOtherSettingsApply)
{
    const BurstdConfig running = running_config();
    BurstdConfig next = running_config();
    next.providers[0].params["Image"] = "rocky10";
    next.socket_path = "/run/other.sock";
    next.early_launch = 0;
    next.cycle_interval = 5;
    next.log_level = LogLevel::Debug;
    const auto held = keep_restart_only_settings(running, next);
    LONGS_EQUAL(3, held.size());
    CHECK_TRUE(said(held, "Provider=box: its change takes effect after a restart"));
    CHECK_TRUE(said(held, "SocketPath change to /run/other.sock takes effect after a restart"));
    CHECK_TRUE(said(held, "EarlyLaunch change to 0 s takes effect after a restart"));
    STRCMP_EQUAL("rocky9", next.providers[0].params.at("Image").c_str());
    STRCMP_EQUAL(running.socket_path.c_str(), next.socket_path.c_str());
    DOUBLES_EQUAL(running.early_launch, next.early_launch, 0);
    DOUBLES_EQUAL(5, next.cycle_interval, 0);
    CHECK_TRUE(next.log_level == LogLevel::Debug);
}
