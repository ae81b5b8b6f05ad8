#include "provider/openstack/openstack_settings.hpp"

#include "provider/cloud/param_reader.hpp"
#include "provider/openstack/nova_server.hpp"

#include <cstdlib>

namespace burst {

std::vector<std::string> openstack_settings_keys()
{
    return {"Image", "Network", "Interface", "ScheduleWait", "PollInterval", "PageSize", "BatchSize", "ParallelDeletes", "Zones"};
}

OpenStackSettings openstack_settings_from_params(const ProviderParams& params, const std::string& region)
{
    ParamReader<OpenStackSettingsError> in(params, openstack_settings_keys());
    OpenStackSettings s;
    s.region = region;
    s.image = in.required("Image", "the image id (uuid) every server boots");
    s.zones = in.zones("Zones", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.");
    const std::string network = in.optional("Network");
    if (!network.empty()) {
        const bool uuid = network.size() == 36 && network.find_first_not_of("0123456789abcdef-") == std::string::npos;
        if (network != "none" && network != "auto" && !uuid)
            throw OpenStackSettingsError("Network=" + network + ": expected none, auto or a network uuid");
        s.network = network;
    }
    const std::string interface = in.optional("Interface");
    if (!interface.empty()) {
        if (interface != "public" && interface != "internal" && interface != "admin")
            throw OpenStackSettingsError("Interface=" + interface + ": expected public, internal or admin");
        s.interface = interface;
    }
    s.schedule_wait = in.seconds("ScheduleWait", s.schedule_wait);
    s.poll_interval = in.seconds("PollInterval", s.poll_interval);
    if (s.poll_interval <= 0)
        throw OpenStackSettingsError("PollInterval= must be positive");
    const std::string page = in.optional("PageSize");
    if (!page.empty()) {
        char* end = nullptr;
        const long n = std::strtol(page.c_str(), &end, 10);
        if (*end != '\0' || n < 1 || n > 1000)
            throw OpenStackSettingsError("PageSize=" + page + ": expected a number from 1 to 1000");
        s.page_size = static_cast<int>(n);
    }
    s.batch_size = in.count("BatchSize", kMaxNovaBatch, s.batch_size);
    s.parallel_deletes = in.count("ParallelDeletes", 64, s.parallel_deletes);
    return s;
}

} // namespace burst
