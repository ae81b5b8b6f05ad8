#pragma once
// Slurm-like log verbosity, from least to most talkative.

#include <optional>
#include <string>
#include <string_view>

namespace burst {

enum class LogLevel { Error = 0, Info = 1, Verbose = 2, Debug = 3 };

std::string_view to_string(LogLevel level);
// "error", "info", "verbose", "debug" in any case; nullopt for anything else.
std::optional<LogLevel> parse_log_level(const std::string& word);

} // namespace burst
