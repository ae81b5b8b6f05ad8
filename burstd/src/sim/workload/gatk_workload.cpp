#include "sim/workload/gatk_workload.hpp"

#include <algorithm>
#include <cmath>

namespace burst {

double gatk_stage_time(const GatkStage& stage, double size, std::uint32_t threads)
{
    const double single = stage.a * size + stage.b;
    return stage.c * single / threads + (1 - stage.c) * single;
}

GatkWorkload generate_gatk(const GatkWorkloadSpec& spec)
{
    GatkWorkload w;
    WorkloadRandom random(spec.seed);
    JobId next_id = 1;
    const double batch_sd = std::sqrt(spec.batch_variance), size_sd = std::sqrt(spec.size_variance);
    for (double t = random.exponential(spec.interval); t < spec.duration; t += random.exponential(spec.interval)) {
        const long batch = std::max(0L, std::lround(random.normal(spec.batch_mean, batch_sd)));
        for (long p = 0; p < batch; ++p) {
            GatkPipeline pipeline;
            // Stage 2's b is negative: keep E_2 = 2.7·d − 0.53 positive.
            pipeline.size = std::max(0.5, random.normal(spec.size_mean, size_sd));
            pipeline.arrival = t * spec.tu_seconds;
            for (std::size_t s = 0; s < kGatkStages.size(); ++s) {
                const double predicted = gatk_stage_time(kGatkStages[s], pipeline.size, spec.threads[s]);
                const double factor = std::clamp(random.normal(1, spec.error), 0.1, 1.9);
                TraceJob job;
                job.id = next_id++;
                job.submit = pipeline.arrival;
                job.runtime = std::max(1.0, std::round(predicted * factor * spec.tu_seconds));
                // What a user would ask Slurm for: the prediction at the worst error.
                job.time_limit = std::ceil(predicted * 1.9 * spec.tu_seconds) + 1;
                job.cpus = spec.threads[s];
                job.scaling = TraceScaling{kGatkStages[s].c, spec.threads[s], spec.automatic, pipeline.size};
                job.user = job.account = "gatk";
                job.partition = "local";
                job.name = "stage" + std::to_string(s + 1);
                job.category = "gatk/" + job.name;
                if (s > 0)
                    job.parents.push_back(pipeline.stages.back());
                pipeline.stages.push_back(job.id);
                w.jobs.push_back(std::move(job));
            }
            w.pipelines.push_back(std::move(pipeline));
        }
    }
    return w;
}

GatkWorkloadSpec parse_gatk_spec(const std::string& text, std::uint64_t seed)
{
    WorkloadSpec s("gatk", text);
    GatkWorkloadSpec spec;
    spec.seed = seed;
    spec.interval = s.get_double("interval", spec.interval, 0.01, 1e6);
    spec.duration = s.get_double("duration", spec.duration, 1, 1e7);
    spec.tu_seconds = s.get_double("tu", spec.tu_seconds, 1, 86400);
    spec.batch_mean = s.get_double("batch", spec.batch_mean, 0.1, 1e4);
    spec.batch_variance = s.get_double("batch_var", spec.batch_variance, 0, 1e6);
    spec.size_mean = s.get_double("size", spec.size_mean, 0.5, 1e4);
    spec.size_variance = s.get_double("size_var", spec.size_variance, 0, 1e6);
    spec.error = s.get_double("error", spec.error, 0, 10);
    const auto threads = s.get_uint_list("threads", {1, 1, 1, 1, 1, 1, 1}, 7, 7, 1, 1024);
    std::copy(threads.begin(), threads.end(), spec.threads.begin());
    spec.automatic = s.get_uint("auto", 0, 0, 1) == 1;
    s.reject_unread();
    return spec;
}

} // namespace burst
