#include "model/slurm_duration.hpp"

#include "common/text.hpp"

#include <charconv>
#include <cstdint>
#include <vector>

namespace burst {
namespace {

bool parse_number(std::string_view text, std::uint64_t& out)
{
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

// Slurm keeps a limit as a 32-bit count of minutes whose two highest values
// are INFINITE and NO_VAL (sacct prints UNLIMITED and Partition_Limit): a
// longer limit is none Slurm holds, and bounding the sum keeps it from
// wrapping.
constexpr std::uint64_t kMaxLimitSeconds = (0xFFFFFFFFull - 2) * 60;

// total += part × unit; false when that would pass kMaxLimitSeconds.
bool add_scaled(std::uint64_t& total, std::uint64_t part, std::uint64_t unit)
{
    if (part > (kMaxLimitSeconds - total) / unit)
        return false;
    total += part * unit;
    return true;
}

} // namespace

bool parse_slurm_duration(std::string_view text, Seconds& out)
{
    if (iequals(text, "UNLIMITED") || iequals(text, "INFINITE") || iequals(text, "Partition_Limit") || text == "-1") {
        out = 0;
        return true;
    }
    std::string_view v(text);
    std::uint64_t days = 0;
    bool has_days = false;
    if (auto dash = v.find('-'); dash != std::string_view::npos) {
        if (!parse_number(v.substr(0, dash), days))
            return false;
        has_days = true;
        v.remove_prefix(dash + 1);
    }
    std::vector<std::uint64_t> parts;
    std::size_t start = 0;
    while (true) {
        auto colon = v.find(':', start);
        std::uint64_t part = 0;
        if (!parse_number(v.substr(start, colon == std::string_view::npos ? v.npos : colon - start), part))
            return false;
        parts.push_back(part);
        if (colon == std::string_view::npos)
            break;
        start = colon + 1;
    }
    if (parts.size() > 3)
        return false;
    // The unit of each part: D-H, D-H:M, D-H:M:S; M, M:S; H:M:S.
    constexpr std::uint64_t kHms[] = {3600, 60, 1}, kMs[] = {60, 1};
    const std::uint64_t* units = has_days || parts.size() == 3 ? kHms : kMs;
    std::uint64_t seconds = 0;
    if (!add_scaled(seconds, days, 86400))
        return false;
    for (std::size_t i = 0; i < parts.size(); ++i)
        if (!add_scaled(seconds, parts[i], units[i]))
            return false;
    out = Seconds(seconds);
    return true;
}

} // namespace burst
