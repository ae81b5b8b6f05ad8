#include "slurm/libslurm_actuator.hpp"

#include "model/hostlist.hpp"
#include "slurm/libslurm_compat.hpp"

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <csignal>
#include <cstdint>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <thread>

#include <unistd.h>
#include <vector>

namespace burst {

std::string_view to_string(PowerAction action)
{
    switch (action) {
    case PowerAction::Up: return "POWER_UP";
    case PowerAction::Down: return "POWER_DOWN";
    case PowerAction::DownForce: return "POWER_DOWN_FORCE";
    case PowerAction::DownAsap: return "POWER_DOWN_ASAP";
    }
    return "unknown";
}

std::string check_slurm_name(std::string_view kind, const std::string& name)
{
    if (name.empty())
        return std::string(kind) + " name is empty";
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
            return std::string(kind) + " name '" + name + "' contains '" + std::string(1, c) + "'";
    return {};
}

namespace {

// The largest --nice Slurm accepts (its NICE_OFFSET - 3): the lowest priority.
constexpr std::uint32_t kLowestNice = 2147483645;

// The node_state values scontrol's update_node.c sends for each word (22.05).
uint32_t node_state_for(PowerAction action)
{
    switch (action) {
    case PowerAction::Up: return NODE_STATE_POWER_UP;
    case PowerAction::Down: return NODE_STATE_POWER_DOWN;
    case PowerAction::DownForce: return NODE_STATE_POWER_DOWN | NODE_STATE_POWERED_DOWN;
    case PowerAction::DownAsap: return NODE_STATE_POWER_DOWN | NODE_STATE_POWER_DRAIN;
    }
    return NO_VAL;
}

// The RPC did not reach slurmctld (refused connection, failed send): it
// changed nothing, so it may be sent again.  slurmctld restarting (scontrol
// reconfigure re-executes it from 23.11 on) does this.  A failed libslurm
// call can also leave a stale errno (EINTR from a poll it retried) where the
// transport failed without setting its own.
bool unsent(int err)
{
    switch (err) {
    case EINTR:
    case EAGAIN:
    case ECONNREFUSED:
    case SLURM_COMMUNICATIONS_CONNECTION_ERROR:
    case SLURM_COMMUNICATIONS_SEND_ERROR:
    case SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR:
    case SLURMCTLD_COMMUNICATIONS_SEND_ERROR:
        return true;
    default:
        return false;
    }
}

} // namespace

LibslurmActuator::LibslurmActuator(const std::string& slurm_conf, ActuatorLog log) : log_(std::move(log))
{
    // libslurm exits the process on a configuration it cannot read: check first.
    const char* conf = slurm_conf.empty() ? std::getenv("SLURM_CONF") : slurm_conf.c_str();
    if (conf && ::access(conf, R_OK) != 0)
        throw std::invalid_argument("slurm actuator: cannot read slurm.conf " + std::string(conf));
    slurm_init(slurm_conf.empty() ? nullptr : slurm_conf.c_str());
}

LibslurmActuator::~LibslurmActuator()
{
    slurm_fini();
}

int LibslurmActuator::repeat_unsent(const std::function<int()>& rpc)
{
    const int rc = rpc();
    if (rc == SLURM_SUCCESS || !unsent(errno))
        return rc;
    const int first_errno = errno;
    {
        std::lock_guard<std::mutex> lock(repeat_guard_);
        if (std::chrono::steady_clock::now() < no_repeat_until_) {
            errno = first_errno;
            return rc;
        }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const int again = rpc();
    const int again_errno = errno;
    if (again != SLURM_SUCCESS && unsent(again_errno)) {
        std::lock_guard<std::mutex> lock(repeat_guard_);
        no_repeat_until_ = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    }
    errno = again_errno;
    return again;
}

ActuatorError LibslurmActuator::outcome(int rc, const std::string& what, std::string_view reason)
{
    if (rc == SLURM_SUCCESS) {
        log_(what + ": done (" + std::string(reason) + ")");
        return {};
    }
    ActuatorError err{what + ": " + slurm_strerror(errno)};
    log_(err.message + " (" + std::string(reason) + ")");
    return err;
}

ActuatorError LibslurmActuator::set_job_partitions(JobId job, const std::vector<std::string>& partitions,
                                                   std::string_view reason)
{
    std::string list;
    for (const auto& p : partitions) {
        if (auto bad = check_slurm_name("partition", p); !bad.empty())
            return {"job " + std::to_string(job) + " partitions: " + bad};
        list += (list.empty() ? "" : ",") + p;
    }
    if (list.empty())
        return {"job " + std::to_string(job) + ": an empty partition list"};
    job_desc_msg_t desc;
    slurm_init_job_desc_msg(&desc); // every field NO_VAL/NULL = unchanged
    desc.job_id = job;
    desc.partition = list.data();
    return outcome(repeat_unsent([&] { return slurm_update_job(&desc); }),
                   "job " + std::to_string(job) + " Partition=" + list, reason);
}

ActuatorError LibslurmActuator::set_job_cpus(const JobCpuChange& change, std::string_view reason)
{
    job_desc_msg_t desc;
    slurm_init_job_desc_msg(&desc);
    desc.job_id = change.job();
    desc.min_cpus = change.min_cpus();
    desc.cpus_per_task = static_cast<uint16_t>(change.cpus_per_task());
    desc.num_tasks = change.num_tasks();
    return outcome(repeat_unsent([&] { return slurm_update_job(&desc); }),
                   "job " + std::to_string(change.job()) + " NumCPUs=" + std::to_string(change.min_cpus()) +
                       " CPUsPerTask=" + std::to_string(change.cpus_per_task()) +
                       " NumTasks=" + std::to_string(change.num_tasks()),
                   reason);
}

ActuatorError LibslurmActuator::set_job_why(JobId job, std::string_view why)
{
    const bool printable = std::all_of(why.begin(), why.end(), [](char c) { return c > ' ' && c < 127 && c != ','; });
    if (!printable || why.size() > kMaxWhy)
        return {"job " + std::to_string(job) + " why:" + std::string(why) + ": not one word of at most " +
                std::to_string(kMaxWhy) + " printable characters"};
    std::string text = "why:" + std::string(why);
    job_desc_msg_t desc;
    slurm_init_job_desc_msg(&desc);
    desc.job_id = job;
    desc.admin_comment = text.data();
    return outcome(repeat_unsent([&] { return slurm_update_job(&desc); }),
                   "job " + std::to_string(job) + " AdminComment " + text, "the reason users see");
}

ActuatorError LibslurmActuator::submit_placeholder(const PlaceholderJob& job, std::string_view reason, JobId& id)
{
    for (const auto& [kind, word] : {std::pair{"partition", &job.partition}, {"QOS", &job.qos}, {"job", &job.name}})
        if (auto bad = check_slurm_name(kind, *word); !bad.empty())
            return {"placeholder: " + bad};
    for (const auto& node : job.excluded_nodes)
        if (auto bad = check_slurm_name("excluded node", node); !bad.empty())
            return {"placeholder: " + bad};
    // What `sbatch -p P --qos Q -J NAME -N1 --exclusive --nice=<most>
    // --no-requeue -o /dev/null` sends, with a script that only waits; an
    // interactive hold instead of --exclusive --nice: -n1 -c CPUS --mem=1M
    // --priority=<highest> --exclude=NODES.
    std::string script = "#!/bin/sh\nexec sleep infinity\n";
    std::string partition = job.partition, qos = job.qos, name = job.name;
    std::string excluded = job.excluded_nodes.empty() ? "" : compress_hostlist(job.excluded_nodes);
    std::string work_dir = "/", out = "/dev/null";
    std::string env_entry = "SLURM_BURST_PLACEHOLDER=1";
    char* environment[] = {env_entry.data(), nullptr};
    job_desc_msg_t desc;
    slurm_init_job_desc_msg(&desc);
    desc.script = script.data();
    desc.partition = partition.data();
    desc.qos = qos.data();
    desc.name = name.data();
    desc.min_nodes = 1;
    desc.max_nodes = 1;
    if (job.cpus == 0) {
        desc.shared = 0; // --exclusive: the whole node is warm, or none of it
        desc.nice = NICE_OFFSET + kLowestNice;
    } else {
        desc.num_tasks = 1;
        desc.cpus_per_task = std::uint16_t(std::min<std::uint32_t>(job.cpus, UINT16_MAX - 2));
        desc.min_cpus = desc.cpus_per_task;
        // --mem=1M: with memory a consumable resource and no DefMemPerCPU,
        // Slurm would give a job asking none the whole node's memory.
        desc.pn_min_memory = 1;
        desc.priority = kInteractiveHoldPriority;
    }
    if (!excluded.empty())
        desc.exc_nodes = excluded.data();
    desc.requeue = 0;
    desc.user_id = ::getuid();
    desc.group_id = ::getgid();
    desc.work_dir = work_dir.data();
    desc.std_out = out.data();
    desc.std_err = out.data();
    desc.environment = environment;
    desc.env_size = 1;
    submit_response_msg_t* response = nullptr;
    const std::string what = "submit placeholder " + name + " Partition=" + partition + " QOS=" + qos;
    ActuatorError err = outcome(slurm_submit_batch_job(&desc, &response), what, reason);
    if (!err && response)
        id = response->job_id;
    slurm_free_submit_response_response_msg(response);
    return err;
}

ActuatorError LibslurmActuator::cancel_job(JobId job, std::string_view reason)
{
    return outcome(slurm_kill_job(job, SIGKILL, 0), "cancel job " + std::to_string(job), reason);
}

ActuatorError LibslurmActuator::hold_job(JobId job, std::string_view reason)
{
    job_desc_msg_t desc;
    slurm_init_job_desc_msg(&desc);
    desc.job_id = job;
    desc.priority = 0; // what `scontrol hold` sends
    return outcome(repeat_unsent([&] { return slurm_update_job(&desc); }), "hold job " + std::to_string(job), reason);
}

ActuatorError LibslurmActuator::requeue_job(JobId job, std::string_view reason)
{
    const int rc = repeat_unsent([&] { return slurm_requeue(job, 0); });
    const int refusal = errno;
    ActuatorError e = outcome(rc, "requeue job " + std::to_string(job), reason);
    e.never_requeueable = rc != SLURM_SUCCESS && (refusal == ESLURM_DISABLED || refusal == ESLURM_BATCH_ONLY);
    return e;
}

ActuatorError LibslurmActuator::place_job(const JobPlacement& placement, std::string_view reason)
{
    const std::string job = "job " + std::to_string(placement.job);
    std::string partitions;
    for (const auto& p : placement.partitions) {
        if (auto bad = check_slurm_name("partition", p); !bad.empty())
            return {job + " partitions: " + bad};
        partitions += (partitions.empty() ? "" : ",") + p;
    }
    if (partitions.empty())
        return {job + ": an empty partition list"};
    std::string node = placement.node;
    if (!node.empty())
        if (auto bad = check_slurm_name("node", node); !bad.empty())
            return {job + " ReqNodeList: " + bad};
    job_desc_msg_t desc;
    slurm_init_job_desc_msg(&desc);
    desc.job_id = placement.job;
    desc.partition = partitions.data();
    desc.req_nodes = node.data(); // "" clears it
    std::string what = job + " Partition=" + partitions + " ReqNodeList=" + node;
    if (placement.hold != JobPlacement::Hold::Unchanged) {
        const bool hold = placement.hold == JobPlacement::Hold::Hold;
        desc.priority = hold ? 0 : INFINITE; // what `scontrol hold` and `scontrol release` send
        what += hold ? " (held)" : " (released)";
    }
    if (placement.start_now) {
        desc.begin_time = ::time(nullptr);
        what += " StartTime=now";
    }
    return outcome(repeat_unsent([&] { return slurm_update_job(&desc); }), what, reason);
}

ActuatorError LibslurmActuator::power(const std::vector<std::string>& nodes, PowerAction action,
                                      std::string_view reason)
{
    if (nodes.empty())
        return {};
    for (const auto& n : nodes)
        if (auto bad = check_slurm_name("node", n); !bad.empty())
            return {std::string(to_string(action)) + ": " + bad};
    std::string hostlist = compress_hostlist(nodes);
    update_node_msg_t msg;
    slurm_init_update_node_msg(&msg);
    msg.node_names = hostlist.data();
    msg.node_state = node_state_for(action);
    return outcome(repeat_unsent([&] { return slurm_update_node(&msg); }),
                   "nodes " + hostlist + " State=" + std::string(to_string(action)), reason);
}

ActuatorError LibslurmActuator::set_node_instance(const NodeInstance& instance, std::string_view reason)
{
    const std::string& node = instance.node;
    if (auto bad = check_slurm_name("node", node); !bad.empty())
        return {"set instance: " + bad};
    if (instance.hostname.size() && instance.address.empty())
        return {"node " + node + ": NodeHostname " + instance.hostname + " without a NodeAddr"};
    for (const std::string* s : {&instance.address, &instance.hostname})
        for (char c : *s)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == ':'))
                return {"node " + node + ": address or hostname '" + *s + "' contains '" + std::string(1, c) + "'"};
    // Provider ids and types are words (i-0abc, projects/p/zones/z/instances/n,
    // m5.large): anything else would not survive slurm.conf-style parsing.
    for (const std::string* s : {&instance.instance_id, &instance.instance_type})
        for (char c : *s)
            if (!std::isgraph(static_cast<unsigned char>(c)) || c == '=')
                return {"node " + node + ": instance id or type '" + *s + "' contains '" + std::string(1, c) + "'"};
    std::string name = node, addr = instance.address, host = instance.hostname, id = instance.instance_id,
                type = instance.instance_type;
    update_node_msg_t msg;
    slurm_init_update_node_msg(&msg);
    msg.node_names = name.data();
    std::string what = "node " + node;
    if (!addr.empty()) {
        msg.node_addr = addr.data();
        what += " NodeAddr=" + addr;
    }
    if (!host.empty()) {
        msg.node_hostname = host.data();
        what += " NodeHostname=" + host;
    }
    bool instance_fields = slurm_compat::kNodesKeepInstances && (!id.empty() || !type.empty());
    if (instance_fields) {
        slurm_compat::set_instance(msg, id.empty() ? nullptr : id.data(), type.empty() ? nullptr : type.data());
        what += (id.empty() ? "" : " InstanceId=" + id) + (type.empty() ? "" : " InstanceType=" + type);
    }
    if (addr.empty() && !instance_fields)
        return {}; // nothing this release keeps
    return outcome(repeat_unsent([&] { return slurm_update_node(&msg); }), what, reason);
}

ActuatorError LibslurmActuator::hand_back_node(const std::string& node, std::string_view reason,
                                              const std::vector<JobId>& meant_for, std::vector<JobId>& released)
{
    if (auto bad = check_slurm_name("node", node); !bad.empty())
        return {"hand back: " + bad};
    // Jobs on the node now: after the requeue Slurm no longer says where they ran.
    std::vector<JobId> on_node;
    job_info_msg_t* loaded = nullptr;
    if (slurm_load_jobs(0, &loaded, SHOW_ALL) != SLURM_SUCCESS) {
        log_("node " + node + ": cannot list its jobs (" + slurm_strerror(errno) +
             "); they will be requeued but wait for Slurm's BeginTime");
    } else {
        std::unique_ptr<job_info_msg_t, decltype(&slurm_free_job_info_msg)> jobs(loaded, &slurm_free_job_info_msg);
        for (uint32_t i = 0; i < jobs->record_count; ++i) {
            const slurm_job_info_t& j = jobs->job_array[i];
            if ((j.job_state & JOB_STATE_BASE) != JOB_RUNNING || !j.nodes)
                continue;
            try {
                std::vector<std::string> names = expand_hostlist(j.nodes);
                if (std::find(names.begin(), names.end(), node) != names.end())
                    on_node.push_back(j.job_id);
            } catch (const HostlistError&) {
                // Slurm's own hostlist syntax beyond ours: not a cloud node we manage.
            }
        }
    }
    std::string name = node, why(reason);
    update_node_msg_t msg;
    slurm_init_update_node_msg(&msg);
    msg.node_names = name.data();
    msg.node_state = NODE_STATE_DOWN;
    msg.reason = why.data();
    msg.reason_uid = ::getuid();
    // DOWN on a node already powered down is refused; the power-down still matters.
    (void)outcome(repeat_unsent([&] { return slurm_update_node(&msg); }), "node " + node + " State=DOWN", reason);
    if (auto err = power({node}, PowerAction::DownForce, reason))
        return err;
    for (JobId id : meant_for)
        if (std::find(on_node.begin(), on_node.end(), id) == on_node.end())
            on_node.push_back(id);
    for (JobId id : on_node) {
        job_desc_msg_t desc;
        slurm_init_job_desc_msg(&desc);
        desc.job_id = id;
        desc.begin_time = ::time(nullptr);
        if (!outcome(repeat_unsent([&] { return slurm_update_job(&desc); }),
                     "job " + std::to_string(id) + " StartTime=now (requeued from " + node + ")", reason))
            released.push_back(id);
    }
    return {};
}

ActuatorError LibslurmActuator::drain(const std::vector<std::string>& nodes, std::string_view reason)
{
    if (nodes.empty())
        return {};
    for (const auto& n : nodes)
        if (auto bad = check_slurm_name("node", n); !bad.empty())
            return {"drain: " + bad};
    std::string hostlist = compress_hostlist(nodes), why(reason);
    update_node_msg_t msg;
    slurm_init_update_node_msg(&msg);
    msg.node_names = hostlist.data();
    msg.node_state = NODE_STATE_DRAIN;
    msg.reason = why.data();
    msg.reason_uid = ::getuid();
    return outcome(repeat_unsent([&] { return slurm_update_node(&msg); }), "nodes " + hostlist + " State=DRAIN",
                   reason);
}

ActuatorError LibslurmActuator::undrain_own(const std::vector<std::string>& nodes, std::string_view reason_prefix,
                                            std::vector<std::string>& cleared)
{
    if (nodes.empty())
        return {};
    for (const auto& n : nodes)
        if (auto bad = check_slurm_name("node", n); !bad.empty())
            return {"undrain: " + bad};
    node_info_msg_t* loaded = nullptr;
    if (slurm_load_node(0, &loaded, SHOW_ALL) != SLURM_SUCCESS)
        return {"undrain: cannot read the nodes' drain reasons: " + std::string(slurm_strerror(errno))};
    std::unique_ptr<node_info_msg_t, decltype(&slurm_free_node_info_msg)> info(loaded, &slurm_free_node_info_msg);
    std::vector<std::string> ours;
    for (uint32_t i = 0; i < info->record_count; ++i) {
        const node_info_t& n = info->node_array[i];
        if (!n.name || !(n.node_state & NODE_STATE_DRAIN) || !n.reason ||
            std::string_view(n.reason).substr(0, reason_prefix.size()) != reason_prefix)
            continue;
        if (std::find(nodes.begin(), nodes.end(), n.name) != nodes.end())
            ours.push_back(n.name);
    }
    if (ours.empty())
        return {};
    std::string hostlist = compress_hostlist(ours);
    update_node_msg_t msg;
    slurm_init_update_node_msg(&msg);
    msg.node_names = hostlist.data();
    msg.node_state = NODE_STATE_UNDRAIN;
    if (auto err =
            outcome(repeat_unsent([&] { return slurm_update_node(&msg); }), "nodes " + hostlist + " State=UNDRAIN",
                    "drained by burstd; their node group may launch again"))
        return err;
    cleared = std::move(ours);
    return {};
}

} // namespace burst
