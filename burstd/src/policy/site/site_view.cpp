#include "policy/site/site_view.hpp"

#include "policy/site/site_view_builder.hpp"

#include <utility>

namespace burst {

const std::string& group_partition(const NodeGroup& group)
{
    return group.partition.empty() ? group.name : group.partition;
}

int SiteView::group_of(const PartitionSet& partitions) const
{
    for (const auto& p : partitions)
        for (const auto& [name, index] : partition_group_)
            if (p == name)
                return index;
    return -1;
}

bool SiteView::served_anywhere(NodeNeeds needs)
{
    if (needs.id() >= needs_row_.size())
        needs_row_.resize(std::size_t(needs.id()) + 1, kNoRow);
    std::uint32_t& row = needs_row_[needs.id()];
    if (row == kNoRow) {
        row = std::uint32_t(served_anywhere_.size());
        bool any = false;
        for (const GroupView& g : groups) {
            const bool serves = needs.met_by(g.offer);
            served_.push_back(serves);
            any = any || serves;
        }
        served_anywhere_.push_back(any);
    }
    return served_anywhere_[row] != 0;
}

std::vector<std::string> SiteView::needs_notes() const
{
    std::vector<std::string> notes;
    if (unchecked_jobs)
        notes.push_back(std::to_string(unchecked_jobs) +
                        " waiting job(s) ask for gres, constraints, CPUs or memory in combinations beyond the "
                        "65534 burstd tells apart since it started: they are routed as if they asked nothing "
                        "(restart burstd to forget old combinations)");
    if (too_long_jobs)
        notes.push_back(std::to_string(too_long_jobs) +
                        " burstable job(s) have a time limit (or none) beyond the MaxTime of every node group's "
                        "partition that could run them: they stay local");
    if (!unservable_jobs)
        return notes;
    const NodeNeeds& n = first_unservable;
    std::string asked;
    auto add = [&asked](const std::string& what) { asked += (asked.empty() ? "" : ", ") + what; };
    if (!n.gres().empty())
        add("gres " + n.gres());
    if (!n.features().empty())
        add("constraint " + n.features());
    if (n.cpus() > 1)
        add(std::to_string(n.cpus()) + " CPUs per node");
    if (n.memory_mb() > 0)
        add(std::to_string(n.memory_mb()) + " MB per node");
    notes.push_back(std::to_string(unservable_jobs) + " burstable job(s) ask for what no node group's nodes have (e.g. " +
                    asked + (n.error().empty() ? "" : ": " + n.error()) + "): they stay local");
    return notes;
}

SiteView SiteView::of(const ClusterState& state)
{
    SiteViewBuilder builder;
    return std::move(builder.build(state));
}

} // namespace burst
