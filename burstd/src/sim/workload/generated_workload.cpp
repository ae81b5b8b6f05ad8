#include "sim/workload/generated_workload.hpp"

#include "sim/workload/blast_workload.hpp"
#include "sim/workload/gatk_workload.hpp"
#include "sim/workload/htc_workload.hpp"

namespace burst {

std::vector<std::string> workload_names()
{
    return {"gatk", "blast", "htc"};
}

Trace generate_workload(const std::string& spec, std::uint64_t seed)
{
    const auto colon = spec.find(':');
    const std::string name = spec.substr(0, colon);
    const std::string keys = colon == std::string::npos ? "" : spec.substr(colon + 1);
    Trace trace;
    if (name == "gatk")
        trace.jobs = generate_gatk(parse_gatk_spec(keys, seed)).jobs;
    else if (name == "blast")
        trace.jobs = generate_blast(parse_blast_spec(keys, seed));
    else if (name == "htc")
        trace.jobs = generate_htc(parse_htc_spec(keys, seed));
    else {
        std::string known;
        for (const auto& n : workload_names())
            known += (known.empty() ? "" : ", ") + n;
        throw WorkloadSpecError("unknown workload '" + name + "' (known: " + known + ")");
    }
    trace.report.source = name + " workload (seed " + std::to_string(seed) + ")";
    trace.report.jobs = trace.jobs.size();
    return trace;
}

} // namespace burst
