#pragma once
// One burstd.conf Provider= section as a provider type's builder reads it,
// and what every provider of one burstd shares.

#include "common/param_map.hpp"

#include <string>

namespace burst {

struct ProviderSpec {
    std::string name;
    std::string type; // a registered provider type, lower case
    std::string credentials_file;
    std::string region;
    // The type's own keys (ImageId=, SubnetIds=, ...); its builder rejects
    // the ones it does not know.
    ParamMap params;
    std::string origin; // "file:line", prefixed to every error
};

struct ProviderSite {
    std::string slurm_conf; // burstd.conf SlurmConf=
    std::string state_dir;  // burstd.conf StateDir=
};

} // namespace burst
