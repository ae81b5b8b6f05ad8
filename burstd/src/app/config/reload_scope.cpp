#include "app/config/reload_scope.hpp"

#include "common/config_values.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

namespace burst {
namespace {

const NodeGroup* find_group(const std::vector<NodeGroup>& groups, const std::string& name)
{
    auto it = std::find_if(groups.begin(), groups.end(), [&](const NodeGroup& g) { return g.name == name; });
    return it == groups.end() ? nullptr : &*it;
}

const ProviderConfig* find_provider(const std::vector<ProviderConfig>& providers, const std::string& name)
{
    auto it = std::find_if(providers.begin(), providers.end(), [&](const ProviderConfig& p) { return p.name == name; });
    return it == providers.end() ? nullptr : &*it;
}

// The burstd.conf keys of a node group that differ, recovery knobs aside.
std::vector<std::string> changed_keys(const NodeGroup& a, const NodeGroup& b)
{
    const std::pair<const char*, std::function<bool(const NodeGroup&, const NodeGroup&)>> keys[] = {
        {"Provider", [](auto& x, auto& y) { return x.provider == y.provider; }},
        {"Nodes", [](auto& x, auto& y) { return x.nodes == y.nodes; }},
        {"Partition", [](auto& x, auto& y) { return x.partition == y.partition; }},
        {"InstanceTypes", [](auto& x, auto& y) { return x.instance_types == y.instance_types; }},
        {"Zones", [](auto& x, auto& y) { return x.zones == y.zones; }},
        {"Cpus", [](auto& x, auto& y) { return x.cpus == y.cpus; }},
        {"MemoryMB", [](auto& x, auto& y) { return x.memory_mb == y.memory_mb; }},
        {"Gres", [](auto& x, auto& y) { return x.gres == y.gres; }},
        {"PricePerHour", [](auto& x, auto& y) { return x.price_per_hour == y.price_per_hour; }},
        {"Billing", [](auto& x, auto& y) { return x.billing == y.billing; }},
        {"MinBilled", [](auto& x, auto& y) { return x.min_billed == y.min_billed; }},
        {"BootTime", [](auto& x, auto& y) { return x.boot_time == y.boot_time; }},
        {"MaxCount", [](auto& x, auto& y) { return x.max_count == y.max_count; }},
        {"Speed", [](auto& x, auto& y) { return x.speed == y.speed; }},
        {"Spot", [](auto& x, auto& y) { return x.spot == y.spot; }},
    };
    std::vector<std::string> changed;
    for (const auto& [key, same] : keys)
        if (!same(a, b))
            changed.push_back(key);
    return changed;
}

const std::string kAfterRestart = " takes effect after a restart";

void keep_node_groups(const BurstdConfig& running, BurstdConfig& next, std::vector<std::string>& held)
{
    for (const auto& g : next.node_groups) {
        const NodeGroup* was = find_group(running.node_groups, g.name);
        if (!was)
            held.push_back("NodeGroup=" + g.name + " is new: it" + kAfterRestart);
        else if (auto keys = changed_keys(*was, g); !keys.empty())
            held.push_back("NodeGroup=" + g.name + ": the change of " + joined(keys) + kAfterRestart);
    }
    for (const auto& g : running.node_groups)
        if (!find_group(next.node_groups, g.name))
            held.push_back("NodeGroup=" + g.name + " was removed: it stays until a restart");

    std::vector<NodeGroup> kept = running.node_groups;
    for (auto& g : kept)
        if (const NodeGroup* now = find_group(next.node_groups, g.name))
            g.recovery = now->recovery;
    next.node_groups = std::move(kept);
    next.node_group_origins = running.node_group_origins;
}

void keep_providers(const BurstdConfig& running, BurstdConfig& next, std::vector<std::string>& held)
{
    for (const auto& p : next.providers) {
        const ProviderConfig* was = find_provider(running.providers, p.name);
        if (!was)
            held.push_back("Provider=" + p.name + " is new: it" + kAfterRestart);
        else if (p.type != was->type || p.credentials_file != was->credentials_file || p.region != was->region ||
                 p.params != was->params || p.retry.attempts != was->retry.attempts ||
                 p.retry.base_delay != was->retry.base_delay || p.retry.max_delay != was->retry.max_delay)
            held.push_back("Provider=" + p.name + ": its change" + kAfterRestart);
    }
    for (const auto& p : running.providers)
        if (!find_provider(next.providers, p.name))
            held.push_back("Provider=" + p.name + " was removed: it stays until a restart");
    next.providers = running.providers;
}

template <typename T>
void keep(const char* key, const T& running, T& next, std::vector<std::string>& held, std::string shown)
{
    if (next == running)
        return;
    held.push_back(std::string(key) + " change to " + shown + kAfterRestart);
    next = running;
}

} // namespace

std::vector<std::string> keep_restart_only_settings(const BurstdConfig& running, BurstdConfig& next)
{
    std::vector<std::string> held;
    keep("SocketPath", running.socket_path, next.socket_path, held, next.socket_path);
    keep("ControlSocket", running.control_socket, next.control_socket, held, next.control_socket);
    keep("MetricsPort", running.metrics_port, next.metrics_port, held, std::to_string(next.metrics_port));
    keep("StateDir", running.state_dir, next.state_dir, held, next.state_dir);
    keep("LedgerPath", running.ledger_path, next.ledger_path, held, next.ledger_path);
    keep("BurstdId", running.burstd_id, next.burstd_id, held, next.burstd_id);
    keep("SlurmConf", running.slurm_conf, next.slurm_conf, held, next.slurm_conf);
    keep("EarlyLaunch", running.early_launch, next.early_launch, held,
         std::to_string(std::lround(next.early_launch)) + " s");
    keep("ReconcileEvery", running.reconcile_every, next.reconcile_every, held,
         std::to_string(next.reconcile_every));
    keep_providers(running, next, held);
    keep_node_groups(running, next, held);
    return held;
}

} // namespace burst
