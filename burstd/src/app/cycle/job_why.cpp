#include "app/cycle/job_why.hpp"

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
            if (job.may_run_in(group_partition(g))) {
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
                                     Time now, SlurmActuator& actuator, Logger& log)
{
    std::unordered_map<JobId, Sent> in_flight;
    std::size_t sent = 0, failed = 0;
    for (const auto& job : snapshot.jobs) {
        if (!job.pending())
            continue;
        std::string shown = job.why;
        if (auto s = sent_.find(job.id); s != sent_.end() && s->second.at >= snapshot.time) {
            shown = s->second.word; // sent after this snapshot was taken
            in_flight.emplace(job.id, s->second);
        }
        auto wanted = whys.find(job.id);
        const std::string word = wanted == whys.end() ? "" : wanted->second;
        if (word == shown || sent + failed == kMaxWhyUpdates)
            continue;
        if (auto err = actuator.set_job_why(job.id, word)) {
            ++failed;
            log.verbose("why: " + err.message);
            continue;
        }
        ++sent;
        in_flight[job.id] = Sent{word, now};
    }
    if (failed)
        log.info("why: " + std::to_string(failed) + " job(s) kept their last word (Slurm said no; see verbose log)");
    sent_ = std::move(in_flight);
    return sent;
}

} // namespace burst
