#pragma once
// What a SIGHUP may change.  Sockets are bound once, and the instance
// manager launches, lists and reconciles with the providers and node groups
// read at start-up (its work items hold them while calls are in flight, and
// a removed group's instances would have no one to end them).  Policies and
// status must see those same groups, or a policy would hire nodes that
// nothing can launch; so the running definitions stay in force, except
// for the recovery knobs (CapacityErrors, CoolDown, MaxCoolDown,
// QuotaCoolDown, BootFailures), which the group health board re-reads.

#include "app/config/burstd_config.hpp"

#include <string>
#include <vector>

namespace burst {

// Puts the running values of every restart-only setting into `next` and
// returns one message per change that was held back, naming the setting
// (and the node group or provider) so the sysadmin knows to restart.
std::vector<std::string> keep_restart_only_settings(const BurstdConfig& running, BurstdConfig& next);

} // namespace burst
