#pragma once
// What a cloud node's provider bills for its uptime, and when keeping it up
// starts costing again: what is already billed is paid whether the node is
// used or not.  One rule for the simulator's bill and the policies' quotes.

#include "model/billed_span.hpp"
#include "model/clock.hpp"
#include "model/node_group.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace burst {

// Seconds billed for an instance up for `up`: at least MinBilled, and with
// per-hour billing every hour begun, the first one at launch.
inline Seconds billed_seconds(const NodeGroup& g, Seconds up)
{
    const Seconds billed = std::max(up, g.min_billed);
    return g.billing == Billing::PerHour ? std::max<Seconds>(3600, std::ceil(billed / 3600) * 3600) : billed;
}

// The most an instance's bill may exceed its uptime when it powers down at
// some uptime between `earliest` and `latest` (infinity: no bound yet).
// Within one billed hour the excess shrinks as the node stays up, and just
// past a boundary it is a whole hour again; per-second billing exceeds
// uptime only below MinBilled.  The budget cap commits it to capacity no
// job uses: SpendTracker books jobs their share of uptime only.
inline Seconds billing_overrun_bound(const NodeGroup& g, Seconds earliest, Seconds latest)
{
    earliest = std::max<Seconds>(0, earliest);
    Seconds most = billed_seconds(g, earliest) - earliest;
    if (g.billing == Billing::PerHour &&
        std::ceil(std::max(earliest, g.min_billed) / 3600) * 3600 < latest)
        most = std::max<Seconds>(most, 3600);
    return most;
}

// Seconds until an instance up for `uptime` starts another billed period:
// per-hour billing charges whole hours from launch; per-second billing only
// the minimum.
inline Seconds to_billing_boundary(const NodeGroup& g, Seconds uptime)
{
    if (g.billing == Billing::PerHour)
        return 3600 - std::fmod(std::max<Seconds>(0, uptime), 3600);
    return std::max<Seconds>(0, g.min_billed - uptime);
}

// When an instance launched at `launched` and ended at `ended` stops being
// billed: a node powered down within MinBilled or a begun hour is paid for
// to its end, as if it were still on.
inline Time billed_until(const NodeGroup& g, Time launched, Time ended)
{
    return launched + billed_seconds(g, ended - launched);
}

// The spans of ended instances that are still billed at `now` (spans of a
// group not in `groups` are left out: nothing says how they are billed).
inline std::vector<BilledSpan> spans_billed_past_end(const std::vector<BilledSpan>& spans,
                                                     const std::vector<NodeGroup>& groups, Time now)
{
    std::vector<BilledSpan> billed;
    for (const auto& span : spans) {
        if (!span.until)
            continue;
        auto group = std::find_if(groups.begin(), groups.end(),
                                  [&](const NodeGroup& g) { return g.name == span.node_group; });
        if (group != groups.end() && billed_until(*group, span.from, *span.until) > now)
            billed.push_back(span);
    }
    return billed;
}

} // namespace burst
