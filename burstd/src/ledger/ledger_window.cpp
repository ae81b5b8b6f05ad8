#include "ledger/ledger_window.hpp"

#include <algorithm>

namespace burst {

void LedgerWindow::refresh(Time ended_since)
{
    if (!cursor_ || ended_since < horizon_)
        return reload(ended_since);
    // Counted before reading: a write between the two is read again next time.
    const std::uint64_t cursor = ledger_.change_count();
    auto changed = ledger_.changed_since(*cursor_);
    if (!changed)
        return reload(ended_since);
    cursor_ = cursor;
    merge(std::move(*changed));
    prune(ended_since);
}

void LedgerWindow::reload(Time ended_since)
{
    const std::uint64_t cursor = ledger_.change_count();
    records_ = ledger_.open_or_ended_since(ended_since);
    at_.clear();
    for (std::size_t i = 0; i < records_.size(); ++i)
        at_[records_[i].id] = i;
    boots_.clear();
    for (auto& b : ledger_.latest_boots(per_group_))
        boots_.emplace(b.record, std::move(b.boot));
    horizon_ = ended_since;
    cursor_ = cursor;
}

void LedgerWindow::merge(std::vector<LedgerRecord> changed)
{
    if (changed.empty())
        return;
    bool in_order = true;
    for (auto& r : changed) {
        NodeBoot boot{r.node_group, r.requested_at, r.running_since};
        if (boot.plausible())
            boots_[r.id] = std::move(boot);
        if (auto it = at_.find(r.id); it != at_.end()) {
            records_[it->second] = std::move(r);
        } else {
            in_order = in_order && (records_.empty() || records_.back().id < r.id);
            at_[r.id] = records_.size();
            records_.push_back(std::move(r));
        }
    }
    if (!in_order) { // a closed record from before the horizon was written again
        std::sort(records_.begin(), records_.end(),
                  [](const LedgerRecord& a, const LedgerRecord& b) { return a.id < b.id; });
        for (std::size_t i = 0; i < records_.size(); ++i)
            at_[records_[i].id] = i;
    }
    // Keep each group's latest per_group_, as latest_boots() chooses them.
    std::map<std::string, std::vector<std::pair<Time, std::int64_t>>> by_group;
    for (const auto& [id, b] : boots_)
        by_group[b.node_group].push_back({b.running_since, id});
    for (auto& [group, boots] : by_group) {
        if (boots.size() <= per_group_)
            continue;
        std::sort(boots.begin(), boots.end());
        for (std::size_t i = 0; i + per_group_ < boots.size(); ++i)
            boots_.erase(boots[i].second);
    }
}

void LedgerWindow::prune(Time ended_since)
{
    horizon_ = std::max(horizon_, ended_since);
    const auto before = records_.size();
    records_.erase(std::remove_if(records_.begin(), records_.end(),
                                  [&](const LedgerRecord& r) { return !r.open() && r.terminated_at < horizon_; }),
                   records_.end());
    if (records_.size() == before)
        return;
    at_.clear();
    for (std::size_t i = 0; i < records_.size(); ++i)
        at_[records_[i].id] = i;
}

std::vector<NodeBoot> LedgerWindow::boots() const
{
    std::vector<NodeBoot> boots;
    boots.reserve(boots_.size());
    for (const auto& [id, b] : boots_)
        boots.push_back(b);
    return latest_boots(std::move(boots), per_group_);
}

} // namespace burst
