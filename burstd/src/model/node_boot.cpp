#include "model/node_boot.hpp"

#include <algorithm>

namespace burst {

std::vector<NodeBoot> latest_boots(std::vector<NodeBoot> boots, std::size_t per_group)
{
    boots.erase(std::remove_if(boots.begin(), boots.end(), [](const NodeBoot& b) { return !b.plausible(); }),
                boots.end());
    std::stable_sort(boots.begin(), boots.end(), [](const NodeBoot& a, const NodeBoot& b) {
        return a.node_group != b.node_group ? a.node_group < b.node_group : a.running_since < b.running_since;
    });
    std::vector<NodeBoot> kept;
    for (std::size_t end = 0; end < boots.size();) {
        const std::size_t begin = end;
        while (end < boots.size() && boots[end].node_group == boots[begin].node_group)
            ++end;
        kept.insert(kept.end(), boots.begin() + std::ptrdiff_t(end - std::min(end - begin, per_group)),
                    boots.begin() + std::ptrdiff_t(end));
    }
    return kept;
}

} // namespace burst
