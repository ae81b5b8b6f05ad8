#include "sim/trace/trace_scaling.hpp"

#include <cmath>
#include <random>
#include <unordered_map>

namespace burst {
namespace {

// Beta(2, 2) as X/(X+Y), X and Y Gamma(2, 1) draws (each the sum of two exponentials).
double beta22(std::mt19937_64& rng)
{
    std::exponential_distribution<double> e(1);
    const double x = e(rng) + e(rng), y = e(rng) + e(rng);
    return x / (x + y);
}

// FNV-1a: the same draw for a category whatever the build.
std::uint64_t name_hash(const std::string& name)
{
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char ch : name)
        h = (h ^ ch) * 1099511628211ull;
    return h;
}

} // namespace

TraceScalingReport give_trace_scaling(std::vector<TraceJob>& jobs, double share, std::uint64_t seed)
{
    TraceScalingReport report;
    std::unordered_map<std::string, double> c_of;
    for (TraceJob& job : jobs) {
        if (job.scaling || job.category.empty())
            continue;
        if (!(id_spread(job.id, 2654435761u) < share)) // Knuth's multiplier
            continue;
        auto [it, fresh] = c_of.try_emplace(job.category.text(), 0);
        if (fresh) {
            std::mt19937_64 rng(name_hash(job.category.text()) ^ (seed * 0x9e3779b97f4a7c15ull));
            it->second = beta22(rng);
        }
        job.scaling = TraceScaling{it->second, 1, true, 0};
        ++report.auto_jobs;
    }
    report.categories = c_of.size();
    return report;
}

void teach_trace_scaling(ScalingBook& book, const std::vector<TraceJob>& jobs)
{
    struct Category {
        double c = 0;
        double seconds = 0;
        std::size_t jobs = 0;
    };
    std::unordered_map<std::string, Category> categories;
    // Jobs with a size hint are learned by size, from their own runs.
    for (const TraceJob& job : jobs)
        if (job.scaling && job.scaling->automatic && !(job.scaling->size > 0) && job.true_runtime() > 0) {
            Category& c = categories[job.category.text()];
            c.c = job.scaling->c;
            c.seconds += job.true_runtime() * job.scaling->stretch(1);
            ++c.jobs;
        }
    for (const auto& [name, c] : categories) {
        const double single = c.seconds / double(c.jobs);
        for (int round = 0; round < 2; ++round)
            for (std::uint32_t t : {1u, 2u, 4u}) {
                JobEnd run;
                run.category = name;
                run.cpus = run.cpus_per_task = t;
                run.elapsed = single * (c.c / t + 1 - c.c);
                run.state = "COMPLETED";
                book.observe(run);
            }
    }
}

} // namespace burst
