#include "policy/warm/buckets/bucket_series.hpp"

#include "common/plain_number.hpp"
#include "policy/warm/buckets/cloud_demand_buckets.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace burst {

BucketSeries::BucketSeries(ResourceOrder order, Seconds tick) : order_(order), tick_(tick)
{
    if (!(tick > 0) || !std::isfinite(tick))
        throw std::invalid_argument("bucket series tick " + plain_number(tick) + ": expected seconds > 0");
}

GroupBucketSeries& BucketSeries::series_of(const std::string& group, std::int64_t tick)
{
    for (auto& s : groups_)
        if (s.group == group)
            return s;
    groups_.push_back(GroupBucketSeries{group, tick, {}, {}});
    return groups_.back();
}

void BucketSeries::observe(const ClusterState& state, const SiteView& view, Time now)
{
    const std::int64_t tick = std::int64_t(std::floor(now / tick_));
    const std::vector<std::uint32_t> counts = cloud_demand_buckets(view, order_);
    boots_.observe(state);
    for (std::size_t g = 0; g < state.groups.size(); ++g) {
        GroupBucketSeries& s = series_of(state.groups[g].name, tick);
        const double count = counts[g];
        const Seconds lead = boots_.expected(state.groups[g]);
        const std::int64_t open = s.first_tick + std::int64_t(s.counts.size()) - 1;
        if (!s.counts.empty() && tick <= open) {
            s.counts.back() = std::max(s.counts.back(), count);
            s.lead.back() = lead;
            continue;
        }
        for (std::int64_t unseen = open + 1; !s.counts.empty() && unseen < tick; ++unseen) {
            s.counts.push_back(s.counts.back());
            s.lead.push_back(s.lead.back());
        }
        s.counts.push_back(count);
        s.lead.push_back(lead);
    }
}

} // namespace burst
