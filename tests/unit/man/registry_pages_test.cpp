// The manual pages list exactly what the registries hold: every policy with
// its parameters, every expander, every provider type with its keys.  A name
// added to a table and not to the manual (or the reverse) fails here.
#include "policy/expander/expander.hpp"
#include "policy/policy_registry.hpp"
#include "policy/warm/forecasters/forecaster_registry.hpp"
#include "provider/provider_registry.hpp"

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

std::vector<std::string> page_lines(const std::string& page)
{
    std::ifstream in(std::string(TEST_SRCDIR) + "/man/" + page);
    if (!in)
        FAIL(("cannot read man/" + page).c_str());
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// The text of roff source: font changes dropped, \- as -, other escapes as a space.
std::string plain(const std::string& roff)
{
    std::string out;
    for (std::size_t i = 0; i < roff.size(); ++i) {
        if (roff[i] != '\\' || i + 1 == roff.size()) {
            out += roff[i];
            continue;
        }
        const char c = roff[++i];
        if (c == '-' || c == 'e')
            out += c == '-' ? '-' : '\\';
        else if (c == 'f')
            ++i; // \fB, \fR, \fI, \fP
        else if (c == '(')
            i += 2, out += ' ';
        else
            out += ' ';
    }
    return out;
}

// The lines of section `name` (.SH), or of subsection `name` (.SS) up to the next .SS or .SH.
std::vector<std::string> section(const std::vector<std::string>& lines, const std::string& name, bool sub = false)
{
    std::vector<std::string> out;
    bool in = false;
    for (const auto& line : lines) {
        const bool sh = line.rfind(".SH ", 0) == 0, ss = line.rfind(".SS ", 0) == 0;
        if (in && (sh || (sub && ss)))
            break;
        if ((sub ? ss : sh) && plain(line.substr(4)) == name) {
            in = true;
            continue;
        }
        if (in)
            out.push_back(line);
    }
    return out;
}

std::string joined_text(const std::vector<std::string>& lines)
{
    std::string text;
    for (const auto& l : lines)
        text += plain(l) + "\n";
    return text;
}

// burstsim(1) POLICIES: ".TP" then ".B name", the entry running to the next .TP or .PP.
std::map<std::string, std::string> tagged_entries(const std::vector<std::string>& lines)
{
    std::map<std::string, std::string> entries;
    std::string current;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i] == ".TP" && i + 1 < lines.size() && lines[i + 1].rfind(".B ", 0) == 0) {
            current = plain(lines[i + 1].substr(3));
            entries[current];
            ++i;
        } else if (lines[i] == ".PP" || lines[i] == ".TP") {
            current.clear();
        } else if (!current.empty()) {
            entries[current] += plain(lines[i]) + "\n";
        }
    }
    return entries;
}

bool mentions(const std::string& text, const std::string& word)
{
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        const auto is_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; };
        if ((at == 0 || !is_name(text[at - 1])) && (at + word.size() == text.size() || !is_name(text[at + word.size()])))
            return true;
    }
    return false;
}

} // namespace

TEST_GROUP(RegistryPages){};

TEST(RegistryPages, BurstsimListsEveryPolicyAndItsParameters)
{
    const auto entries = tagged_entries(section(page_lines("burstsim.1"), "POLICIES"));
    std::set<std::string> documented;
    for (const auto& [name, text] : entries)
        documented.insert(name);
    std::set<std::string> registered;
    for (const auto& name : policy_names())
        registered.insert(name);
    CHECK_TRUE(documented == registered);
    for (const auto& type : policy_registry().entries()) {
        const std::string& text = entries.at(std::string(type.name));
        const std::size_t params = text.find("Parameter");
        for (const auto& p : type.parameters) {
            CHECK_TEXT(params != std::string::npos && mentions(text.substr(params), std::string(p.key)),
                       ("burstsim(1) does not list " + std::string(type.name) + "'s parameter " + std::string(p.key))
                           .c_str());
        }
    }
}

TEST(RegistryPages, BothPagesNameEveryPolicyAndExpander)
{
    const std::string burstd_conf = joined_text(section(page_lines("burstd.conf.5"), "POLICIES"));
    const std::string burstsim = joined_text(section(page_lines("burstsim.1"), "POLICIES"));
    for (const auto& name : policy_names())
        CHECK_TEXT(mentions(burstd_conf, name), ("burstd.conf(5) POLICIES does not name " + name).c_str());
    for (const auto& name : expander_names()) {
        CHECK_TEXT(mentions(burstd_conf, name), ("burstd.conf(5) POLICIES does not name expander " + name).c_str());
        CHECK_TEXT(mentions(burstsim, name), ("burstsim(1) POLICIES does not name expander " + name).c_str());
    }
}

TEST(RegistryPages, BurstdConfHasASectionPerProviderTypeWithItsKeys)
{
    const auto lines = page_lines("burstd.conf.5");
    const auto providers = section(lines, "PROVIDERS");
    std::set<std::string> documented;
    for (const auto& l : providers)
        if (l.rfind(".SS Type=", 0) == 0)
            documented.insert(l.substr(9));
    std::set<std::string> registered;
    for (const auto& name : provider_registry().names())
        registered.insert(name);
    CHECK_TRUE(documented == registered);
    const std::string all = joined_text(providers);
    for (const auto& type : provider_registry().entries())
        for (const auto& key : type.keys()) {
            const std::string own = joined_text(section(providers, "Type=" + std::string(type.name), true));
            CHECK_TEXT(mentions(own, key) || mentions(all, key),
                       ("burstd.conf(5) does not describe key " + key + " of Type=" + std::string(type.name)).c_str());
        }
}

TEST(RegistryPages, BurstsimListsEveryForecasterAndItsParameters)
{
    const auto entries = tagged_entries(section(page_lines("burstsim.1"), "FORECASTERS"));
    std::set<std::string> documented;
    for (const auto& [name, text] : entries)
        documented.insert(name);
    std::set<std::string> registered;
    for (const auto& name : forecaster_names())
        registered.insert(name);
    CHECK_TRUE(documented == registered);
    for (const auto& type : forecaster_registry().entries()) {
        const std::string& text = entries.at(std::string(type.name));
        for (const auto& p : type.parameters)
            CHECK_TEXT(mentions(text, std::string(p.key)) && mentions(text, std::string(p.fallback)),
                       ("burstsim(1) does not list " + std::string(type.name) + "'s parameter " + std::string(p.key) +
                        " with its default " + std::string(p.fallback))
                           .c_str());
    }
}
