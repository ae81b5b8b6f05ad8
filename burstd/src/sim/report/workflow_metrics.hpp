#pragma once
// Per-workflow outcome of a replay, as the PFA paper measures it: response
// time = end of the last task − arrival (waiting plus makespan), slowdown =
// response / the workflow's critical path on reference (speed 1) nodes.

#include "sim/engine/simulator.hpp"
#include "sim/trace/trace.hpp"

#include <cstddef>
#include <vector>

namespace burst {

struct WorkflowMetrics {
    std::size_t workflows = 0; // workflows all of whose tasks ran
    double mean_response = 0;
    double mean_slowdown = 0;
    double median_slowdown = 0;
    double p95_slowdown = 0;
};

// Jobs without a workflow are ignored; so is a workflow with a task that was
// not replayed.  `tau` bounds the critical path from below (seconds).
WorkflowMetrics workflow_metrics(const std::vector<TraceJob>& trace, const SimResult& result, double tau = 10);

} // namespace burst
