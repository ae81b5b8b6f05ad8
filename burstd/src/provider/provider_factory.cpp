#include "provider/provider_factory.hpp"

#include "app/config_values.hpp"
#include "provider/local/local_provider.hpp"

#include <set>

namespace burst {

namespace {

std::string joined(const std::vector<std::string>& words)
{
    std::string out;
    for (const auto& w : words)
        out += (out.empty() ? "" : ", ") + w;
    return out;
}

// Reads the keys one type knows; whatever is left over is rejected by name.
class ProviderKeys {
public:
    ProviderKeys(const ProviderConfig& provider, std::vector<std::string> known)
        : provider_(provider), known_(std::move(known))
    {
        for (const auto& [key, value] : provider.params) {
            bool found = false;
            for (const auto& k : known_)
                found = found || iequals(k, key);
            if (!found) {
                std::string hint = closest_match(key, known_);
                fail("unknown key " + key + "= for Type=" + provider.type +
                     (hint.empty() ? "" : " (did you mean " + hint + "?)") + "; known keys: " + joined(known_));
            }
        }
    }
    const std::string* get(const std::string& key) const
    {
        auto it = provider_.params.find(key);
        return it == provider_.params.end() ? nullptr : &it->second;
    }
    Seconds duration(const std::string& key, Seconds fallback) const
    {
        const std::string* v = get(key);
        if (!v)
            return fallback;
        auto d = parse_duration(*v);
        if (!d)
            fail(key + "=" + *v + ": expected a duration (e.g. 5, 5s, 2m)");
        return *d;
    }
    [[noreturn]] void fail(const std::string& what) const
    {
        throw ProviderConfigError(provider_.origin + ": Provider=" + provider_.name + ": " + what);
    }

private:
    const ProviderConfig& provider_;
    std::vector<std::string> known_;
};

std::unique_ptr<Provider> make_local(const ProviderConfig& provider, const BurstdConfig& site)
{
    ProviderKeys keys(provider, {"SlurmdPath", "StateDir", "BootDelay", "TerminateGrace", "Address",
                                     "LaunchLatency", "TerminateLatency"});
    if (!provider.credentials_file.empty() || !provider.region.empty())
        keys.fail("Type=local takes no CredentialsFile= or Region=");
    LocalProviderConfig c;
    if (const auto* v = keys.get("SlurmdPath"))
        c.slurmd_path = *v;
    c.slurm_conf = site.slurm_conf;
    c.state_dir = site.state_dir + "/local-" + provider.name;
    if (const auto* v = keys.get("StateDir"))
        c.state_dir = *v;
    c.boot_delay = keys.duration("BootDelay", c.boot_delay);
    c.terminate_grace = keys.duration("TerminateGrace", c.terminate_grace);
    c.launch_latency = keys.duration("LaunchLatency", c.launch_latency);
    c.terminate_latency = keys.duration("TerminateLatency", c.terminate_latency);
    if (const auto* v = keys.get("Address"))
        c.address = *v;
    try {
        return std::make_unique<LocalProvider>(std::move(c));
    } catch (const LocalProviderConfigError& e) {
        keys.fail(e.what());
    }
}

} // namespace

std::vector<std::string> provider_types() { return {std::string(LocalProvider::kName)}; }

std::unique_ptr<Provider> make_provider(const ProviderConfig& provider, const BurstdConfig& site)
{
    if (provider.type == LocalProvider::kName)
        return make_local(provider, site);
    throw ProviderConfigError(provider.origin + ": Provider=" + provider.name + ": Type=" + provider.type +
                              " is not available in this burstd; known types: " + joined(provider_types()));
}

} // namespace burst
