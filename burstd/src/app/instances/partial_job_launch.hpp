#pragma once
// What becomes of a multi-node job when not every node Slurm resumed for it
// gets an instance (burstd.conf PartialJobLaunch=): its instances are
// terminated either way; the job is then requeued to wait for nodes again,
// or held until a person releases it.

#include <optional>
#include <string_view>

namespace burst {

enum class PartialJobLaunch { Requeue, Hold };

std::string_view to_string(PartialJobLaunch what);
std::optional<PartialJobLaunch> parse_partial_job_launch(std::string_view word);

} // namespace burst
