#include "app/warm/scavenger_guard.hpp"

#include <algorithm>

namespace burst {

ResumeSplit split_scavenger_resumes(const std::vector<std::string>& nodes,
                                    const std::map<JobId, std::vector<std::string>>& jobs,
                                    const std::function<bool(JobId)>& is_scavenger)
{
    std::map<JobId, bool> scavenger;
    auto asked = [&](JobId id) {
        auto it = scavenger.find(id);
        return it != scavenger.end() ? it->second : scavenger.emplace(id, is_scavenger(id)).first->second;
    };
    ResumeSplit split;
    for (const auto& node : nodes) {
        bool wanted = false, real = false;
        for (const auto& [id, job_nodes] : jobs)
            if (std::find(job_nodes.begin(), job_nodes.end(), node) != job_nodes.end()) {
                wanted = true;
                real = real || !asked(id);
            }
        (wanted && !real ? split.refuse : split.launch).push_back(node);
    }
    return split;
}

} // namespace burst
