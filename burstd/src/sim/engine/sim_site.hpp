#pragma once
// The site as a replay runs it: the SimConfig checked, and every node group
// with its nodes named (max_count nodes "<group>-<i>" when it names none)
// and a provider ("sim" when it has none).

#include "sim/engine/sim_config.hpp"

namespace burst {

// Throws SimConfigError (simulator.hpp) for an unusable site: no local
// cores, a bad group, jitter, suspend time, shortage or budget line.
SimConfig replay_site(const SimConfig& config);

} // namespace burst
