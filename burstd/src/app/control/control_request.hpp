#pragma once
// burstctl -> burstd requests on the control socket: one JSON object per line.
//   {"cmd":"status"}
//   {"cmd":"resume","nodes":"c[1-3]","resume_file":{...SLURM_RESUME_FILE...}}
//   {"cmd":"suspend","nodes":"c[1-3]"}      {"cmd":"resume-fail","nodes":"c2"}
//   {"cmd":"reset-group","group":"aws-c5"}  (end a node group's back-off now)
//   {"cmd":"explain","job":42}              (what the last cycle decided about job 42)
// Every reply is one JSON object line: {"ok":true,...} or {"ok":false,"error":"..."}.

#include "model/job.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

enum class ControlCommand { Status, Resume, Suspend, ResumeFail, ResetGroup, Explain };

struct ControlRequest {
    ControlCommand command = ControlCommand::Status;
    std::string group;               // reset-group
    JobId job = 0;                   // explain
    std::string hostlist;            // as given
    std::vector<std::string> nodes;  // expanded
    // From SLURM_RESUME_FILE: the jobs the resumed nodes are for.
    std::map<JobId, std::vector<std::string>> jobs;
};

struct ParsedControlRequest {
    std::optional<ControlRequest> request;
    std::string error;
};

ParsedControlRequest parse_control_request(std::string_view line);

std::string_view to_string(ControlCommand command);

} // namespace burst
