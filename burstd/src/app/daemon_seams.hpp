#pragma once
// Where the deciding and acting parts plug into the daemon shell.  The shell
// owns sockets, timers, signals and configuration; these callbacks own the
// work.  A seam nobody filled is reported as such, never papered over.

#include "app/config/burstd_config.hpp"
#include "app/control/control_request.hpp"
#include "app/logger.hpp"
#include "ingest/peer_credentials.hpp"
#include "model/clock.hpp"
#include "model/job.hpp"
#include "model/snapshot.hpp"

#include <jansson.h>

#include <functional>
#include <string>
#include <vector>

namespace burst {

// One policy cycle: build ClusterState from `snapshot` (nullptr before the
// first one arrives) and the ledger, run the policy chain, hand the Decision
// to the actuator.
struct CycleContext {
    const BurstdConfig& config;
    const Snapshot* snapshot;
    Time now;
    Logger& log;
};
using CycleRunner = std::function<void(const CycleContext&)>;

// burstctl resume|suspend|resume-fail, already validated: every node belongs
// to a configured node group.  Must return quickly (queue work on a worker).
struct PowerReply {
    bool ok = false;
    std::string message; // shown by burstctl; the error when !ok
};
using PowerHandler = std::function<PowerReply(const ControlRequest&, const PeerCredentials&)>;

using JobEndHandler = std::function<void(const JobEnd&)>;

// burstctl reset-group: ends a configured node group's launch back-off
// (circuit breaker, protected mode, stop after auth errors).
using GroupResetHandler = std::function<PowerReply(const std::string& group)>;

// burstctl explain: fills `explanation` with what the last cycle decided
// about the job and why; returns "" or why it cannot (not in the snapshot...).
using JobExplainer = std::function<std::string(JobId job, json_t* explanation)>;

// Adds the acting parts' view (decisions, instances, nodes) to the status
// object `burstctl status` shows.
using StatusReporter = std::function<void(json_t* status)>;

// SIGHUP: a configuration that parsed is offered here before it replaces the
// running one; a non-empty result (file:line errors) rejects it.  The handler
// switches its own parts (e.g. the policy chain) only when it returns none.
using ReloadHandler = std::function<std::vector<std::string>(const BurstdConfig& next)>;

} // namespace burst
