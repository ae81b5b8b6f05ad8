#pragma once
// Reads a provider section's keys for one cloud's config: every key must be
// one the cloud knows (case-insensitive), required keys must be non-empty,
// numbers and booleans must parse.  Errors are thrown as Error naming the key.

#include "model/clock.hpp"
#include "provider/cloud/provider_params.hpp"

#include <cctype>
#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

namespace burst {

inline bool param_key_equals(const std::string& a, const std::string& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

template <class Error> class ParamReader {
public:
    ParamReader(const ProviderParams& params, std::vector<std::string> known) : params_(params)
    {
        for (const auto& [key, value] : params) {
            bool found = false;
            for (const auto& k : known)
                found = found || param_key_equals(k, key);
            if (!found) {
                std::string all;
                for (const auto& k : known)
                    all += (all.empty() ? "" : ", ") + k;
                throw Error("unknown key " + key + "=; known keys: " + all);
            }
        }
    }
    std::string optional(const std::string& key) const
    {
        for (const auto& [k, v] : params_)
            if (param_key_equals(k, key))
                return v;
        return "";
    }
    std::string required(const std::string& key, const std::string& what) const
    {
        std::string v = optional(key);
        if (v.empty())
            throw Error(key + "= is required: " + what);
        return v;
    }
    Seconds seconds(const std::string& key, Seconds fallback) const
    {
        const std::string v = optional(key);
        if (v.empty())
            return fallback;
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        if (end == v.c_str() || *end != '\0' || d < 0)
            throw Error(key + "=" + v + ": expected a number of seconds");
        return d;
    }
    // A whole number from 1 to `most`.
    std::size_t count(const std::string& key, std::size_t most, std::size_t fallback) const
    {
        const std::string v = optional(key);
        if (v.empty())
            return fallback;
        char* end = nullptr;
        const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
        if (end == v.c_str() || *end != '\0' || v[0] == '-' || n < 1 || n > most)
            throw Error(key + "=" + v + ": expected a number from 1 to " + std::to_string(most));
        return static_cast<std::size_t>(n);
    }
    bool boolean(const std::string& key, bool fallback) const
    {
        const std::string v = optional(key);
        if (v.empty())
            return fallback;
        if (param_key_equals(v, "yes") || param_key_equals(v, "true") || v == "1")
            return true;
        if (param_key_equals(v, "no") || param_key_equals(v, "false") || v == "0")
            return false;
        throw Error(key + "=" + v + ": expected yes or no");
    }

    // A comma-separated list of zone names, preferred first, each made only
    // of `allowed` characters (they end up in URLs and JSON); empty if unset.
    std::vector<std::string> zones(const std::string& key, const std::string& allowed) const
    {
        const std::string v = optional(key);
        std::vector<std::string> out;
        std::size_t start = 0;
        while (!v.empty()) {
            const std::size_t comma = v.find(',', start);
            const std::string z = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            if (z.empty() || z.find_first_not_of(allowed) != std::string::npos)
                throw Error(key + "=" + v + ": expected zone names separated by commas (characters: " + allowed + ")");
            for (const auto& seen : out)
                if (seen == z)
                    throw Error(key + "=" + v + ": zone " + z + " is named twice");
            out.push_back(z);
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
        return out;
    }

private:
    const ProviderParams& params_;
};

} // namespace burst
