#include "common/config_values.hpp"

#include "common/param_map.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace burst {

std::optional<double> parse_non_negative_number(const std::string& s)
{
    if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '.'))
        return std::nullopt;
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v) || v < 0)
        return std::nullopt;
    return v;
}

std::optional<std::uint64_t> parse_unsigned(const std::string& s, std::uint64_t max)
{
    if (s.empty() || s.size() > 19)
        return std::nullopt;
    std::uint64_t v = 0;
    for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return std::nullopt;
        v = v * 10 + std::uint64_t(c - '0');
    }
    if (v > max)
        return std::nullopt;
    return v;
}

std::optional<bool> parse_bool(const std::string& s)
{
    for (const char* yes : {"yes", "true", "on", "1"})
        if (iequals(s, yes))
            return true;
    for (const char* no : {"no", "false", "off", "0"})
        if (iequals(s, no))
            return false;
    return std::nullopt;
}

std::optional<double> parse_duration(const std::string& s)
{
    if (iequals(s, "hour"))
        return 3600.0;
    if (iequals(s, "day"))
        return 86400.0;
    if (iequals(s, "week"))
        return 7 * 86400.0;
    if (s.empty())
        return std::nullopt;
    std::string number = s;
    double unit = 1;
    switch (std::tolower(static_cast<unsigned char>(s.back()))) {
    case 's': unit = 1; break;
    case 'm': unit = 60; break;
    case 'h': unit = 3600; break;
    case 'd': unit = 86400; break;
    case 'w': unit = 7 * 86400; break;
    default: number.push_back('s'); break; // bare number = seconds
    }
    number.pop_back();
    auto v = parse_non_negative_number(number);
    if (!v)
        return std::nullopt;
    return *v * unit;
}

std::optional<std::vector<std::string>> parse_list(const std::string& s)
{
    std::vector<std::string> items;
    std::size_t start = 0;
    while (true) {
        std::size_t comma = s.find(',', start);
        std::string item = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty())
            return std::nullopt;
        items.push_back(item);
        if (comma == std::string::npos)
            return items;
        start = comma + 1;
    }
}

namespace {

std::size_t edit_distance(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::string joined(const std::vector<std::string>& words)
{
    std::string out;
    for (const auto& w : words)
        out += (out.empty() ? "" : ", ") + w;
    return out;
}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates)
{
    std::string best;
    std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
    for (const auto& c : candidates) {
        std::size_t d = edit_distance(word, c);
        if (d < best_distance) {
            best_distance = d;
            best = c;
        }
    }
    return best;
}

} // namespace burst
