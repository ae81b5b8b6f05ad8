#pragma once
// Builds small ClusterStates for policy tests, and reads their decisions.

#include "model/cluster_state.hpp"
#include "policy/decision.hpp"

#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace burst::test {

class StateBuilder {
public:
    StateBuilder& local(const std::string& name, std::uint32_t cpus, std::uint32_t alloc)
    {
        Node n;
        n.name = name;
        n.cpus = cpus;
        n.alloc_cpus = alloc;
        n.base = alloc == 0 ? NodeBaseState::Idle : NodeBaseState::Mixed;
        state.snapshot.nodes.push_back(n);
        return *this;
    }
    // A group of `count` powered-down nodes of `cpus` cores named <name>-<i>.
    StateBuilder& group(const std::string& name, std::uint32_t cpus, std::uint32_t count, double price,
                        double boot = 100)
    {
        NodeGroup g;
        g.name = name;
        g.cpus = cpus;
        g.price_per_hour = price;
        g.boot_time = boot;
        for (std::uint32_t i = 1; i <= count; ++i) {
            Node n;
            n.name = name + "-" + std::to_string(i);
            n.cpus = cpus;
            n.flags = kNodeCloud | kNodePoweredDown;
            n.base = NodeBaseState::Idle;
            g.nodes.push_back(n.name);
            state.snapshot.nodes.push_back(n);
        }
        state.groups.push_back(g);
        return *this;
    }
    Node& node(const std::string& name)
    {
        for (auto& n : state.snapshot.nodes)
            if (n.name == name)
                return n;
        throw std::runtime_error("no node " + name);
    }
    // Power a cloud node up (idle) with `alloc` cores in use.
    StateBuilder& up(const std::string& name, std::uint32_t alloc = 0)
    {
        Node& n = node(name);
        n.flags = kNodeCloud;
        n.alloc_cpus = alloc;
        return *this;
    }
    StateBuilder& pending(JobId id, std::uint32_t cpus, BurstOption burst = BurstOption::Allow,
                          const std::string& category = "c", Seconds limit = 0)
    {
        Job j;
        j.id = id;
        j.cpus = cpus;
        j.burst = burst;
        j.category = category;
        j.time_limit = limit;
        j.priority = 1000 - id;
        j.submit_time = id;
        j.partitions = {"local"};
        state.snapshot.jobs.push_back(j);
        return *this;
    }
    StateBuilder& running(JobId id, std::uint32_t cpus, Time start, const std::string& category = "c",
                          Seconds limit = 0)
    {
        Job j;
        j.id = id;
        j.cpus = cpus;
        j.state = JobState::Running;
        j.start_time = start;
        j.category = category;
        j.time_limit = limit;
        j.partitions = {"local"};
        state.snapshot.jobs.push_back(j);
        return *this;
    }

    // A boot of `group` that took `boot` seconds, its instance closed since
    // (the ledger keeps it): what the policies measure boot times from.
    StateBuilder& booted_once(const std::string& group, Seconds boot)
    {
        state.boots.push_back(NodeBoot{group, 1, 1 + boot});
        return *this;
    }

    ClusterState state;
};

// A full local node of 8 cores, and group "aws": 4 powered-down nodes of 8
// cores that boot in 100 s (the warm pool's tests).
inline StateBuilder aws_site()
{
    StateBuilder b;
    b.local("n1", 8, 8).group("aws", 8, 4, 1.0, 100);
    return b;
}

// A quiet site: local work running, a group of two 4-core nodes all
// powered down, nothing waiting (SiteActivity says neither).
inline StateBuilder quiet_site()
{
    StateBuilder b;
    b.local("n1", 8, 8).group("g", 4, 2, 1.0);
    b.running(1, 8, 0);
    return b;
}

// A decision's actions of one kind, in order.
template <class T>
std::vector<T> actions(const Decision& d)
{
    std::vector<T> out;
    for (const auto& a : d.actions)
        if (auto x = std::get_if<T>(&a.what))
            out.push_back(*x);
    return out;
}

inline std::vector<RouteToCloud> routes(const Decision& d) { return actions<RouteToCloud>(d); }

} // namespace burst::test
