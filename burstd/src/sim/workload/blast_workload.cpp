#include "sim/workload/blast_workload.hpp"

#include <cmath>

namespace burst {

std::vector<TraceJob> generate_blast(const BlastWorkloadSpec& spec)
{
    std::vector<TraceJob> jobs;
    WorkloadRandom random(spec.seed);
    JobId next_id = 1;
    auto add = [&](std::size_t stage, const std::string& step, double nominal, std::uint32_t cores,
                   std::vector<JobId> after) {
        TraceJob job;
        job.id = next_id++;
        job.runtime = std::max(1.0, std::round(nominal * (1 + spec.spread * (2 * random.uniform() - 1))));
        job.cpus = cores;
        job.user = job.account = "blast";
        job.partition = "local";
        job.name = "stage" + std::to_string(stage + 1) + "-" + step;
        job.category = "blast/" + job.name;
        job.parents = std::move(after);
        jobs.push_back(std::move(job));
        return jobs.back().id;
    };
    std::vector<JobId> previous;
    for (std::size_t s = 0; s < spec.tasks.size(); ++s) {
        const JobId split = add(s, "split", spec.split, 1, previous);
        std::vector<JobId> aligned;
        for (std::uint64_t t = 0; t < spec.tasks[s]; ++t)
            aligned.push_back(add(s, "align", double(spec.align[s]), spec.cores, {split}));
        previous = {add(s, "reduce", spec.reduce, 1, std::move(aligned))};
    }
    return jobs;
}

BlastWorkloadSpec parse_blast_spec(const std::string& text, std::uint64_t seed)
{
    WorkloadSpec s("blast", text);
    BlastWorkloadSpec spec = read_blast_spec(s, seed);
    s.reject_unread();
    return spec;
}

BlastWorkloadSpec read_blast_spec(WorkloadSpec& s, std::uint64_t seed)
{
    BlastWorkloadSpec spec;
    spec.seed = seed;
    // Stage count first: it sets how many numbers align must have.
    const std::vector<std::uint64_t> tasks = s.get_uint_list("tasks", spec.tasks, 1, 64, 1, 1000000);
    std::vector<std::uint64_t> align_default(tasks.size(), spec.align.front());
    if (tasks.size() == spec.align.size())
        align_default = spec.align;
    spec.tasks = tasks;
    spec.align = s.get_uint_list("align", align_default, tasks.size(), tasks.size(), 1, 10000000);
    spec.cores = std::uint32_t(s.get_uint("cores", spec.cores, 1, 1024));
    spec.split = s.get_double("split", spec.split, 1, 1e7);
    spec.reduce = s.get_double("reduce", spec.reduce, 1, 1e7);
    spec.spread = s.get_double("spread", spec.spread, 0, 0.99);
    return spec;
}

} // namespace burst
