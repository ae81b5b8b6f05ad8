#include "app/cycle/job_why.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace burst {
namespace {

std::string verdict_word(const JobVerdict& v)
{
    if (v.burst)
        return ""; // its route shows in its partitions, or the budget held it
    if (std::isfinite(v.local_start) && v.local_start <= 0)
        return "local:starts-now";
    return v.group.empty() ? "local:no-group" : "local:cheaper";
}

} // namespace

std::unordered_map<JobId, std::string> job_whys(const CycleOutcome& outcome, const Snapshot& snapshot,
                                                const std::vector<NodeGroup>& groups)
{
    std::unordered_map<JobId, const JobVerdict*> last_verdict;
    for (const auto& v : outcome.verdicts)
        last_verdict[v.verdict.job] = &v.verdict;
    const std::unordered_set<JobId> held(outcome.held_by_budget.begin(), outcome.held_by_budget.end());
    std::unordered_map<JobId, std::string> whys;
    for (const auto& job : snapshot.jobs) {
        if (!job.pending() || job.burst == BurstOption::Never)
            continue;
        std::string word;
        for (const auto& g : groups)
            if (std::find(job.partitions.begin(), job.partitions.end(), group_partition(g)) != job.partitions.end()) {
                word = "cloud:" + g.name;
                break;
            }
        if (word.empty() && held.count(job.id))
            word = "budget";
        if (word.empty())
            if (auto v = last_verdict.find(job.id); v != last_verdict.end())
                word = verdict_word(*v->second);
        if (!word.empty())
            whys.emplace(job.id, word.substr(0, kMaxWhy));
    }
    return whys;
}

std::size_t JobWhyPublisher::publish(const std::unordered_map<JobId, std::string>& whys, const Snapshot& snapshot,
                                     SlurmActuator& actuator, Logger& log)
{
    std::unordered_map<JobId, std::string> shown;
    std::size_t sent = 0, failed = 0;
    for (const auto& job : snapshot.jobs) {
        if (!job.pending())
            continue;
        auto was = shown_.find(job.id);
        const std::string before = was == shown_.end() ? "" : was->second;
        auto now = whys.find(job.id);
        const std::string after = now == whys.end() ? "" : now->second;
        if (before == after || sent + failed == kMaxWhyUpdates) {
            if (!before.empty())
                shown.emplace(job.id, before);
            continue;
        }
        if (auto err = actuator.set_job_why(job.id, after)) {
            ++failed;
            log.verbose("why: " + err.message);
            if (!before.empty())
                shown.emplace(job.id, before);
            continue;
        }
        ++sent;
        if (!after.empty())
            shown.emplace(job.id, after);
    }
    if (failed)
        log.info("why: " + std::to_string(failed) + " job(s) kept their last word (Slurm said no; see verbose log)");
    shown_ = std::move(shown);
    return sent;
}

} // namespace burst
