#include "sim/priority/priority_spec.hpp"

#include "sim/priority/fair_tree.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace burst {
namespace {

std::string lower(std::string s)
{
    for (auto& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos)
        return "";
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool to_uint(const std::string& text, std::uint64_t max, std::uint64_t& out)
{
    if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])))
        return false;
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (*end != '\0' || errno != 0 || v > max)
        return false;
    out = v;
    return true;
}

std::uint32_t weight(const std::string& key, const std::string& value)
{
    std::uint64_t v = 0;
    if (!to_uint(value, UINT32_MAX, v))
        throw PrioritySpecError(key + "='" + value + "': expected an integer in [0, 4294967295]");
    return std::uint32_t(v);
}

// slurm.conf's time_str2mins: minutes, min:sec, h:m:s, days-h, days-h:m,
// days-h:m:s; seconds round up to a whole minute.  Returns seconds.
Seconds slurm_minutes(const std::string& key, const std::string& value)
{
    auto bad = [&]() {
        return PrioritySpecError(key + "='" + value +
                                 "': expected minutes, min:sec, h:m:s or days-h[:m[:s]] (slurm.conf time)");
    };
    std::uint64_t days = 0;
    std::string rest = value;
    const auto dash = value.find('-');
    if (dash != std::string::npos) {
        if (!to_uint(value.substr(0, dash), 100000, days))
            throw bad();
        rest = value.substr(dash + 1);
    }
    std::vector<std::uint64_t> parts;
    std::istringstream in(rest);
    std::string part;
    while (std::getline(in, part, ':')) {
        std::uint64_t v = 0;
        if (!to_uint(part, 100000000, v))
            throw bad();
        parts.push_back(v);
    }
    if (rest.empty() || rest.back() == ':' || parts.empty() || parts.size() > 3)
        throw bad();
    std::uint64_t seconds = days * 86400;
    if (dash != std::string::npos) { // days-hours[:minutes[:seconds]]
        const std::uint64_t unit[] = {3600, 60, 1};
        for (std::size_t i = 0; i < parts.size(); ++i)
            seconds += parts[i] * unit[i];
    } else if (parts.size() == 3) { // hours:minutes:seconds
        seconds += parts[0] * 3600 + parts[1] * 60 + parts[2];
    } else { // minutes[:seconds]
        seconds += parts[0] * 60 + (parts.size() == 2 ? parts[1] : 0);
    }
    return Seconds((seconds + 59) / 60 * 60);
}

// ACCOUNT=N|parent or ACCOUNT/USER=N|parent, N an integer below 2^32 − 1.
void add_share(SiteShares& out, const std::string& entry, const std::string& where)
{
    const auto eq = entry.find('=');
    const std::string name = trim(entry.substr(0, eq));
    const std::string value = eq == std::string::npos ? "" : lower(trim(entry.substr(eq + 1)));
    const auto slash = name.find('/');
    const std::string account = name.substr(0, slash);
    const std::string user = slash == std::string::npos ? "" : name.substr(slash + 1);
    std::uint64_t shares = 0;
    const bool parent = value == "parent";
    if (eq == std::string::npos || account.empty() || (slash != std::string::npos && user.empty()) ||
        user.find('/') != std::string::npos || (!parent && !to_uint(value, kFairshareParent - 1, shares)))
        throw PrioritySpecError(where + "'" + entry +
                                "': expected ACCOUNT=SHARES|parent or ACCOUNT/USER=SHARES|parent (shares an integer >= 0)");
    const bool added = slash == std::string::npos
                           ? out.accounts.emplace(account, parent ? kFairshareParent : std::uint32_t(shares)).second
                           : out.users.emplace(std::make_pair(account, user),
                                               parent ? kFairshareParent : std::uint32_t(shares))
                                 .second;
    if (!added)
        throw PrioritySpecError(where + "'" + name + "' given twice");
}

} // namespace

void parse_priority_spec(const std::string& spec, PriorityConfig& config)
{
    const auto colon = spec.find(':');
    const std::string type = spec.substr(0, colon);
    PriorityConfig parsed;
    parsed.shares = config.shares;
    if (type == "fifo") {
        if (colon != std::string::npos)
            throw PrioritySpecError("priority fifo takes no parameters");
        config = parsed;
        return;
    }
    if (type != "multifactor")
        throw PrioritySpecError("unknown priority type '" + type + "' (known: fifo, multifactor)");
    parsed.type = PriorityType::Multifactor;
    if (colon != std::string::npos) {
        std::istringstream in(spec.substr(colon + 1));
        std::string item;
        while (std::getline(in, item, ',')) {
            const auto eq = item.find('=');
            if (eq == std::string::npos)
                throw PrioritySpecError("priority parameter '" + item + "': expected Key=value");
            const std::string key = item.substr(0, eq), value = item.substr(eq + 1), k = lower(key);
            if (k == "priorityweightage")
                parsed.weight_age = weight(key, value);
            else if (k == "priorityweightfairshare")
                parsed.weight_fairshare = weight(key, value);
            else if (k == "priorityweightjobsize")
                parsed.weight_jobsize = weight(key, value);
            else if (k == "priorityfavorsmall") {
                const std::string v = lower(value);
                if (v != "yes" && v != "no")
                    throw PrioritySpecError(key + "='" + value + "': expected YES or NO");
                parsed.favor_small = v == "yes";
            } else if (k == "prioritymaxage")
                parsed.max_age = slurm_minutes(key, value);
            else if (k == "prioritydecayhalflife")
                parsed.decay_half_life = slurm_minutes(key, value);
            else if (k == "prioritycalcperiod") {
                parsed.calc_period = slurm_minutes(key, value);
                if (parsed.calc_period < 60)
                    throw PrioritySpecError(key + "='" + value + "': must be at least 1 minute");
            } else if (k == "fairsharedampeningfactor") {
                std::uint64_t v = 0;
                if (!to_uint(value, 65535, v) || v == 0)
                    throw PrioritySpecError(key + "='" + value + "': expected an integer in [1, 65535]");
                parsed.dampening = std::uint32_t(v);
            } else if (k == "priorityflags") {
                // The one flag that changes what burstsim models; empty is
                // Slurm's default, Fair Tree.
                const std::string v = lower(value);
                if (v != "no_fair_tree" && !v.empty())
                    throw PrioritySpecError(key + "='" + value + "': expected NO_FAIR_TREE or nothing");
                parsed.fair_tree = v.empty();
            } else
                throw PrioritySpecError("unknown priority parameter '" + key +
                                        "' (known: PriorityWeightAge, PriorityWeightFairshare, "
                                        "PriorityWeightJobSize, PriorityFavorSmall, PriorityMaxAge, "
                                        "PriorityDecayHalfLife, PriorityCalcPeriod, FairShareDampeningFactor, "
                                        "PriorityFlags)");
        }
    }
    config = parsed;
}

SiteShares parse_shares(const std::string& spec)
{
    SiteShares out;
    std::istringstream in(spec);
    std::string entry;
    while (std::getline(in, entry, ','))
        add_share(out, entry, "shares ");
    if (out.accounts.empty() && out.users.empty())
        throw PrioritySpecError("shares: expected ACCOUNT=SHARES,...");
    return out;
}

SiteShares load_shares_file(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw PrioritySpecError(path + ": cannot open");
    SiteShares out;
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
        const std::string text = trim(line.substr(0, line.find('#')));
        if (!text.empty())
            add_share(out, text, path + ":" + std::to_string(n) + ": ");
    }
    if (out.accounts.empty() && out.users.empty())
        throw PrioritySpecError(path + ": no ACCOUNT=SHARES line");
    return out;
}

} // namespace burst
