#include "model/hostlist.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <tuple>

namespace burst {
namespace {

// Top-level commas separate host expressions; commas inside brackets separate ranges.
std::vector<std::string_view> split_top_level(std::string_view expr)
{
    std::vector<std::string_view> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < expr.size(); ++i) {
        char c = expr[i];
        if (c == '[') {
            if (++depth > 1)
                throw HostlistError("nested '[' in hostlist \"" + std::string(expr) + "\"");
        } else if (c == ']') {
            if (--depth < 0)
                throw HostlistError("unmatched ']' in hostlist \"" + std::string(expr) + "\"");
        } else if (c == ',' && depth == 0) {
            parts.push_back(expr.substr(start, i - start));
            start = i + 1;
        }
    }
    if (depth != 0)
        throw HostlistError("unclosed '[' in hostlist \"" + std::string(expr) + "\"");
    parts.push_back(expr.substr(start));
    return parts;
}

std::uint64_t parse_number(std::string_view s, std::string_view whole)
{
    if (s.empty() || s.size() > 18)
        throw HostlistError("bad range bound \"" + std::string(s) + "\" in \"" + std::string(whole) + "\"");
    std::uint64_t v = 0;
    for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            throw HostlistError("bad range bound \"" + std::string(s) + "\" in \"" + std::string(whole) + "\"");
        v = v * 10 + std::uint64_t(c - '0');
    }
    return v;
}

std::string pad(std::uint64_t v, std::size_t width)
{
    std::string s = std::to_string(v);
    if (s.size() < width)
        s.insert(0, width - s.size(), '0');
    return s;
}

// Values of one bracket body "1-3,07,10-11", each already zero-padded.
// A typo like [1-1000000000] (or a hostile r[0-999999]n[0-999999]) must not eat memory.
constexpr std::uint64_t kMaxRange = 1u << 20;
constexpr std::size_t kMaxNames = 1u << 20;

std::vector<std::string> bracket_values(std::string_view body, std::string_view whole)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= body.size()) {
        std::size_t comma = body.find(',', start);
        std::string_view item = body.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        std::size_t dash = item.find('-');
        if (dash == std::string_view::npos) {
            parse_number(item, whole);
            out.emplace_back(item);
        } else {
            std::string_view lo_s = item.substr(0, dash), hi_s = item.substr(dash + 1);
            std::uint64_t lo = parse_number(lo_s, whole), hi = parse_number(hi_s, whole);
            if (hi < lo)
                throw HostlistError("descending range \"" + std::string(item) + "\" in \"" + std::string(whole) + "\"");
            if (hi - lo >= kMaxRange)
                throw HostlistError("range \"" + std::string(item) + "\" too large in \"" + std::string(whole) + "\"");
            std::size_t width = lo_s.size() > 1 && lo_s[0] == '0' ? lo_s.size() : 0;
            for (std::uint64_t v = lo; v <= hi; ++v)
                out.push_back(pad(v, width));
        }
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return out;
}

} // namespace

std::vector<std::string> expand_hostlist(std::string_view expr)
{
    std::vector<std::string> names;
    if (expr.empty())
        return names;
    for (std::string_view part : split_top_level(expr)) {
        if (part.empty())
            throw HostlistError("empty host name in hostlist \"" + std::string(expr) + "\"");
        // Cartesian product over every bracket in the part: "r[1-2]n[1-2]".
        std::vector<std::string> partial{""};
        std::size_t pos = 0;
        while (pos < part.size()) {
            std::size_t open = part.find('[', pos);
            std::string_view literal = part.substr(pos, open == std::string_view::npos ? std::string_view::npos : open - pos);
            for (auto& p : partial)
                p.append(literal);
            if (open == std::string_view::npos)
                break;
            std::size_t close = part.find(']', open);
            auto values = bracket_values(part.substr(open + 1, close - open - 1), expr);
            if (partial.size() * values.size() > kMaxNames - names.size())
                throw HostlistError("more than " + std::to_string(kMaxNames) + " names in \"" + std::string(expr) + "\"");
            std::vector<std::string> next;
            next.reserve(partial.size() * values.size());
            for (const auto& p : partial)
                for (const auto& v : values)
                    next.push_back(p + v);
            partial.swap(next);
            pos = close + 1;
        }
        if (partial.size() > kMaxNames - names.size())
            throw HostlistError("more than " + std::to_string(kMaxNames) + " names in \"" + std::string(expr) + "\"");
        for (auto& p : partial)
            names.push_back(std::move(p));
    }
    return names;
}

std::string compress_hostlist(const std::vector<std::string>& names)
{
    struct Group {
        std::string prefix;
        std::size_t width;
        std::vector<std::uint64_t> values;
        std::vector<std::string> plain; // names without a numeric suffix
    };
    std::vector<Group> groups;
    std::map<std::tuple<std::string, std::size_t, bool>, std::size_t> index;

    for (const auto& name : names) {
        std::size_t digits = 0;
        while (digits < name.size() && digits < 18 && std::isdigit(static_cast<unsigned char>(name[name.size() - 1 - digits])))
            ++digits;
        bool numeric = digits > 0;
        std::string prefix = numeric ? name.substr(0, name.size() - digits) : name;
        std::string suffix = name.substr(name.size() - digits);
        // "n1" and "n01" must not merge: a zero-padded suffix keeps its width.
        std::size_t width = numeric && suffix.size() > 1 && suffix[0] == '0' ? suffix.size() : 0;
        auto key = std::make_tuple(prefix, width, numeric);
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.emplace(key, groups.size()).first;
            groups.push_back(Group{prefix, width, {}, {}});
        }
        if (numeric)
            groups[it->second].values.push_back(std::stoull(suffix));
        else
            groups[it->second].plain.push_back(name);
    }

    std::string out;
    auto append = [&out](const std::string& s) {
        if (!out.empty())
            out += ',';
        out += s;
    };
    for (auto& g : groups) {
        for (const auto& p : g.plain)
            append(p);
        if (g.values.empty())
            continue;
        std::sort(g.values.begin(), g.values.end());
        g.values.erase(std::unique(g.values.begin(), g.values.end()), g.values.end());
        if (g.values.size() == 1) {
            append(g.prefix + pad(g.values[0], g.width));
            continue;
        }
        std::string body;
        for (std::size_t i = 0; i < g.values.size();) {
            std::size_t j = i;
            while (j + 1 < g.values.size() && g.values[j + 1] == g.values[j] + 1)
                ++j;
            if (!body.empty())
                body += ',';
            body += pad(g.values[i], g.width);
            if (j > i)
                body += '-' + pad(g.values[j], g.width);
            i = j + 1;
        }
        append(g.prefix + "[" + body + "]");
    }
    return out;
}

} // namespace burst
