#include "model/job_dependency.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string_view>

namespace burst {

namespace {

template <class KeepType>
std::vector<JobId> job_ids(const std::string& dependency, KeepType keep)
{
    std::vector<JobId> ids;
    std::size_t i = 0;
    const std::size_t n = dependency.size();
    while (i < n) {
        // One item: "type:id[:id...]" up to ',' or '?'.
        std::size_t end = dependency.find_first_of(",?", i);
        if (end == std::string::npos)
            end = n;
        std::size_t colon = dependency.find(':', i);
        if (colon != std::string::npos && colon < end && !keep(std::string_view(dependency).substr(i, colon - i)))
            colon = std::string::npos;
        while (colon != std::string::npos && colon < end) {
            std::size_t p = colon + 1;
            std::uint64_t id = 0;
            bool digits = false;
            while (p < end && std::isdigit(static_cast<unsigned char>(dependency[p])) && id <= UINT32_MAX) {
                id = id * 10 + std::uint64_t(dependency[p] - '0');
                digits = true;
                ++p;
            }
            // An id ends at ':' (next id), '_' (array task), '+' (delay) or '(' (state).
            const bool ended = p == end || dependency[p] == ':' || dependency[p] == '_' || dependency[p] == '+' ||
                               dependency[p] == '(';
            if (digits && ended && id > 0 && id <= UINT32_MAX &&
                std::find(ids.begin(), ids.end(), JobId(id)) == ids.end())
                ids.push_back(JobId(id));
            colon = dependency.find(':', colon + 1);
        }
        i = end + 1;
    }
    return ids;
}

} // namespace

std::vector<JobId> dependency_job_ids(const std::string& dependency)
{
    return job_ids(dependency, [](std::string_view) { return true; });
}

std::vector<JobId> ended_dependency_job_ids(const std::string& dependency)
{
    return job_ids(dependency, [](std::string_view type) {
        return type == "afterok" || type == "afterany" || type == "aftercorr";
    });
}

} // namespace burst
