#include "model/gres.hpp"

#include "common/text.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <stdexcept>
#include <string>

namespace burst {
namespace {

// Slurm's multipliers (suffix_mult): k, m, g, t, p and kib ... pib are
// powers of 1024, kb ... pb powers of 1000, any case.
std::uint64_t multiplier(std::string_view suffix)
{
    if (suffix.empty())
        return 1;
    const std::string_view prefixes = "kmgtp";
    const std::size_t power = prefixes.find(char(std::tolower(static_cast<unsigned char>(suffix[0]))));
    if (power == std::string_view::npos)
        return 0;
    std::string rest;
    for (char c : suffix.substr(1))
        rest += char(std::tolower(static_cast<unsigned char>(c)));
    if (!rest.empty() && rest != "ib" && rest != "b")
        return 0;
    const std::uint64_t base = rest == "b" ? 1000 : 1024;
    std::uint64_t m = 1;
    for (std::size_t p = 0; p <= power; ++p)
        m *= base;
    return m;
}

// Slurm's counts: digits with an optional multiplier.
bool read_count(std::string_view text, std::uint64_t& count)
{
    if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])))
        return false;
    std::uint64_t value = 0;
    std::size_t i = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
        const unsigned digit = unsigned(text[i] - '0');
        if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
            return false;
        value = value * 10 + digit;
    }
    const std::uint64_t m = multiplier(text.substr(i));
    if (m == 0 || value > std::numeric_limits<std::uint64_t>::max() / m)
        return false;
    count = value * m;
    return true;
}

[[noreturn]] void unreadable(std::string_view entry, std::string_view what)
{
    throw std::invalid_argument("gres \"" + std::string(entry) + "\": " + std::string(what));
}

// name[:type][:count] with the words `ignored` dropped wherever they stand.
GresCount read_entry(std::string_view entry, std::string_view ignored)
{
    std::vector<std::string_view> fields;
    for (std::string_view f : split(entry, ':'))
        if (ignored.empty() || !iequals(f, ignored))
            fields.push_back(f);
    if (fields.empty() || fields[0].empty())
        unreadable(entry, "expected name[:type][:count]");
    GresCount gres;
    gres.name = std::string(fields[0]);
    if (fields.size() > 1 && read_count(fields.back(), gres.count))
        fields.pop_back();
    if (fields.size() > 2)
        unreadable(entry, "expected name[:type][:count]");
    if (fields.size() == 2) {
        if (fields[1].empty())
            unreadable(entry, "empty type");
        gres.type = std::string(fields[1]);
    }
    return gres;
}

} // namespace

std::vector<GresCount> parse_gres_request(std::string_view text)
{
    std::vector<GresCount> request;
    if (text.empty() || text == "none")
        return request;
    for (std::string_view entry : split(text, ',')) {
        if (entry.empty())
            continue; // Slurm skips empty entries ("gpu:2,")
        std::string_view body = entry;
        if (starts_with(body, "gres:") || starts_with(body, "gres/"))
            body.remove_prefix(5);
        if (body == "none")
            continue;
        GresCount gres = read_entry(body, "");
        if (gres.count == 0)
            continue; // "gpu:0" asks for none
        request.push_back(std::move(gres));
    }
    return request;
}

std::vector<GresCount> parse_node_gres(std::string_view text)
{
    std::vector<GresCount> node;
    if (text.empty())
        return node;
    // Commas inside a socket binding ("(S:0,1)") do not separate entries.
    std::size_t depth = 0, start = 0;
    std::vector<std::string_view> entries;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || (text[i] == ',' && depth == 0)) {
            entries.push_back(text.substr(start, i - start));
            start = i + 1;
        } else if (text[i] == '(') {
            ++depth;
        } else if (text[i] == ')') {
            if (depth == 0)
                unreadable(text, "')' without '('");
            --depth;
        }
    }
    if (depth != 0)
        unreadable(text, "'(' without ')'");
    for (std::string_view entry : entries) {
        if (entry.empty())
            continue;
        std::string_view body = entry.substr(0, entry.find('('));
        if (entry.find('(') != std::string_view::npos && entry.back() != ')')
            unreadable(entry, "text after the socket binding");
        node.push_back(read_entry(body, "no_consume"));
    }
    return node;
}

std::vector<GresCount> common_gres(const std::vector<GresCount>& a, const std::vector<GresCount>& b)
{
    // A name and type may be listed twice (one entry per socket binding):
    // each side's entries of it add up before the two are compared.
    auto total = [](const std::vector<GresCount>& node, const GresCount& kind) {
        std::uint64_t n = 0;
        for (const GresCount& g : node)
            if (g.name == kind.name && g.type == kind.type)
                n += g.count;
        return n;
    };
    std::vector<GresCount> common;
    for (const GresCount& g : a) {
        bool seen = false;
        for (const GresCount& c : common)
            seen = seen || (c.name == g.name && c.type == g.type);
        const std::uint64_t both = std::min(total(a, g), total(b, g));
        if (!seen && both > 0)
            common.push_back(GresCount{g.name, g.type, both});
    }
    return common;
}

bool gres_fits(const std::vector<GresCount>& request, const std::vector<GresCount>& node)
{
    for (const GresCount& want : request) {
        std::uint64_t have = 0;
        for (const GresCount& g : node)
            if (g.name == want.name && (want.type.empty() || g.type == want.type))
                have += g.count;
        if (have < want.count)
            return false;
    }
    return true;
}

} // namespace burst
