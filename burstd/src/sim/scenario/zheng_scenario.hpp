#pragma once
// Reproduction of Zheng et al.'s BLAST result (HTA, CLUSTER 2020, Fig. 10):
// on the three-stage workflow, on a GKE-like pool of 3 fixed nodes plus up
// to 17 more that boot in 157 s, boot-window (HTA) accumulates several
// times less resource waste than Kubernetes HPA at a CPU target of 20% or
// 50% (`threshold` with metric=hpa, HPA's rule, which sees busy
// cores only), for a modest increase in workflow runtime.
// `burstsim --scenario zheng` prints the table.

#include "sim/workload/blast_workload.hpp"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace burst {

struct ZhengOptions {
    std::uint64_t seed = 1;
    std::uint64_t repetitions = 1; // seeds seed, seed+1, ...; results are averaged
    std::vector<double> targets{0.2, 0.5}; // HPA CPU targets for threshold
    BlastWorkloadSpec workload;
};

struct ZhengRow {
    std::string label;
    double runtime = 0;  // workflow makespan, s
    double waste = 0;    // core·s ready but idle, fixed nodes included (the paper's RW)
    double shortage = 0; // core·s of demand waiting (the paper's RSH integral)
    double cloud_cost = 0;
    double peak_nodes = 0;
};

// "reps=3,targets=0.2:0.5" plus any blast workload key (tasks, align, ...).
ZhengOptions parse_zheng_options(const std::string& text, std::uint64_t seed);

std::vector<ZhengRow> run_zheng(const ZhengOptions& options);
void print_zheng(std::ostream& out, const ZhengOptions& options, const std::vector<ZhengRow>& rows);

} // namespace burst
