#include "app/instances/group_health_board.hpp"

#include <cstdio>
#include <string>

namespace burst {

namespace {

std::string secs(Seconds s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f s", s);
    return buf;
}

} // namespace

GroupHealthBoard::GroupHealthBoard(const std::vector<NodeGroup>& groups, Seconds probe_timeout, Logger& log)
    : probe_timeout_(probe_timeout), log_(log)
{
    for (const auto& g : groups)
        groups_.emplace(g.name, GroupHealth(g.recovery, probe_timeout_));
}

template <class Change>
void GroupHealthBoard::change(const std::string& group, Time now, Change change)
{
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = groups_.find(group);
    if (it == groups_.end())
        return;
    const GroupHealthView before = it->second.view(now);
    change(it->second);
    const GroupHealthView after = it->second.view(now);
    if (before.mode == after.mode && before.state == after.state && before.open_until == after.open_until)
        return;
    if (observer_)
        observer_(group, after);
    std::string line = "node group " + group + ": " + before.mode + " -> " + after.mode;
    if (after.state == BreakerState::Open)
        line += " (" + after.reason + "); one probe launch in " + secs(after.cool_down);
    else if (after.state == BreakerState::Disabled)
        line += " (" + after.reason + "); no launches until a reload or burstctl reset-group";
    if (after.state == BreakerState::Closed)
        log_.info(line);
    else
        log_.error(line);
}

Admission GroupHealthBoard::admit(const std::string& group, Time now)
{
    Admission a;
    change(group, now, [&](GroupHealth& h) { a = h.admit(now); });
    if (a.probe())
        log_.info("node group " + group + ": probe launch after its back-off");
    return a;
}

void GroupHealthBoard::launched(const std::string& group, Time now, bool probe)
{
    change(group, now, [&](GroupHealth& h) { h.launched(now, probe); });
}

void GroupHealthBoard::launch_failed(const std::string& group, const ProviderError& error, Time now, bool probe)
{
    change(group, now, [&](GroupHealth& h) { h.launch_failed(error, now, probe); });
}

void GroupHealthBoard::registered(const std::string& group, Time now)
{
    change(group, now, [&](GroupHealth& h) { h.registered(now); });
}

void GroupHealthBoard::boot_failed(const std::string& group, const std::string& why, Time now)
{
    change(group, now, [&](GroupHealth& h) { h.boot_failed(why, now); });
}

bool GroupHealthBoard::reset(const std::string& group, Time now)
{
    bool found = false;
    change(group, now, [&](GroupHealth& h) {
        h.reset();
        found = true;
    });
    return found;
}

void GroupHealthBoard::reload(const std::vector<NodeGroup>& groups)
{
    std::lock_guard<std::mutex> lock(mutex_);
    std::map<std::string, GroupHealth> next;
    for (const auto& g : groups) {
        auto it = groups_.find(g.name);
        GroupHealth h = it == groups_.end() ? GroupHealth(g.recovery, probe_timeout_) : it->second;
        h.reload(g.recovery);
        next.emplace(g.name, h);
    }
    groups_ = std::move(next);
}

std::map<std::string, std::uint32_t> GroupHealthBoard::hire_limits(Time now) const
{
    std::lock_guard<std::mutex> lock(mutex_);
    std::map<std::string, std::uint32_t> limits;
    for (const auto& [name, h] : groups_)
        if (auto l = h.hire_limit(now))
            limits.emplace(name, *l);
    return limits;
}

std::optional<GroupHealthView> GroupHealthBoard::view(const std::string& group, Time now) const
{
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = groups_.find(group);
    if (it == groups_.end())
        return std::nullopt;
    return it->second.view(now);
}

std::map<std::string, GroupHealthView> GroupHealthBoard::views(Time now) const
{
    std::lock_guard<std::mutex> lock(mutex_);
    std::map<std::string, GroupHealthView> out;
    for (const auto& [name, h] : groups_)
        out.emplace(name, h.view(now));
    return out;
}

json_t* GroupHealthBoard::to_json(Time now) const
{
    std::lock_guard<std::mutex> lock(mutex_);
    json_t* out = json_object();
    for (const auto& [name, h] : groups_) {
        GroupHealthView v = h.view(now);
        json_t* o = json_pack("{s:s, s:s, s:s, s:I, s:I, s:I, s:I}", "mode", v.mode.c_str(), "state",
                              std::string(to_string(v.state)).c_str(), "cause",
                              std::string(to_string(v.cause)).c_str(), "capacity_errors",
                              json_int_t(v.capacity_errors), "boot_failures", json_int_t(v.boot_failures), "opened",
                              json_int_t(v.opened), "probes", json_int_t(v.probes));
        if (v.state != BreakerState::Closed) {
            json_object_set_new(o, "reason", json_string(v.reason.c_str()));
            json_object_set_new(o, "cool_down", json_integer(json_int_t(v.cool_down)));
        }
        if (v.state == BreakerState::Open) {
            json_object_set_new(o, "probe_at", json_integer(json_int_t(v.open_until)));
            json_object_set_new(o, "probe_in", json_integer(json_int_t(v.open_until > now ? v.open_until - now : 0)));
        }
        json_object_set_new(out, name.c_str(), o);
    }
    return out;
}

void GroupHealthBoard::set_observer(Observer observer)
{
    std::lock_guard<std::mutex> lock(mutex_);
    observer_ = std::move(observer);
}

bool GroupHealthBoard::restore(const std::string& group, const GroupHealthView& saved, Time now)
{
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = groups_.find(group);
    if (it == groups_.end())
        return false;
    it->second.restore(saved);
    const GroupHealthView v = it->second.view(now);
    if (v.state != BreakerState::Closed)
        log_.error("node group " + group + ": " + v.mode + " as an earlier burstd left it (" + v.reason +
                   "); one probe launch in " + secs(v.open_until > now ? v.open_until - now : 0));
    return true;
}

} // namespace burst
