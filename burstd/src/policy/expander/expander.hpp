#pragma once
// Chooses which node group gets new work, like the Kubernetes cluster
// autoscaler's expanders.  Shared by every hiring policy: a policy offers
// the groups that can take the work (hire limits already applied, so a
// group backing off after failed launches is never offered), each with
// what the policy expects placing the work there to cost, and the expander
// picks one.

#include "common/registry.hpp"
#include "model/clock.hpp"
#include "policy/site/site_view.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

// One group a policy could place `cpus` cores on, as the policy quotes it.
// `cost` is in the policy's own unit (a forecast of the job's bill, or a
// list price): it is only ever compared among the options of one choice.
struct ExpansionOption {
    const GroupView* group = nullptr;
    double cost = 0;
    Seconds ready_in = 0; // until the cores could start work: 0 when up and free
};

// An option quoted at list price: the group's price per core-second (for a
// choice among groups for the same cores, that ranks them as their bill
// would), ready now when free up cores can take `cpus`, else after a boot.
// For policies that do not forecast what a placement costs.
ExpansionOption list_price_option(const GroupView& group, std::uint64_t cpus);

class Expander {
public:
    virtual ~Expander() = default;
    virtual std::string_view name() const = 0;
    // The best of `options` (each able to hold `cpus`) for `cpus` more
    // cores, or nullptr when there are none.  Equal options: the first, so
    // offering groups in configured order makes that order the last word.
    virtual const ExpansionOption* choose(const std::vector<ExpansionOption>& options, std::uint64_t cpus) const = 0;
};

// Cores left unused on the last node when `cpus` are placed on `group`'s nodes.
std::uint64_t wasted_cpus(const NodeGroup& group, std::uint64_t cpus);

struct ExpanderType {
    std::string_view name;
    std::string_view description;
    std::unique_ptr<Expander> (*build)();
};

const Registry<ExpanderType>& expander_registry();

// Throws PolicyConfigError listing the registered expanders for another name.
std::unique_ptr<Expander> make_expander(const std::string& name);
std::vector<std::string> expander_names();

} // namespace burst
