#pragma once
// A node group's Zones= must be among its provider's: the provider lists (and
// so reconciles) only its own zones, so an instance launched elsewhere would
// never be seen again.  Checked by --check-config and on SIGHUP against the
// built providers, and again when the instance manager takes them.

#include "app/config/burstd_config.hpp"
#include "model/node_group.hpp"
#include "provider/provider.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace burst {

// "Zones=: zone Z is not among Provider=P's Zones=A,B", one per such zone.
std::vector<std::string> zones_outside_provider(const NodeGroup& group, const Provider& provider);

// The same, each prefixed with its NodeGroup's "file:line: NodeGroup=NAME: ";
// groups whose provider was not built (an error of its own) are skipped.
std::vector<std::string> node_group_zone_errors(const BurstdConfig& config,
                                                const std::map<std::string, std::unique_ptr<Provider>>& providers);

} // namespace burst
