#include "policy/token_waves.hpp"

#include "model/job_dependency.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace burst {
namespace {

double weight(const Job& j)
{
    return j.burst == BurstOption::Never ? 0.0 : double(j.total_cpus());
}

void add(std::vector<double>& waves, std::size_t level, double cores)
{
    if (waves.size() <= level)
        waves.resize(level + 1, 0.0);
    waves[level] += cores;
}

} // namespace

std::map<std::string, std::vector<double>> token_waves(const Snapshot& snapshot)
{
    std::map<std::string, std::vector<double>> out;
    std::vector<const Job*> jobs;
    jobs.reserve(snapshot.jobs.size());
    bool any_dependency = false;
    for (const auto& j : snapshot.jobs)
        if (j.pending() || j.running()) {
            jobs.push_back(&j);
            any_dependency = any_dependency || (j.pending() && !j.dependency.empty());
        }
    if (!any_dependency) {
        for (const Job* j : jobs)
            add(out[j->account], 0, weight(*j));
        return out;
    }
    std::unordered_map<JobId, std::uint32_t> index;
    index.reserve(jobs.size());
    for (std::uint32_t i = 0; i < jobs.size(); ++i)
        index.emplace(jobs[i]->id, i);
    // Kahn's algorithm, each job's wave one past its latest parent's.
    std::vector<std::vector<std::uint32_t>> children(jobs.size());
    std::vector<std::uint32_t> waiting(jobs.size(), 0), level(jobs.size(), 0);
    for (std::uint32_t i = 0; i < jobs.size(); ++i) {
        if (!jobs[i]->pending() || jobs[i]->dependency.empty())
            continue;
        for (JobId p : dependency_job_ids(jobs[i]->dependency)) {
            auto it = index.find(p);
            if (it == index.end() || it->second == i)
                continue; // ended (or a self-reference Slurm would reject)
            children[it->second].push_back(i);
            ++waiting[i];
        }
    }
    std::vector<std::uint32_t> ready;
    for (std::uint32_t i = 0; i < jobs.size(); ++i)
        if (waiting[i] == 0)
            ready.push_back(i);
    while (!ready.empty()) {
        const std::uint32_t i = ready.back();
        ready.pop_back();
        add(out[jobs[i]->account], level[i], weight(*jobs[i]));
        for (auto c : children[i]) {
            level[c] = std::max(level[c], level[i] + 1);
            if (--waiting[c] == 0)
                ready.push_back(c);
        }
    }
    return out;
}

double visited_cores(const std::vector<double>& waves, double depth)
{
    double sum = 0;
    for (std::size_t k = 0; k < waves.size() && double(k) < depth; ++k)
        sum += waves[k];
    return sum;
}

double widest_wave(const std::vector<double>& waves, double depth)
{
    double widest = 0;
    for (std::size_t k = 0; k < waves.size() && double(k) < depth; ++k)
        widest = std::max(widest, waves[k]);
    return widest;
}

} // namespace burst
