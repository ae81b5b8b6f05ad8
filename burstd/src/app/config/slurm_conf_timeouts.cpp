#include "app/config/slurm_conf_timeouts.hpp"

#include "common/config_values.hpp"
#include "common/param_map.hpp"
#include "model/slurm_duration.hpp"

#include <fstream>
#include <sstream>

namespace burst {

namespace {

// SuspendTime's value: seconds, or never (NONE, INFINITE, -1); false when it is neither.
bool parse_suspend_time(const std::string& value, std::optional<Seconds>& out)
{
    if (auto n = parse_unsigned(value, 1u << 30)) {
        out = Seconds(*n);
        return true;
    }
    if (iequals(value, "NONE") || iequals(value, "INFINITE") || value == "-1") {
        out.reset();
        return true;
    }
    return false;
}

} // namespace

std::optional<Seconds> SlurmConfTimeouts::suspend_time_of(const std::string& partition) const
{
    auto it = partition_suspend_time.find(partition);
    return it != partition_suspend_time.end() ? it->second : suspend_time;
}

SlurmConfTimeouts read_slurm_conf_timeouts(const std::string& path)
{
    SlurmConfTimeouts t;
    std::ifstream in(path);
    if (!in) {
        t.error = path + ": cannot be read; assuming ResumeTimeout=" + std::to_string(int(t.resume_timeout));
        return t;
    }
    // PartitionName=DEFAULT sets what the partitions after it get.
    std::optional<std::optional<Seconds>> partition_default;
    std::optional<Seconds> max_time_default;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::string word, partition;
        bool first = true, node_line = false;
        std::optional<std::optional<Seconds>> partition_suspend = partition_default;
        std::optional<Seconds> partition_max_time = max_time_default;
        while (words >> word) {
            auto eq = word.find('=');
            if (eq == std::string::npos)
                continue;
            const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
            if (first) {
                first = false;
                if (iequals(key, "PartitionName")) {
                    partition = value;
                    continue;
                }
                node_line = iequals(key, "NodeName") || iequals(key, "NodeSet") || iequals(key, "DownNodes") ||
                            iequals(key, "FrontendName") || iequals(key, "SwitchName");
            }
            if (node_line)
                break;
            if (iequals(key, "SuspendTime")) {
                std::optional<Seconds> s;
                if (!parse_suspend_time(value, s)) {
                    t.error = path + ":" + std::to_string(number) + ": SuspendTime=" + value +
                              ": expected whole seconds, NONE, INFINITE or -1";
                    continue;
                }
                if (partition.empty())
                    t.suspend_time = s;
                else
                    partition_suspend = s;
                continue;
            }
            if (!partition.empty() && iequals(key, "MaxTime")) {
                Seconds max_time = 0;
                if (parse_slurm_duration(value, max_time))
                    partition_max_time = max_time;
                else
                    t.max_time_error = path + ":" + std::to_string(number) + ": MaxTime=" + value +
                              ": expected minutes, [days-]hours:minutes:seconds or the like, UNLIMITED or INFINITE";
                continue;
            }
            // A partition's own ResumeTimeout is not the one reconciliation uses.
            if (!partition.empty() || !iequals(key, "ResumeTimeout"))
                continue;
            auto n = parse_unsigned(value, 1u << 30);
            if (n)
                t.resume_timeout = Seconds(*n);
            else
                t.error = path + ":" + std::to_string(number) + ": ResumeTimeout=" + value +
                          ": expected whole seconds";
        }
        if (iequals(partition, "DEFAULT")) {
            partition_default = partition_suspend;
            max_time_default = partition_max_time;
            continue;
        }
        if (!partition.empty() && partition_suspend)
            t.partition_suspend_time[partition] = *partition_suspend;
        if (!partition.empty() && partition_max_time)
            t.partition_max_time[partition] = *partition_max_time;
    }
    return t;
}

} // namespace burst
