#include "sim/workload/workload_spec.hpp"

#include "sim/unit_draw.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace burst {

WorkloadSpec::WorkloadSpec(std::string workload, const std::string& text) : workload_(std::move(workload))
{
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        if (part.empty())
            continue;
        const auto eq = part.find('=');
        if (eq == std::string::npos || eq == 0)
            throw WorkloadSpecError(workload_ + " workload: '" + part + "': expected key=value");
        if (!values_.emplace(part.substr(0, eq), part.substr(eq + 1)).second)
            throw WorkloadSpecError(workload_ + " workload: " + part.substr(0, eq) + " given twice");
    }
}

void WorkloadSpec::bad(const std::string& key, const std::string& expected) const
{
    throw WorkloadSpecError(workload_ + " workload: " + key + "='" + values_.at(key) + "': expected " + expected);
}

double WorkloadSpec::get_double(const std::string& key, double fallback, double min, double max)
{
    read_.insert(key);
    auto it = values_.find(key);
    if (it == values_.end())
        return fallback;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(it->second.c_str(), &end);
    if (it->second.empty() || *end != '\0' || errno != 0 || !std::isfinite(v) || v < min || v > max) {
        std::ostringstream range;
        range << "a number in [" << min << ", " << max << "]";
        bad(key, range.str());
    }
    return v;
}

std::uint64_t WorkloadSpec::get_uint(const std::string& key, std::uint64_t fallback, std::uint64_t min,
                                     std::uint64_t max)
{
    auto list = get_uint_list(key, {fallback}, 1, 1, min, max);
    return list.front();
}

std::vector<std::uint64_t> WorkloadSpec::get_uint_list(const std::string& key, std::vector<std::uint64_t> fallback,
                                                       std::size_t min_count, std::size_t max_count,
                                                       std::uint64_t min, std::uint64_t max)
{
    read_.insert(key);
    auto it = values_.find(key);
    if (it == values_.end())
        return fallback;
    std::vector<std::uint64_t> out;
    std::istringstream in(it->second);
    std::string part;
    const std::string count = min_count == max_count ? std::to_string(min_count)
                                                     : std::to_string(min_count) + " to " + std::to_string(max_count);
    const std::string expected = (max_count == 1 ? "an integer" : count + " integers separated by ':'") + " in [" +
                                 std::to_string(min) + ", " + std::to_string(max) + "]";
    while (std::getline(in, part, ':')) {
        char* end = nullptr;
        errno = 0;
        const unsigned long long v = std::strtoull(part.c_str(), &end, 10);
        if (part.empty() || part[0] == '-' || *end != '\0' || errno != 0 || v < min || v > max)
            bad(key, expected);
        out.push_back(v);
    }
    if (out.size() < min_count || out.size() > max_count)
        bad(key, expected);
    return out;
}

std::string WorkloadSpec::get_string(const std::string& key, const std::string& fallback)
{
    read_.insert(key);
    auto it = values_.find(key);
    return it == values_.end() ? fallback : it->second;
}

std::vector<double> WorkloadSpec::get_double_list(const std::string& key, std::vector<double> fallback, double min,
                                                  double max)
{
    read_.insert(key);
    auto it = values_.find(key);
    if (it == values_.end())
        return fallback;
    std::ostringstream expected;
    expected << "numbers in [" << min << ", " << max << "] separated by ':'";
    std::vector<double> out;
    std::istringstream in(it->second);
    std::string part;
    while (std::getline(in, part, ':')) {
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(part.c_str(), &end);
        if (part.empty() || *end != '\0' || errno != 0 || !std::isfinite(v) || v < min || v > max)
            bad(key, expected.str());
        out.push_back(v);
    }
    if (out.empty())
        bad(key, expected.str());
    return out;
}

std::vector<std::string> WorkloadSpec::get_choice_list(const std::string& key, std::vector<std::string> fallback,
                                                       const std::vector<std::string>& allowed)
{
    read_.insert(key);
    auto it = values_.find(key);
    if (it == values_.end())
        return fallback;
    std::string expected = "one or more of";
    for (const auto& a : allowed)
        expected += " " + a;
    expected += " separated by ':', each at most once";
    std::vector<std::string> out;
    std::istringstream in(it->second);
    std::string part;
    while (std::getline(in, part, ':')) {
        if (std::find(allowed.begin(), allowed.end(), part) == allowed.end() ||
            std::find(out.begin(), out.end(), part) != out.end())
            bad(key, expected);
        out.push_back(part);
    }
    if (out.empty())
        bad(key, expected);
    return out;
}

void WorkloadSpec::reject_unread() const
{
    std::string unknown, known;
    for (const auto& [key, value] : values_)
        if (!read_.count(key))
            unknown += (unknown.empty() ? "" : ", ") + key;
    if (unknown.empty())
        return;
    for (const auto& key : read_)
        known += (known.empty() ? "" : ", ") + key;
    throw WorkloadSpecError(workload_ + " workload: unknown key(s) " + unknown + " (known: " + known + ")");
}

double WorkloadRandom::uniform()
{
    return unit_draw(rng_);
}

double WorkloadRandom::exponential(double mean)
{
    return -mean * std::log1p(-uniform());
}

double WorkloadRandom::normal(double mean, double stddev)
{
    // Box-Muller, one draw per call: simple and the same everywhere.
    const double u1 = 1 - uniform(); // (0, 1]
    const double u2 = uniform();
    return mean + stddev * std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
}

} // namespace burst
