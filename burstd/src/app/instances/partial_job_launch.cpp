#include "app/instances/partial_job_launch.hpp"

namespace burst {

std::string_view to_string(PartialJobLaunch what) { return what == PartialJobLaunch::Hold ? "hold" : "requeue"; }

std::optional<PartialJobLaunch> parse_partial_job_launch(std::string_view word)
{
    if (word == "requeue")
        return PartialJobLaunch::Requeue;
    if (word == "hold")
        return PartialJobLaunch::Hold;
    return std::nullopt;
}

} // namespace burst
