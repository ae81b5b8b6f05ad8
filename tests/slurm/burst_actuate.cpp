// Command-line front of LibslurmActuator for tests/slurm/test_actuator.sh.
//   burst_actuate partitions JOBID P1,P2,...
//   burst_actuate cpus JOBID TASKS CPUS_PER_TASK NODECPUS[,NODECPUS...] [JOB_NODES]
//   burst_actuate requeue JOBID
//   burst_actuate place JOBID P1,P2,... [NODE|-] [hold|release|now[,...]]
//   burst_actuate power up|down|down-force|down-asap NODE[,NODE...]
//   burst_actuate addr NODE ADDRESS [HOSTNAME]
// Exit 0 on success, 1 when Slurm or validation refused (message on stderr),
// 2 on bad usage.  The actuator's log lines go to stdout.
#include "model/hostlist.hpp"
#include "slurm/libslurm_actuator.hpp"

#include <cstdint>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace burst;

namespace {

int usage()
{
    std::cerr << "usage: burst_actuate partitions JOBID P1,P2 | cpus JOBID TASKS CPT NODECPUS,... [JOB_NODES] |\n"
                 "       requeue JOBID | place JOBID P1,P2 [NODE|-] [hold|release|now,...] |\n"
                 "       power up|down|down-force|down-asap HOSTLIST | addr NODE ADDRESS [HOSTNAME]\n";
    return 2;
}

std::vector<std::string> split(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string part; std::getline(ss, part, ',');)
        out.push_back(part);
    return out;
}

std::uint32_t number(const std::string& s, const char* what)
{
    std::size_t used = 0;
    unsigned long v = 0;
    try {
        v = std::stoul(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != s.size() || s.empty() || v > 0xffffffffUL)
        throw std::invalid_argument(std::string(what) + ": expected a non-negative integer, got '" + s + "'");
    return static_cast<std::uint32_t>(v);
}

int report(const ActuatorError& err)
{
    if (err) {
        std::cerr << err.message << "\n";
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> a(argv + 1, argv + argc);
    if (a.empty())
        return usage();
    try {
        LibslurmActuator act("", [](const std::string& line) { std::cout << line << "\n"; });
        const std::string reason = "burst_actuate command line";
        if (a[0] == "partitions" && a.size() == 3)
            return report(act.set_job_partitions(number(a[1], "JOBID"), split(a[2]), reason));
        if (a[0] == "cpus" && (a.size() == 5 || a.size() == 6)) {
            Job job;
            job.id = number(a[1], "JOBID");
            job.node_count = a.size() == 6 ? number(a[5], "JOB_NODES") : 1;
            job.state = JobState::Pending;
            std::vector<Node> eligible;
            for (const auto& c : split(a[4])) {
                Node n;
                n.cpus = number(c, "NODECPUS");
                eligible.push_back(n);
            }
            auto change = JobCpuChange::validated(job, number(a[2], "TASKS"), number(a[3], "CPUS_PER_TASK"), eligible);
            return report(act.set_job_cpus(change, reason));
        }
        if (a[0] == "requeue" && a.size() == 2)
            return report(act.requeue_job(number(a[1], "JOBID"), reason));
        if (a[0] == "place" && a.size() >= 3 && a.size() <= 5) {
            // place JOBID PARTITIONS [NODE|-] [hold|release|now]...
            JobPlacement placement;
            placement.job = number(a[1], "JOBID");
            placement.partitions = split(a[2]);
            if (a.size() >= 4 && a[3] != "-")
                placement.node = a[3];
            if (a.size() == 5) {
                for (const auto& word : split(a[4]))
                    if (word == "hold")
                        placement.hold = JobPlacement::Hold::Hold;
                    else if (word == "release")
                        placement.hold = JobPlacement::Hold::Release;
                    else if (word == "now")
                        placement.start_now = true;
                    else
                        return usage();
            }
            return report(act.place_job(placement, reason));
        }
        if (a[0] == "power" && a.size() == 3) {
            static const std::map<std::string, PowerAction> kActions = {
                {"up", PowerAction::Up}, {"down", PowerAction::Down},
                {"down-force", PowerAction::DownForce}, {"down-asap", PowerAction::DownAsap}};
            auto it = kActions.find(a[1]);
            if (it == kActions.end())
                return usage();
            return report(act.power(expand_hostlist(a[2]), it->second, reason));
        }
        if (a[0] == "addr" && (a.size() == 3 || a.size() == 4))
            return report(act.set_node_instance(NodeInstance{a[1], a[2], a.size() == 4 ? a[3] : "", "", ""}, reason));
        if (a[0] == "instance" && a.size() == 4)
            return report(act.set_node_instance(NodeInstance{a[1], "", "", a[2], a[3]}, reason));
        return usage();
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
}
