#pragma once
// How the simulated slurmctld orders its queue: PriorityType=priority/basic
// (first come, first served) or priority/multifactor with the Fair Tree
// fair-share algorithm (Slurm's default) or, with PriorityFlags=NO_FAIR_TREE,
// the classic one.  Names and defaults are slurm.conf's (22.05), so a site
// can copy its own settings.

#include "model/clock.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace burst {

enum class PriorityType { Fifo, Multifactor };

// Raw shares (sacctmgr's Fairshare=) of the associations: accounts under
// root, users under their account; kFairshareParent (sim/priority/fair_tree.hpp) =
// Fairshare=parent.  An association of the workload not listed gets 1,
// sacctmgr's default.
struct SiteShares {
    std::map<std::string, std::uint32_t> accounts;
    // (account, user)
    std::map<std::pair<std::string, std::string>, std::uint32_t> users;
};

struct PriorityConfig {
    PriorityType type = PriorityType::Fifo;
    bool fair_tree = true;              // PriorityFlags without NO_FAIR_TREE
    std::uint32_t weight_age = 0;       // PriorityWeightAge
    std::uint32_t weight_fairshare = 0; // PriorityWeightFairshare
    std::uint32_t weight_jobsize = 0;   // PriorityWeightJobSize
    bool favor_small = false;           // PriorityFavorSmall
    Seconds max_age = 7 * 86400;        // PriorityMaxAge
    Seconds decay_half_life = 7 * 86400; // PriorityDecayHalfLife; 0 = usage never decays
    Seconds calc_period = 300;          // PriorityCalcPeriod
    std::uint32_t dampening = 1;        // FairShareDampeningFactor (classic only, as in Slurm)
    SiteShares shares;
};

} // namespace burst
