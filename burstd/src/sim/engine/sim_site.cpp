#include "sim/engine/sim_site.hpp"

#include "sim/engine/simulator.hpp"

#include <cmath>
#include <set>
#include <string>

namespace burst {
namespace {

void validate(const SimConfig& c)
{
    if (c.local_cores == 0)
        throw SimConfigError("local cores must be at least 1");
    if (c.local_node_cores == 0)
        throw SimConfigError("local node cores must be at least 1");
    if (!(c.cycle > 0))
        throw SimConfigError("decision cycle must be > 0 s");
    if (!(c.suspend_time >= 0))
        throw SimConfigError("suspend time must be >= 0 s");
    for (const auto& [group, suspend] : c.group_suspend_time)
        if (!(suspend >= 0))
            throw SimConfigError("node group " + group + ": suspend time must be >= 0 s");
    if (!(c.boot_jitter >= 0 && c.boot_jitter < 1))
        throw SimConfigError("boot jitter must be in [0, 1)");
    for (const auto& [group, jitter] : c.group_boot_jitter)
        if (!(jitter >= 0 && jitter < 1))
            throw SimConfigError("node group " + group + ": boot jitter must be in [0, 1)");
    if (c.bf_max_job_test == 0)
        throw SimConfigError("bf_max_job_test must be at least 1");
    std::set<std::string> names;
    for (const auto& g : c.groups) {
        if (g.name.empty() || !names.insert(g.name).second)
            throw SimConfigError("node group names must be non-empty and unique ('" + g.name + "')");
        if (g.cpus == 0)
            throw SimConfigError("node group " + g.name + ": cpus must be at least 1");
        if (!(g.price_per_hour >= 0) || !(g.boot_time >= 0) || !(g.min_billed >= 0) || !(g.speed > 0))
            throw SimConfigError("node group " + g.name + ": price, boot time and min billed must be >= 0, speed > 0");
        if (!(g.interruptions_per_hour >= 0) || !std::isfinite(g.interruptions_per_hour) ||
            (g.interruptions_per_hour > 0 && !g.spot))
            throw SimConfigError("node group " + g.name + ": interruptions need a spot group and a rate >= 0");
    }
    for (const auto& [name, shortage] : c.shortages) {
        if (!names.count(name))
            throw SimConfigError("capacity shortage for node group " + name + ", which is not configured");
        if (!(shortage.rate >= 0 && shortage.rate <= 1))
            throw SimConfigError("node group " + name + ": stock-out rate must be in [0, 1]");
    }
    std::set<std::string> accounts;
    for (const auto& b : c.budgets) {
        if (b.account.empty() || !accounts.insert(b.account).second)
            throw SimConfigError("budget accounts must be non-empty and have one line each ('" + b.account + "')");
        if (!(b.amount >= 0) || !std::isfinite(b.amount) || !(b.interval > 0) || !std::isfinite(b.interval))
            throw SimConfigError("budget of " + b.account + ": amount must be >= 0 and interval > 0 s");
    }
}

} // namespace

SimConfig replay_site(const SimConfig& config)
{
    validate(config);
    SimConfig site = config;
    for (NodeGroup& group : site.groups) {
        const std::uint32_t count = simulated_node_count(group);
        if (group.nodes.empty())
            group.unlisted_nodes = count;
        else
            group.nodes.resize(count);
        if (group.provider.empty())
            group.provider = "sim";
    }
    return site;
}

} // namespace burst
