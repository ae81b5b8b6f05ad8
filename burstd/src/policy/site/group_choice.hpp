#pragma once
// The choice of the policies that quote node groups at list price (always,
// fixed-delay, threshold, boot-window, pfa): offer the groups that can take
// the work, let the expander pick one, and act on the group it picked.

#include "policy/expander/expander.hpp"
#include "policy/site/site_view.hpp"

#include <cstdint>
#include <vector>

namespace burst {

// The group of `groups` that `expander` picks for `cpus` more cores among
// those `offered(group)` accepts, each quoted by list_price_option; nullptr
// when it accepts none.  `options` is the caller's scratch, kept across the
// choices of a decision so that choosing for every pending job does not
// allocate for each.
template <class Offered>
GroupView* choose_group(const Expander& expander, std::vector<GroupView>& groups, std::uint64_t cpus,
                        Offered offered, std::vector<ExpansionOption>& options)
{
    options.clear();
    for (const GroupView& g : groups)
        if (offered(g))
            options.push_back(list_price_option(g, cpus));
    if (options.empty())
        return nullptr;
    const ExpansionOption* choice = expander.choose(options, cpus);
    return choice ? &groups[std::size_t(choice->group - groups.data())] : nullptr;
}

} // namespace burst
