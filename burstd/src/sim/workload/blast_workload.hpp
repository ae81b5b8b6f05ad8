#pragma once
// Zheng et al.'s multistage BLAST workflow (HTA, CLUSTER 2020, section
// VI-A): three stages of 200, 34 and 164 parallel alignment tasks.  Each
// stage splits its input (one task), aligns the pieces in parallel, and
// reduces the results (one task) before the next stage's split: the
// demand falls in the middle stage and rises again in the last, which is
// what separates an autoscaler that looks one boot time ahead from one
// that follows utilization.  The paper gives the task counts, the node
// shape and the boot time (157.4 s ± 4.2 s), not per-task runtimes; the
// defaults below are chosen so the workflow takes about the paper's
// 2500-3000 s on its 20 nodes × 3 cores.

#include "sim/trace/trace.hpp"
#include "sim/workload/workload_spec.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace burst {

struct BlastWorkloadSpec {
    std::vector<std::uint64_t> tasks{200, 34, 164};    // alignment tasks per stage
    std::vector<std::uint64_t> align{200, 400, 200};   // seconds per alignment task, per stage
    std::uint32_t cores = 1;                           // per alignment task
    double split = 30, reduce = 60;                    // seconds, one core each
    double spread = 0.1;      // runtimes uniform in nominal × (1 ± spread)
    std::uint64_t seed = 1;
};

// Job categories "blast/stageN-split|align|reduce", all submitted at t = 0
// and released by their dependencies.
std::vector<TraceJob> generate_blast(const BlastWorkloadSpec& spec);

// "tasks=200:34:164,align=200:400:200,cores=1,split=30,reduce=60,spread=0.1"
// (every key optional; tasks and align take one number per stage, as many
// stages as tasks has).
BlastWorkloadSpec parse_blast_spec(const std::string& text, std::uint64_t seed);
// The same keys from a spec that may hold others (a scenario's).
BlastWorkloadSpec read_blast_spec(WorkloadSpec& spec, std::uint64_t seed);

} // namespace burst
