#include "policy/policy_params.hpp"

#include "common/config_values.hpp"
#include "common/plain_number.hpp"
#include "model/clock.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace burst {

namespace {

std::string lower(std::string s)
{
    for (auto& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

} // namespace

std::string NumberRange::text() const
{
    return (min_open ? "(" : "[") + plain_number(min) + ", " + plain_number(max) + (max_open ? ")" : "]");
}

PolicyParams::PolicyParams(const std::map<std::string, std::string>& values)
{
    for (const auto& [key, value] : values)
        set(key, value);
}

void PolicyParams::set(const std::string& key, const std::string& value)
{
    values_[lower(key)] = value;
}

void PolicyParams::set(const std::string& assignment)
{
    auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw PolicyConfigError("policy parameter '" + assignment + "': expected key=value");
    set(assignment.substr(0, eq), assignment.substr(eq + 1));
}

double PolicyParams::double_fallback(const std::string& key) const
{
    auto it = double_fallbacks_.find(key);
    return it == double_fallbacks_.end() ? std::nan("") : it->second;
}

const std::string* PolicyParams::lookup(const std::string& key)
{
    read_.insert(key);
    auto it = values_.find(key);
    return it == values_.end() ? nullptr : &it->second;
}

double PolicyParams::get_double(const std::string& key, double fallback, const NumberRange& range)
{
    double_fallbacks_[key] = fallback;
    const std::string* given = lookup(key);
    if (!given)
        return fallback;
    const char* text = given->c_str();
    char* end = nullptr;
    errno = 0;
    double value = std::strtod(text, &end);
    if (given->empty() || *end != '\0' || errno != 0 || !std::isfinite(value) || !range.holds(value))
        throw PolicyConfigError("policy parameter " + key + "='" + *given + "': expected a number in " +
                                range.text());
    return value;
}

double PolicyParams::get_duration(const std::string& key, double fallback, double min, double max)
{
    double_fallbacks_[key] = fallback;
    const std::string* given = lookup(key);
    if (!given)
        return fallback;
    const std::optional<Seconds> value = parse_duration(*given);
    if (!value || *value < min || *value > max)
        throw PolicyConfigError("policy parameter " + key + "='" + *given + "': expected a duration in " +
                                NumberRange{min, max}.text() + " seconds (e.g. 300, 300s, 5m, 1h, 1d)");
    return *value;
}

std::uint32_t PolicyParams::get_uint(const std::string& key, std::uint32_t fallback, std::uint32_t min,
                                     std::uint32_t max)
{
    const std::string* given = lookup(key);
    if (!given)
        return fallback;
    const char* text = given->c_str();
    char* end = nullptr;
    errno = 0;
    unsigned long long value = std::strtoull(text, &end, 10);
    if (given->empty() || (*given)[0] == '-' || *end != '\0' || errno != 0 || value < min || value > max)
        throw PolicyConfigError("policy parameter " + key + "='" + *given + "': expected an integer in [" +
                                std::to_string(min) + ", " + std::to_string(max) + "]");
    return std::uint32_t(value);
}

std::vector<std::uint32_t> PolicyParams::get_uint_list(const std::string& key,
                                                      const std::vector<std::uint32_t>& fallback, std::uint32_t min,
                                                      std::uint32_t max)
{
    const std::string* given = lookup(key);
    if (!given)
        return fallback;
    std::vector<std::uint32_t> values;
    std::size_t from = 0;
    while (true) {
        const std::size_t comma = given->find(',', from);
        const std::string item = given->substr(from, comma == std::string::npos ? std::string::npos : comma - from);
        char* end = nullptr;
        errno = 0;
        const unsigned long long value = std::strtoull(item.c_str(), &end, 10);
        if (item.empty() || item[0] == '-' || *end != '\0' || errno != 0 || value < min || value > max)
            throw PolicyConfigError("policy parameter " + key + "='" + *given + "': expected integers in [" +
                                    std::to_string(min) + ", " + std::to_string(max) +
                                    "] separated by commas, got '" + item + "'");
        values.push_back(std::uint32_t(value));
        if (comma == std::string::npos)
            break;
        from = comma + 1;
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

std::string PolicyParams::get_choice(const std::string& key, const std::string& fallback,
                                     const std::vector<std::string>& allowed)
{
    const std::string* given = lookup(key);
    if (!given)
        return fallback;
    for (const auto& a : allowed)
        if (a == *given)
            return a;
    throw PolicyConfigError("policy parameter " + key + "='" + *given + "': expected one of " + joined(allowed));
}

std::string PolicyParams::get_text(const std::string& key, const std::string& fallback)
{
    const std::string* given = lookup(key);
    return given ? *given : fallback;
}

void PolicyParams::given_only_with(const std::string& key, bool applies, const std::string& condition) const
{
    if (!applies && values_.count(key))
        throw PolicyConfigError(key + " applies only with " + condition);
}

void PolicyParams::reject_unread(const std::string& owner) const
{
    const std::vector<std::string> known(read_.begin(), read_.end());
    std::string unknown;
    for (const auto& [key, value] : values_)
        if (!read_.count(key)) {
            const std::string hint = closest_match(key, known);
            unknown += (unknown.empty() ? "" : ", ") + key + (hint.empty() ? "" : " (did you mean " + hint + "?)");
        }
    if (unknown.empty())
        return;
    throw PolicyConfigError(owner + ": unknown parameter(s) " + unknown + " (known: " +
                            (known.empty() ? "none" : joined(known)) + ")");
}

} // namespace burst
