#pragma once
// Counts of what provider calls and ledger repairs came to, for metrics:
// launches and terminations per node group and outcome ("ok" or the
// provider's error kind), and reconcile repairs per kind.  Written by the
// instance manager's workers, read by the metrics renderer: thread-safe.

#include "provider/provider.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace burst {

class ProviderOutcomes {
public:
    // (call "launch"|"terminate", group, outcome) -> count
    using CallCounts = std::map<std::tuple<std::string, std::string, std::string>, std::uint64_t>;

    void launch(const std::string& group, const ProviderError& error) { add("launch", group, error); }
    void terminate(const std::string& group, const ProviderError& error) { add("terminate", group, error); }
    void repair(const std::string& kind)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        ++repairs_[kind];
    }
    CallCounts calls() const
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return calls_;
    }
    std::map<std::string, std::uint64_t> repairs() const
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return repairs_;
    }

private:
    void add(const char* call, const std::string& group, const ProviderError& error)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        ++calls_[{call, group, error ? std::string(to_string(error.kind)) : std::string("ok")}];
    }

    mutable std::mutex mutex_;
    CallCounts calls_;
    std::map<std::string, std::uint64_t> repairs_;
};

} // namespace burst
