#pragma once
// Builders for the simulator tests' jobs, sites and cloud groups, and what
// they read back from a replay.  Include after the std headers: it includes
// CppUTest's.

#include "policy/policy_registry.hpp"
#include "sim/engine/sim_config.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/trace/trace.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

namespace burst::test {

// `cpus` cores for `runtime` s, submitted at `submit`, killed at `limit` s
// (0: no limit); nobody's (no user, account or category).
inline TraceJob trace_job(JobId id, Time submit, std::uint32_t cpus, Seconds runtime, Seconds limit = 0)
{
    TraceJob j;
    j.id = id;
    j.submit = submit;
    j.cpus = cpus;
    j.runtime = runtime;
    j.time_limit = limit;
    return j;
}

// `job` submitted by `user` under `account`, in category "<account>/x"
// (runtime models learn per category).
inline TraceJob submitted_by(const std::string& user, const std::string& account, TraceJob job)
{
    job.user = user;
    job.account = account;
    job.category = account + "/x";
    return job;
}

// `cores` local cores, seen by policies as nodes of `node_cores`, decisions
// every `cycle` s; boots take exactly their group's boot_time (no jitter),
// so a test can work out when a hired node is up.
inline SimConfig local_site(std::uint32_t cores, std::uint32_t node_cores, Seconds cycle)
{
    SimConfig c;
    c.local_cores = cores;
    c.local_node_cores = node_cores;
    c.cycle = cycle;
    c.boot_jitter = 0;
    return c;
}

// Up to `max_count` nodes of `cpus` cores at `price_per_hour`, booting in
// `boot_time` s, billed per second with at least `min_billed` s per node.
inline NodeGroup cloud_group(const std::string& name, std::uint32_t cpus, double price_per_hour, Seconds boot_time,
                             std::uint32_t max_count, Seconds min_billed)
{
    NodeGroup g;
    g.name = name;
    g.cpus = cpus;
    g.price_per_hour = price_per_hour;
    g.boot_time = boot_time;
    g.max_count = max_count;
    g.min_billed = min_billed;
    return g;
}

// The replay of `trace` on `config` by the policy named `policy` with its
// default parameters.
inline SimResult replay(const std::string& policy, const SimConfig& config, const std::vector<TraceJob>& trace)
{
    auto p = make_policy(policy, PolicyParams{});
    return simulate(config, trace, *p);
}

// Job `id`'s outcome in `r`; fails the test when the replay has none.
inline const JobOutcome& outcome(const SimResult& r, JobId id)
{
    for (const auto& o : r.jobs)
        if (o.id == id)
            return o;
    FAIL("job not in result");
    return r.jobs.front();
}

} // namespace burst::test
