#pragma once
// What a policy asks for in one cycle.  Every action carries the reason shown
// to sysadmins (burstctl status, logs) and users (the job's comment/reason).
// burstd's actuator applies actions through Slurm; burstsim applies them to its
// simulated site.

#include "model/clock.hpp"
#include "model/job.hpp"

#include <cstdint>
#include <limits>
#include <string_view>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace burst {

// Let a pending job run on a node group's nodes (extend its partition list).
struct RouteToCloud {
    JobId job = 0;
    std::string group;
};

// Take a pending job's route to a node group away again (the group may not
// launch, and has no room for it): it keeps its other partitions.
struct UnrouteJob {
    JobId job = 0;
    std::string group;
};

// Bring this many powered-down nodes of a group up ahead of demand.  The
// actuator picks node names; Slurm then calls ResumeProgram for them.
struct HireNodes {
    std::string group;
    std::uint32_t count = 0;
};

// Power these cloud nodes down (they should be idle or draining).
struct ReleaseNodes {
    std::vector<std::string> nodes;
    bool drain_first = true; // POWER_DOWN_ASAP: let running work finish
};

// Give a pending job a thread count (cpus per task, and total cpus).
struct SetJobThreads {
    JobId job = 0;
    std::uint32_t cpus_per_task = 1;
    std::uint32_t cpus = 1;
};

// Keep `count` nodes of a group powered on, real work's included: burstd
// holds the ones real work leaves with placeholder jobs at the lowest
// priority, which it cancels for real jobs (app/warm/placeholder_pool.hpp).
struct KeepPlaceholders {
    std::string group;
    std::uint32_t count = 0;
};

using ActionKind =
    std::variant<RouteToCloud, UnrouteJob, HireNodes, ReleaseNodes, SetJobThreads, KeepPlaceholders>;

struct Action {
    ActionKind what;
    std::string reason;
};

// One word per kind of action, for counts in status and metrics.
inline const char* action_kind(const Action& action)
{
    return std::visit(
        [](const auto& what) {
            using T = std::decay_t<decltype(what)>;
            if constexpr (std::is_same_v<T, RouteToCloud>)
                return "route";
            else if constexpr (std::is_same_v<T, UnrouteJob>)
                return "unroute";
            else if constexpr (std::is_same_v<T, HireNodes>)
                return "hire";
            else if constexpr (std::is_same_v<T, ReleaseNodes>)
                return "release";
            else if constexpr (std::is_same_v<T, SetJobThreads>)
                return "threads";
            else
                return "placeholders";
        },
        action.what);
}

// What the action does, in the words logs and burstsim use: "route job 12
// to group aws", "hire 2 node(s) of aws".
std::string action_text(const Action& action);

// What a policy concluded about one pending job it weighed, in numbers, for
// burstctl explain.  NaN where the policy does not weigh that quantity.
struct JobVerdict {
    JobId job = 0;
    bool burst = false;     // routed to `group` this cycle
    std::string group;      // the group it priced the job in (empty: none could take it)
    double local_start = std::numeric_limits<double>::quiet_NaN(); // s until its expected local start
    double cloud_cost = std::numeric_limits<double>::quiet_NaN();  // what bursting it costs
    double waiting_cost = std::numeric_limits<double>::quiet_NaN(); // what its waiting costs (λ × cores × wait)
    std::string_view why;   // the verdict in words (static text)
};

struct Decision {
    Time time = 0;
    std::vector<Action> actions;
    // The pending jobs the policy weighed one by one (a policy that sizes the
    // site as a whole leaves this empty; its actions and notes say why).
    std::vector<JobVerdict> verdicts;
    // Why nothing (more) was done, when that is worth saying ("local capacity
    // frees in 40 s", "budget of account bio exhausted").
    std::vector<std::string> notes;

    template <class T>
    void add(T what, std::string reason)
    {
        actions.push_back(Action{std::move(what), std::move(reason)});
    }
};

} // namespace burst
