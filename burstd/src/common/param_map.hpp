#pragma once
// Key/value parameters whose keys compare case-insensitively, as Slurm's
// configuration keys do: "LookAhead" and "lookahead" name the same parameter.

#include "common/text.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>

namespace burst {

struct CaseInsensitiveLess {
    bool operator()(const std::string& a, const std::string& b) const
    {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
            return std::tolower(static_cast<unsigned char>(x)) < std::tolower(static_cast<unsigned char>(y));
        });
    }
};

using ParamMap = std::map<std::string, std::string, CaseInsensitiveLess>;

} // namespace burst
