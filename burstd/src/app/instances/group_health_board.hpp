#pragma once
// Every node group's GroupHealth behind one lock: the provider workers report
// launch outcomes, the policy cycle reads hire limits, the control socket
// shows and resets.  Each change of a group's mode is logged once.

#include "policy/health/group_health.hpp"
#include "app/logger.hpp"
#include "model/node_group.hpp"

#include <jansson.h>

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace burst {

class GroupHealthBoard {
public:
    GroupHealthBoard(const std::vector<NodeGroup>& groups, Seconds probe_timeout, Logger& log);

    // Unknown groups are always admitted and never limited: the caller has
    // already refused nodes outside every group.
    Admission admit(const std::string& group, Time now);
    void launched(const std::string& group, Time now, bool probe);
    void launch_failed(const std::string& group, const ProviderError& error, Time now, bool probe);
    void registered(const std::string& group, Time now);
    void boot_failed(const std::string& group, const std::string& why, Time now);
    // False for an unknown group.
    bool reset(const std::string& group, Time now);
    // A reloaded configuration: new settings, disabled groups re-enabled,
    // groups added or dropped.
    void reload(const std::vector<NodeGroup>& groups);

    // Groups that may not hire freely now -> how many nodes they may.
    std::map<std::string, std::uint32_t> hire_limits(Time now) const;
    std::optional<GroupHealthView> view(const std::string& group, Time now) const;
    // Every group's view (metrics).
    std::map<std::string, GroupHealthView> views(Time now) const;
    // {"<group>": {"mode":..., "state":..., ...}, ...}
    json_t* to_json(Time now) const;

    // Called (under the board's lock) with a group's new view each time its
    // mode, state or back-off end changes: the ledger keeps it.
    using Observer = std::function<void(const std::string& group, const GroupHealthView& view)>;
    void set_observer(Observer observer);
    // A view an earlier burstd saved (GroupHealth::restore); logged.  False
    // for an unknown group.
    bool restore(const std::string& group, const GroupHealthView& saved, Time now);

private:
    template <class Change>
    void change(const std::string& group, Time now, Change change);

    Seconds probe_timeout_;
    Logger& log_;
    mutable std::mutex mutex_;
    std::map<std::string, GroupHealth> groups_;
    Observer observer_;
};

} // namespace burst
