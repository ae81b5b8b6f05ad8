#pragma once
// burstsim --workload NAME[:key=value,...]: the paper workloads as a Trace,
// so every burstsim option (--compare, --plot, ...) works on them as on a
// trace file.  Known names: gatk (Smowton et al.), blast (Zheng et al.),
// htc (a high-throughput site).

#include "sim/trace/trace.hpp"
#include "sim/workload/workload_spec.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace burst {

std::vector<std::string> workload_names();

// Throws WorkloadSpecError for an unknown name (listing the known ones) or
// a bad key.
Trace generate_workload(const std::string& spec, std::uint64_t seed);

} // namespace burst
