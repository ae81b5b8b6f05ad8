#pragma once
// Smowton et al.'s GATK workload (eScience 2015, section III and Table I):
// users submit batches of 7-stage mutation-calling pipelines.  Batches
// arrive as a Poisson process; batch size and each pipeline's input size d
// are normally distributed.  Stage i runs single-threaded for
// E_i(d) = a_i·d + b_i time units (TU) and with t threads for
// T_i(t, d) = c_i·E_i/t + (1 − c_i)·E_i; the simulated runtime is that
// prediction times an error factor ~ N(1, error) kept inside (0.1, 1.9).
// Every stage carries its scaling (c_i, its count, d as its size hint).
// Each stage is a job of category "gatk/stageN", submitted with its
// pipeline and held by a dependency on the previous stage, so that a policy
// sees the runtime left to the pipeline; under FCFS a stage keeps its
// pipeline's place in the queue once eligible (oldest pipeline first,
// where the paper's single FIFO takes stages as they become runnable).

#include "model/clock.hpp"
#include "model/job.hpp"
#include "sim/trace/trace.hpp"
#include "sim/workload/workload_spec.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace burst {

struct GatkStage {
    double a, b, c;
};

// Table I of the paper.
inline constexpr std::array<GatkStage, 7> kGatkStages{{{0.35, 5.38, 0.89},
                                                       {2.70, -0.53, 0.02},
                                                       {1.74, 3.93, 0.69},
                                                       {3.35, 0.53, 0.79},
                                                       {1.03, 17.86, 0.91},
                                                       {0.02, 0.39, 0.25},
                                                       {0.01, 5.10, 0.02}}};

struct GatkWorkloadSpec {
    double interval = 2.5;       // mean TU between arrival events
    double duration = 10000;     // arrivals in [0, duration) TU
    double tu_seconds = 60;      // one TU in simulated seconds
    double batch_mean = 3, batch_variance = 2; // pipelines per arrival
    double size_mean = 5, size_variance = 1;   // input size d
    double error = 0.1;          // std. deviation of the runtime error factor
    std::array<std::uint32_t, 7> threads{{1, 1, 1, 1, 1, 1, 1}}; // constant plan
    // --threads=auto stages: a thread policy may change each stage's count
    // while it waits (its run time follows T_i(t, d), error factor kept).
    bool automatic = false;
    std::uint64_t seed = 1;
};

struct GatkPipeline {
    double size = 0;          // input size d
    Time arrival = 0;         // seconds
    std::vector<JobId> stages; // job ids, stage 1 first
};

struct GatkWorkload {
    std::vector<TraceJob> jobs;
    std::vector<GatkPipeline> pipelines;
};

// Predicted runtime (TU) of a stage with `threads` threads and input size d.
double gatk_stage_time(const GatkStage& stage, double size, std::uint32_t threads);

GatkWorkload generate_gatk(const GatkWorkloadSpec& spec);

// "interval=2.5,duration=10000,tu=60,batch=3,batch_var=2,size=5,size_var=1,
// error=0.1,threads=1:1:1:1:1:1:1,auto=0" (every key optional); throws
// WorkloadSpecError naming the key and what was expected.
GatkWorkloadSpec parse_gatk_spec(const std::string& text, std::uint64_t seed);

} // namespace burst
