#pragma once
// Reads environment variables through a function, so tests supply their own
// environment instead of mutating the process's.

#include <functional>
#include <optional>
#include <string>

namespace burst {

using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

// The process environment; unset and empty variables both read as absent.
EnvironmentLookup process_environment();

} // namespace burst
