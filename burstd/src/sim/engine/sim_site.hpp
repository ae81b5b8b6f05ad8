#pragma once
// The site as a replay runs it: the SimConfig checked, and every node group
// with as many nodes as it may have (simulated_node_count), named or, when
// it names none, counted in unlisted_nodes for the fleet to name
// "<group>-<i>" as it first powers them up, and a provider ("sim" when it
// has none).

#include "sim/engine/sim_config.hpp"

namespace burst {

// Throws SimConfigError (simulator.hpp) for an unusable site: no local
// cores, a bad group, jitter, suspend time, shortage or budget line.
SimConfig replay_site(const SimConfig& config);

} // namespace burst
