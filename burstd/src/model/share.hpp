#pragma once
// Fair-share of one association, as `sshare -P` shows it.

#include <string>

namespace burst {

struct Share {
    std::string account;
    std::string user; // empty for an account-level association
    std::string parent;
    double raw_shares = 0;     // 0 at Fairshare=parent
    bool fairshare_parent = false; // sacctmgr's Fairshare=parent
    double norm_shares = 0;
    double raw_usage = 0;
    double norm_usage = 0;
    double fairshare_factor = 0; // Slurm's fs_factor in [0,1]
};

} // namespace burst
