#include "model/cluster_state.hpp"

#include <atomic>

namespace burst {

std::uint64_t new_node_layout()
{
    static std::atomic<std::uint64_t> last{0};
    return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

} // namespace burst
