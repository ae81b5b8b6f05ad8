#include "provider/local/local_provider_builder.hpp"

#include "provider/local/local_provider.hpp"

namespace burst {

std::vector<std::string> local_provider_keys()
{
    return {"SlurmdPath", "StateDir", "BootDelay", "TerminateGrace", "Address", "LaunchLatency", "TerminateLatency"};
}

std::unique_ptr<Provider> build_local_provider(const ProviderSpec& spec, const ProviderSite& site,
                                               const ProviderEnvironment&)
{
    ProviderKeys keys(spec, local_provider_keys());
    if (!spec.credentials_file.empty() || !spec.region.empty())
        keys.fail("Type=local takes no CredentialsFile= or Region=");
    LocalProviderConfig c;
    if (const auto* v = keys.get("SlurmdPath"))
        c.slurmd_path = *v;
    c.slurm_conf = site.slurm_conf;
    c.state_dir = site.state_dir + "/local-" + spec.name;
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

} // namespace burst
