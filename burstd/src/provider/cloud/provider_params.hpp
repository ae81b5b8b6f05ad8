#pragma once
// A provider section's type-specific keys as the provider registry hands them
// over (Key, Value) — a plain list, so the provider code does not depend on
// the app's config types.  Keys match case-insensitively.

#include <string>
#include <utility>
#include <vector>

namespace burst {

using ProviderParams = std::vector<std::pair<std::string, std::string>>;

} // namespace burst
