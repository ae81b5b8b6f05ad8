#include "sim/report/reward_profit.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace burst {
namespace {

// Union-find over the replayed jobs: each set is one pipeline.
class Pipelines {
public:
    explicit Pipelines(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), std::size_t(0)); }

    std::size_t root(std::size_t i)
    {
        while (parent_[i] != i)
            i = parent_[i] = parent_[parent_[i]];
        return i;
    }
    void join(std::size_t a, std::size_t b) { parent_[root(a)] = root(b); }

private:
    std::vector<std::size_t> parent_;
};

struct PipelineSpan {
    std::uint32_t cores = 0; // its widest job's
    Time first_submit = 0;
    Time last_end = 0;
    bool seen = false;
};

} // namespace

RewardProfit reward_profit(const std::vector<TraceJob>& trace, const SimResult& result, const RewardScheme& scheme)
{
    const double scale = scheme.reward_scale < 0 ? scheme.lambda * 3600 : scheme.reward_scale;
    std::unordered_map<JobId, std::size_t> outcome_of;
    outcome_of.reserve(result.jobs.size());
    for (std::size_t i = 0; i < result.jobs.size(); ++i)
        outcome_of.emplace(result.jobs[i].id, i);
    Pipelines pipelines(result.jobs.size());
    for (const TraceJob& t : trace) {
        if (t.parents.empty())
            continue;
        const auto child = outcome_of.find(t.id);
        if (child == outcome_of.end())
            continue;
        for (JobId p : t.parents)
            if (const auto parent = outcome_of.find(p); parent != outcome_of.end())
                pipelines.join(child->second, parent->second);
    }
    std::vector<PipelineSpan> spans(result.jobs.size());
    RewardProfit p;
    double local_core_seconds = 0;
    for (std::size_t i = 0; i < result.jobs.size(); ++i) {
        const JobOutcome& j = result.jobs[i];
        PipelineSpan& s = spans[pipelines.root(i)];
        s.cores = std::max(s.cores, j.cpus);
        s.first_submit = s.seen ? std::min(s.first_submit, j.submit) : j.submit;
        s.last_end = s.seen ? std::max(s.last_end, j.end) : j.end;
        s.seen = true;
        if (j.group < 0)
            local_core_seconds += double(j.cpus) * (j.end - j.start);
    }
    for (const PipelineSpan& s : spans) {
        if (!s.seen)
            continue;
        const double d = double(s.cores);
        const double t = s.last_end - s.first_submit;
        p.time += d * (scheme.reward_max - t * scheme.lambda / 3600);
        p.throughput += d * scale / std::max(t, scheme.tau);
    }
    const double cost = result.cloud_cost + scheme.local_price * local_core_seconds / 3600;
    p.time -= cost;
    p.throughput -= cost;
    return p;
}

} // namespace burst
