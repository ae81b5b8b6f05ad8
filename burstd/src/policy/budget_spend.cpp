#include "policy/budget_spend.hpp"

namespace burst {

IntervalSpend BudgetSpend::update(Time now, const std::vector<BudgetLimit>& limits,
                                  const std::vector<BilledSpan>& spans, const std::vector<Job>& jobs,
                                  const std::vector<NodeGroup>& groups)
{
    IntervalSpend spent;
    std::map<Seconds, SpendTracker> kept;
    for (const auto& l : limits) {
        if (spent.count(l.interval))
            continue;
        auto node = trackers_.extract(l.interval);
        SpendTracker tracker = node.empty() ? SpendTracker(l.interval) : std::move(node.mapped());
        spent[l.interval] = tracker.update(now, spans, jobs, groups).accounts;
        kept.emplace(l.interval, std::move(tracker));
    }
    trackers_ = std::move(kept);
    return spent;
}

} // namespace burst
