#pragma once
// Pieces of the human-readable reasons policies give for their actions, so
// that every policy words money the same way in logs and `burstctl status`.
#include <string>

namespace burst {

// An amount in the site's currency, two decimals ("0.40").
std::string money(double amount);

} // namespace burst
