#include "app/control/control_request.hpp"

#include "common/json_ref.hpp"
#include "model/hostlist.hpp"

#include <jansson.h>

namespace burst {

std::string_view to_string(ControlCommand command)
{
    switch (command) {
    case ControlCommand::Status: return "status";
    case ControlCommand::Resume: return "resume";
    case ControlCommand::Suspend: return "suspend";
    case ControlCommand::ResumeFail: return "resume-fail";
    case ControlCommand::ResetGroup: return "reset-group";
    case ControlCommand::Explain: return "explain";
    }
    return "status";
}

namespace {

// SLURM_RESUME_FILE: {"all_nodes":"...","jobs":[{"job_id":N,"nodes":"..."},...]} in Slurm 22.05
// (power_save.c); later releases call the keys all_nodes_resume and nodes_resume.
std::string parse_resume_file(json_t* file, ControlRequest& request)
{
    if (!json_is_object(file))
        return "resume_file: expected object";
    json_t* jobs = json_object_get(file, "jobs");
    if (!jobs)
        return "";
    if (!json_is_array(jobs))
        return "resume_file.jobs: expected array";
    for (std::size_t i = 0; i < json_array_size(jobs); ++i) {
        std::string path = "resume_file.jobs[" + std::to_string(i) + "]";
        json_t* job = json_array_get(jobs, i);
        json_t* id = json_object_get(job, "job_id");
        const char* key = json_object_get(job, "nodes_resume") ? "nodes_resume" : "nodes";
        json_t* nodes = json_object_get(job, key);
        if (!json_is_integer(id) || json_integer_value(id) <= 0 || json_integer_value(id) > json_int_t(UINT32_MAX))
            return path + ".job_id: expected positive integer";
        if (!json_is_string(nodes))
            return path + "." + key + ": expected string";
        try {
            request.jobs[JobId(json_integer_value(id))] = expand_hostlist(json_string_value(nodes));
        } catch (const HostlistError& e) {
            return path + "." + key + ": " + e.what();
        }
    }
    return "";
}

} // namespace

ParsedControlRequest parse_control_request(std::string_view line)
{
    ParsedControlRequest out;
    json_error_t jerr;
    JsonRef root(json_loadb(line.data(), line.size(), JSON_REJECT_DUPLICATES, &jerr));
    if (!root || !json_is_object(root.get())) {
        out.error = root ? "expected a JSON object" : std::string("invalid JSON: ") + jerr.text;
        return out;
    }
    ControlRequest request;
    json_t* cmd = json_object_get(root.get(), "cmd");
    if (!json_is_string(cmd)) {
        out.error = "cmd: expected string";
        return out;
    }
    std::string word = json_string_value(cmd);
    bool known = false;
    for (ControlCommand c : {ControlCommand::Status, ControlCommand::Resume, ControlCommand::Suspend,
                             ControlCommand::ResumeFail, ControlCommand::ResetGroup, ControlCommand::Explain})
        if (word == to_string(c)) {
            request.command = c;
            known = true;
        }
    if (!known) {
        out.error =
            "cmd: expected one of status, resume, suspend, resume-fail, reset-group, explain, got \"" + word + "\"";
        return out;
    }
    if (request.command == ControlCommand::ResetGroup) {
        json_t* group = json_object_get(root.get(), "group");
        if (!json_is_string(group) || !*json_string_value(group)) {
            out.error = "group: expected a node group name";
            return out;
        }
        request.group = json_string_value(group);
    } else if (request.command == ControlCommand::Explain) {
        json_t* job = json_object_get(root.get(), "job");
        if (!json_is_integer(job) || json_integer_value(job) <= 0 || json_integer_value(job) > json_int_t(UINT32_MAX)) {
            out.error = "job: expected a job id (a positive integer)";
            return out;
        }
        request.job = JobId(json_integer_value(job));
    } else if (request.command != ControlCommand::Status) {
        json_t* nodes = json_object_get(root.get(), "nodes");
        if (!json_is_string(nodes)) {
            out.error = "nodes: expected a hostlist string";
            return out;
        }
        request.hostlist = json_string_value(nodes);
        try {
            request.nodes = expand_hostlist(request.hostlist);
        } catch (const HostlistError& e) {
            out.error = std::string("nodes: ") + e.what();
            return out;
        }
        if (request.nodes.empty()) {
            out.error = "nodes: expected at least one node";
            return out;
        }
        if (json_t* file = json_object_get(root.get(), "resume_file")) {
            out.error = parse_resume_file(file, request);
            if (!out.error.empty())
                return out;
        }
    }
    out.request = std::move(request);
    return out;
}

} // namespace burst
