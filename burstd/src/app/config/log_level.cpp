#include "app/config/log_level.hpp"

#include "common/param_map.hpp"

namespace burst {

std::string_view to_string(LogLevel level)
{
    switch (level) {
    case LogLevel::Error: return "error";
    case LogLevel::Info: return "info";
    case LogLevel::Verbose: return "verbose";
    case LogLevel::Debug: return "debug";
    }
    return "info";
}

std::optional<LogLevel> parse_log_level(const std::string& word)
{
    for (LogLevel l : {LogLevel::Error, LogLevel::Info, LogLevel::Verbose, LogLevel::Debug})
        if (iequals(word, std::string(to_string(l))))
            return l;
    return std::nullopt;
}

} // namespace burst
