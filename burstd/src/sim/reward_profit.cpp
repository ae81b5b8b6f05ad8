#include "sim/reward_profit.hpp"

#include <algorithm>

namespace burst {

RewardProfit reward_profit(const SimResult& result, const RewardScheme& scheme)
{
    const double scale = scheme.reward_scale < 0 ? scheme.lambda * 3600 : scheme.reward_scale;
    RewardProfit p;
    double local_core_seconds = 0;
    for (const auto& j : result.jobs) {
        const double d = double(j.cpus);
        const double t = j.end - j.eligible;
        p.time += d * (scheme.reward_max - t * scheme.lambda / 3600);
        p.throughput += d * scale / std::max(t, scheme.tau);
        if (j.group < 0)
            local_core_seconds += d * (j.end - j.start);
    }
    const double cost = result.cloud_cost + scheme.local_price * local_core_seconds / 3600;
    p.time -= cost;
    p.throughput -= cost;
    return p;
}

} // namespace burst
