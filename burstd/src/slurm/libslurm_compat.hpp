#pragma once
// libslurm's API as each Slurm release spells it, for libslurm_actuator.cpp:
// the only place burstd's code depends on the release it is built for
// (configure --with-slurm=PREFIX).  Measured against 22.05.8 (Debian 12) and
// 24.11.5 (Debian 13); where a change first appeared is said at each.

#include <slurm/slurm.h>

namespace burst::slurm_compat {

// update_node_msg_t's instance_id and instance_type, kept by slurmctld and
// slurmdbd (`sacctmgr show instance`), came in 23.11 (24.11's slurm/slurm.h;
// absent from 22.05's).
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0)
inline constexpr bool kNodesKeepInstances = true;
inline void set_instance(update_node_msg_t& msg, char* id, char* type)
{
    msg.instance_id = id;
    msg.instance_type = type;
}
#else
inline constexpr bool kNodesKeepInstances = false;
inline void set_instance(update_node_msg_t&, char*, char*) {}
#endif

} // namespace burst::slurm_compat
