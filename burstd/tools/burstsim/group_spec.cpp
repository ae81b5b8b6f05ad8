#include "tools/burstsim/group_spec.hpp"

#include "common/plain_number.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

namespace burst {
namespace {

double number(const std::string& spec, const std::string& key, const std::string& value, double min)
{
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || errno != 0 || !std::isfinite(v) || v < min)
        throw GroupSpecError("group '" + spec + "': " + key + "='" + value + "' is not a number >= " +
                             plain_number(min));
    return v;
}

std::uint32_t count(const std::string& spec, const std::string& key, const std::string& value, std::uint32_t min)
{
    double v = number(spec, key, value, min);
    if (v != std::floor(v) || v > 1e6)
        throw GroupSpecError("group '" + spec + "': " + key + "='" + value + "' is not a whole number in [" +
                             std::to_string(min) + ", 1000000]");
    return std::uint32_t(v);
}

} // namespace

GroupSpec parse_group_spec(const std::string& spec)
{
    std::istringstream in(spec);
    std::string part;
    GroupSpec parsed;
    NodeGroup& g = parsed.group;
    if (!std::getline(in, g.name, ',') || g.name.empty() || g.name.find('=') != std::string::npos)
        throw GroupSpecError("group '" + spec +
                             "': expected the group name first, e.g. 'aws,cpus=8,price=0.4,boot=120,max=10'");
    for (char c : g.name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'))
            throw GroupSpecError("group '" + spec + "': name may hold letters, digits, '-' and '_' only");
    std::set<std::string> seen;
    while (std::getline(in, part, ',')) {
        auto eq = part.find('=');
        if (eq == std::string::npos)
            throw GroupSpecError("group '" + spec + "': '" + part + "' is not key=value");
        const std::string key = part.substr(0, eq), value = part.substr(eq + 1);
        if (!seen.insert(key).second)
            throw GroupSpecError("group '" + spec + "': " + key + " given twice");
        if (key == "cpus")
            g.cpus = count(spec, key, value, 1);
        else if (key == "price")
            g.price_per_hour = number(spec, key, value, 0);
        else if (key == "boot")
            g.boot_time = number(spec, key, value, 0);
        else if (key == "jitter") {
            parsed.boot_jitter = number(spec, key, value, 0);
            if (*parsed.boot_jitter >= 1)
                throw GroupSpecError("group '" + spec + "': jitter='" + value + "' is not in [0, 1)");
        }
        else if (key == "max")
            g.max_count = count(spec, key, value, 1);
        else if (key == "min_billed")
            g.min_billed = number(spec, key, value, 0);
        else if (key == "speed") {
            g.speed = number(spec, key, value, 0);
            if (g.speed == 0)
                throw GroupSpecError("group '" + spec + "': speed must be > 0");
        } else if (key == "partition")
            g.partition = value;
        else if (key == "max_time")
            parsed.max_time = number(spec, key, value, 0);
        else if (key == "spot") {
            g.spot = true;
            g.interruptions_per_hour = number(spec, key, value, 0);
        }
        else if (key == "stockout") {
            try {
                parsed.shortage.windows = parse_stockout_windows(value);
            } catch (const CapacityShortageError& e) {
                throw GroupSpecError("group '" + spec + "': stockout: " + e.what());
            }
        } else if (key == "stockout_rate") {
            parsed.shortage.rate = number(spec, key, value, 0);
            if (parsed.shortage.rate > 1)
                throw GroupSpecError("group '" + spec + "': stockout_rate='" + value +
                                     "' is not a probability in [0, 1]");
        } else if (key == "capacity_errors")
            g.recovery.capacity_errors = count(spec, key, value, 1);
        else if (key == "cool_down")
            g.recovery.cool_down = number(spec, key, value, 0);
        else if (key == "max_cool_down")
            g.recovery.max_cool_down = number(spec, key, value, 0);
        else if (key == "billing") {
            if (value == "second")
                g.billing = Billing::PerSecond;
            else if (value == "hour")
                g.billing = Billing::PerHour;
            else
                throw GroupSpecError("group '" + spec + "': billing='" + value + "', expected second or hour");
        } else
            throw GroupSpecError("group '" + spec + "': unknown key '" + key +
                                 "' (known: cpus, price, boot, jitter, max, billing, min_billed, speed, partition, max_time, spot, "
                                 "stockout, stockout_rate, capacity_errors, cool_down, max_cool_down)");
    }
    // A forgotten price would replay a free cloud, a forgotten boot time one
    // that boots in 120 s: neither has a default worth guessing.  A
    // forgotten max= is no quota, which is what leaving it out says.
    std::string missing;
    for (const auto& [key, what] : {std::pair<const char*, const char*>{"cpus", "cores per node"},
                                    {"price", "price per instance-hour"},
                                    {"boot", "seconds from launch to a usable node"}})
        if (!seen.count(key))
            missing += std::string(missing.empty() ? "" : ", ") + key + "= (" + what + ")";
    if (!missing.empty())
        throw GroupSpecError("group '" + spec + "': " + missing + " required");
    return parsed;
}

} // namespace burst
