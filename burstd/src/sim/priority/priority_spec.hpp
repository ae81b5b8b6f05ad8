#pragma once
// burstsim's scheduling-priority options, in slurm.conf's words:
//   --priority fifo
//   --priority multifactor[:PriorityWeightAge=1000,PriorityWeightFairshare=10000,
//                          PriorityWeightJobSize=0,PriorityFavorSmall=NO,PriorityMaxAge=7-0,
//                          PriorityDecayHalfLife=7-0,PriorityCalcPeriod=5,FairShareDampeningFactor=1,
//                          PriorityFlags=NO_FAIR_TREE]
//   --shares ACCOUNT=N|parent,ACCOUNT/USER=N|parent,...   or a file of such lines (# comments)
// Keys are case-insensitive as in slurm.conf; times take slurm.conf's forms
// (minutes, min:sec, h:m:s, days-h[:m[:s]]) and are rounded up to whole
// minutes as slurmctld does.

#include "sim/priority/priority_config.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace burst {

class PrioritySpecError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// Keeps `shares` as they were; throws PrioritySpecError naming the key or
// value and what was expected.
void parse_priority_spec(const std::string& spec, PriorityConfig& config);

// "a=10,b=parent,a/alice=2,b/bob=parent"; throws PrioritySpecError for a bad or
// repeated entry.
SiteShares parse_shares(const std::string& spec);

// One entry per line, blank lines and # comments allowed; errors name the
// file and the line.
SiteShares load_shares_file(const std::string& path);

} // namespace burst
