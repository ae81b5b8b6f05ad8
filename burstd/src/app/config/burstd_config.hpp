#pragma once
// Everything burstd.conf configures, after validation.  Each section remembers
// where it was written ("burstd.conf:12") so later checks — the provider and
// policy factories — can point the admin at the right line.

#include "app/config/log_level.hpp"
#include "app/instances/partial_job_launch.hpp"
#include "app/instances/retry_backoff.hpp"
#include "model/clock.hpp"
#include "model/node_group.hpp"
#include "model/standby_jobs.hpp"
#include "policy/cycle/policy_chain.hpp"
#include "provider/provider_spec.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace burst {

// A Provider= section: what its type's builder reads, and how burstd retries
// the provider's calls.
struct ProviderConfig : ProviderSpec {
    RetrySettings retry; // LaunchAttempts=, RetryBaseDelay=, RetryMaxDelay=
};

struct BudgetConfig {
    std::string account; // "*" = every account without a line of its own
    double amount = 0;   // site currency per interval
    Seconds interval = 0;
    std::string origin;
};

struct BurstdConfig {
    std::string cluster_name;                        // must match the plugin's "cluster"
    std::string socket_path = "/run/burstd/snapshot.sock";
    std::string control_socket = "/run/burstd/control.sock";
    std::string state_dir = "/var/lib/burstd";
    std::string ledger_path;                         // default: <StateDir>/ledger.sqlite
    LogLevel log_level = LogLevel::Info;
    std::uint16_t metrics_port = 0;                  // 0 = no metrics endpoint
    Seconds cycle_interval = 30;
    std::uint32_t reconcile_every = 5;               // cycles between full reconciliations
    // How long a job burstd made cloud-eligible is followed until Slurm
    // allocates it, to launch its CLOUD nodes before ResumeProgram asks; 0 = off.
    Seconds early_launch = 10;
    // λ of the site objective J(λ) = cloud cost + λ × waiting core-hours
    // that metrics and status report; unset = not reported.
    std::optional<double> objective_lambda;
    std::string burstd_id;                           // default: ClusterName
    std::string slurm_conf = "/etc/slurm/slurm.conf";
    std::string slurm_user = "slurm";                // admitted on the control socket besides root
    // PlaceholderQOS=, ScavengerQOS=, InteractiveHoldQOS=: jobs of these QOS are never demand.
    StandbyQos standby_qos;
    // ScavengeWarmNodes=: waiting scavenger jobs may run on the warm nodes
    // placeholders hold, in their place.
    bool scavenge_warm_nodes = false;
    // Interactive=: cores of partitions kept for interactive jobs, which
    // job_submit/burst puts in InteractiveQOS=.
    std::vector<InteractiveReserve> interactive;
    std::string interactive_qos;
    // A multi-node job not all of whose nodes got an instance: requeued or held.
    PartialJobLaunch partial_job_launch = PartialJobLaunch::Requeue;

    std::vector<ProviderConfig> providers;
    std::vector<NodeGroup> node_groups;
    std::vector<std::string> node_group_origins;     // parallel to node_groups
    std::vector<PolicySpec> policies;                // the chain, in the order of the lines
    std::optional<PolicySpec> thread_policy;         // ThreadPolicy=: CPUs per task of --threads=auto jobs
    std::vector<BudgetConfig> budgets;

    // What every provider shares.
    ProviderSite provider_site() const { return ProviderSite{slurm_conf, state_dir}; }

    const ProviderConfig* provider(const std::string& name) const
    {
        for (const auto& p : providers)
            if (p.name == name)
                return &p;
        return nullptr;
    }
};

} // namespace burst
