#pragma once
// One table per pluggable kind (policies, expanders, providers): each entry
// names itself, says in one line what it is, and says how to build it.  The
// factory, the list of known names, the "unknown X" error and the --list-*
// output all read the same table, so none of them can forget an entry.

#include "common/config_values.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace burst {

// A configuration parameter as the --list-* output and the manual pages show it.
struct ParameterDoc {
    std::string_view key;
    std::string_view fallback; // its default, as written ("" when unset by default)
    std::string_view description;
};

// Entry: a struct with at least `std::string_view name` and `std::string_view description`.
template <class Entry>
class Registry {
public:
    Registry(std::string kind, std::vector<Entry> entries) : kind_(std::move(kind)), entries_(std::move(entries)) {}

    const Entry* find(std::string_view name) const
    {
        for (const auto& e : entries_)
            if (e.name == name)
                return &e;
        return nullptr;
    }
    std::vector<std::string> names() const
    {
        std::vector<std::string> out;
        for (const auto& e : entries_)
            out.emplace_back(e.name);
        return out;
    }
    // "unknown policy 'alway' (did you mean always?) (known: never, always)"
    std::string unknown(std::string_view name) const
    {
        const std::vector<std::string> known = names();
        const std::string hint = closest_match(std::string(name), known);
        return "unknown " + kind_ + " '" + std::string(name) + "'" +
               (hint.empty() ? "" : " (did you mean " + hint + "?)") + " (known: " + joined(known) + ")";
    }
    const std::vector<Entry>& entries() const { return entries_; }
    const std::string& kind() const { return kind_; }

private:
    std::string kind_;
    std::vector<Entry> entries_;
};

} // namespace burst
