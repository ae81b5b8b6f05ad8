#pragma once
// An instance as a provider's listing reports it: what reconciliation holds
// against the ledger's records and Slurm's nodes.

#include "model/provider_error.hpp"

#include <string>

namespace burst {

struct ProviderInstance {
    std::string provider_id;
    std::string node;       // from its node tag
    std::string state;      // provider's own word ("running", "ACTIVE", ...)
    std::string address;
    bool gone = false;      // terminated/deleted or being deleted
    bool reclaimed = false; // spot/preemptible capacity taken back
    ProviderError error;    // why the provider gave up on it (e.g. Nova ERROR + fault); None otherwise
};

} // namespace burst
