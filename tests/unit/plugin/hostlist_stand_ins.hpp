#pragma once
// Stand-ins for Slurm's hostlist expansion, which the serializers take as a
// callback so that they run outside slurmctld.

#include "../../../plugin/snapshot_json.h"

namespace burst::test {

// A plain comma list, expanded name by name.
inline int expand_commas(const char* hostlist, snap_name_fn emit, void* ctx)
{
    snapshot_json_each_in_list(hostlist, emit, ctx);
    return 0;
}

// A hostlist Slurm cannot parse.
inline int expand_fails(const char*, snap_name_fn, void*)
{
    return -1;
}

} // namespace burst::test
