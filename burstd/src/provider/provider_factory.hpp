#pragma once
// Maps a burstd.conf Provider= section (its Type=) to an implementation.
// Every type-specific key must be one the type knows: a misspelled key is an
// error naming the key and the section's file:line, not a silent default.

#include "app/burstd_config.hpp"
#include "provider/provider.hpp"
#include "provider/provider_environment.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace burst {

class ProviderConfigError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// `site` supplies what every provider shares (SlurmConf, StateDir), `env`
// what every cloud provider needs at run time.  Reads credentials files now,
// so a missing or unprotected one is a configuration error; sends nothing.
// Throws ProviderConfigError prefixed with the section's origin.
std::unique_ptr<Provider> make_provider(const ProviderConfig& provider, const BurstdConfig& site,
                                        const ProviderEnvironment& env);

// The types this burstd can build, in the order they are listed in errors.
std::vector<std::string> provider_types();

} // namespace burst
