#pragma once
// Start-up (and periodic) repair: compares what the ledger says burstd asked
// for, what the providers say exists (listed by our tags) and what Slurm says
// its CLOUD nodes are doing, and returns the actions that make the three agree
// again.  Pure: no I/O, no clock; the caller applies the actions in order.
//
// Applying them (app side):
//   AdoptInstance     ledger.mark_launched(token, provider_id, address)
//   MarkFailed        ledger.mark_failed(token, reason)
//   MarkTerminated    ledger.mark_terminated(token)
//   TerminateInstance ledger.record_terminate_intent(token) when token is set,
//                     then provider(provider).terminate({provider_id})
//   PowerDownNode     actuator.power(node, PowerAction::DownForce, reason); Slurm
//                     requeues the node's jobs (batch jobs are requeueable by default)

#include "ledger/ledger.hpp"
#include "model/clock.hpp"
#include "model/node.hpp"
#include "model/provider_instance.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace burst {

struct ProviderListing {
    std::string provider; // the name ledger records carry
    std::vector<ProviderInstance> instances;
    // False when the list call failed or was partial: then an instance missing
    // from `instances` proves nothing, and no record of this provider is
    // failed or closed for it.
    bool complete = true;
};

struct ReconcileInput {
    std::vector<LedgerRecord> records;     // every record, closed ones included
    std::vector<ProviderListing> listings; // one per provider; a provider without one is not judged
    // Slurm's view; only CLOUD nodes are judged, and only nodes listed here
    // (and not already powered down) are ever powered down.
    std::vector<Node> nodes;
    Time now = 0;
    Seconds resume_timeout = 0; // Slurm's ResumeTimeout
    // How long a launch may be in flight before an absent instance means it
    // failed; also shields fresh instances from a snapshot taken before them.
    Seconds launch_grace = 0;
};

enum class RepairKind { AdoptInstance, MarkFailed, MarkTerminated, TerminateInstance, PowerDownNode };

std::string_view to_string(RepairKind kind);

struct RepairAction {
    RepairKind kind = RepairKind::TerminateInstance;
    std::string node;
    std::string token;       // the ledger record concerned; empty for an instance the ledger does not hold open
    std::string provider;    // AdoptInstance, TerminateInstance
    std::string provider_id; // AdoptInstance, TerminateInstance
    std::string address;     // AdoptInstance
    std::string reason;
    // PowerDownNode: the node's instance launched but never registered with
    // Slurm (counts towards its group's protected mode).
    bool boot_failure = false;
};

// Actions in application order: adoptions, ledger closures, terminations,
// then node power-downs; at most one action per instance and per node
// power-down.
std::vector<RepairAction> reconcile(const ReconcileInput& input);

} // namespace burst
