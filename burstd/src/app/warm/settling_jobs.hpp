#pragma once
// burstd's submissions and cancellations of its own standby jobs
// (placeholders, interactive holds) that snapshots do not reflect yet.
// Each stays in mind until a snapshot taken after it shows it took effect,
// so that a lagging or stalled snapshot stream never makes burstd do it
// twice.

#include "model/clock.hpp"
#include "model/job.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace burst {

inline bool listed(const std::vector<JobId>& ids, JobId id)
{
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// "12,13": job ids as burstd logs what it did to them.
inline std::string ids_text(const std::vector<JobId>& ids)
{
    std::string text;
    for (JobId id : ids)
        text += (text.empty() ? "" : ",") + std::to_string(id);
    return text;
}

class SettlingJobs {
public:
    // How much later than a submission or cancellation a snapshot must be
    // taken to show it (slurmctld's and burstd's clocks may differ a little).
    static constexpr Seconds kSettleMargin = 2;
    // A cancellation a snapshot this much later still shows is tried again.
    static constexpr Seconds kCancelRetry = 60;

    // `owner`: what the job was submitted for (a node group, a partition).
    void submitted(JobId id, std::string owner, Time when) { submitted_[id] = {std::move(owner), when}; }
    void cancelled(JobId id, Time when) { cancelled_[id] = when; }

    // A snapshot taken at `taken` lists the jobs `shown` (of the kind kept here).
    void settle(const std::unordered_set<JobId>& shown, Time taken)
    {
        // A submission settles when shown, or when a snapshot taken after it
        // does not show it (it ran and ended already); one from before shows
        // nothing either way.
        for (auto it = submitted_.begin(); it != submitted_.end();)
            it = shown.count(it->first) || taken > it->second.second + kSettleMargin ? submitted_.erase(it)
                                                                                     : std::next(it);
        for (auto it = cancelled_.begin(); it != cancelled_.end();)
            it = !shown.count(it->first) || taken > it->second + kCancelRetry ? cancelled_.erase(it) : std::next(it);
    }

    // Submitted for `owner`, not yet in a snapshot.
    std::uint32_t in_flight(const std::string& owner) const
    {
        std::uint32_t n = 0;
        for (const auto& [id, sent] : submitted_)
            n += sent.first == owner;
        return n;
    }
    bool is_cancelled(JobId id) const { return cancelled_.count(id) != 0; }
    std::vector<JobId> cancelled_ids() const
    {
        std::vector<JobId> ids;
        for (const auto& [id, when] : cancelled_)
            ids.push_back(id);
        return ids;
    }

private:
    std::map<JobId, std::pair<std::string, Time>> submitted_; // id -> (owner, when)
    std::map<JobId, Time> cancelled_;                         // still in the snapshot
};

} // namespace burst
