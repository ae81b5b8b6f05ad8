#pragma once
// How the simulated slurmctld orders its queue: PriorityType=priority/basic
// (first come, first served) or priority/multifactor with the classic
// fair-share algorithm (PriorityFlags=NO_FAIR_TREE).  Names and defaults are
// slurm.conf's (22.05), so a site can copy its own settings.

#include "model/clock.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace burst {

enum class PriorityType { Fifo, Multifactor };

struct PriorityConfig {
    PriorityType type = PriorityType::Fifo;
    std::uint32_t weight_age = 0;       // PriorityWeightAge
    std::uint32_t weight_fairshare = 0; // PriorityWeightFairshare
    std::uint32_t weight_jobsize = 0;   // PriorityWeightJobSize
    bool favor_small = false;           // PriorityFavorSmall
    Seconds max_age = 7 * 86400;        // PriorityMaxAge
    Seconds decay_half_life = 7 * 86400; // PriorityDecayHalfLife; 0 = usage never decays
    Seconds calc_period = 300;          // PriorityCalcPeriod
    std::uint32_t dampening = 1;        // FairShareDampeningFactor
    // Raw shares per account (sacctmgr's Fairshare=) under root; an account
    // of the workload not listed here gets 1, sacctmgr's default.
    std::map<std::string, std::uint32_t> shares;
};

} // namespace burst
