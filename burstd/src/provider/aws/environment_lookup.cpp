#include "provider/aws/environment_lookup.hpp"

#include <cstdlib>

namespace burst {

EnvironmentLookup process_environment()
{
    return [](const std::string& name) -> std::optional<std::string> {
        const char* v = std::getenv(name.c_str());
        if (!v || !*v)
            return std::nullopt;
        return std::string(v);
    };
}

} // namespace burst
