#pragma once
// Chooses which node group gets new work, like the Kubernetes cluster
// autoscaler's expanders.  Shared by every hiring policy.

#include "policy/site_view.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

class Expander {
public:
    virtual ~Expander() = default;
    virtual std::string_view name() const = 0;
    // The best of `candidates` (each able to hold `cpus`) for `cpus` more
    // cores, or nullptr when there are none.
    virtual const GroupView* choose(const std::vector<const GroupView*>& candidates, std::uint64_t cpus) const = 0;
};

// Cores left unused on the last node when `cpus` are placed on `group`'s nodes.
std::uint64_t wasted_cpus(const NodeGroup& group, std::uint64_t cpus);

// "least-waste", "price" or "priority"; throws PolicyConfigError listing them otherwise.
std::unique_ptr<Expander> make_expander(const std::string& name);
std::vector<std::string> expander_names();

} // namespace burst
