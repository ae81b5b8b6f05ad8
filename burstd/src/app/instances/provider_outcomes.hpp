#pragma once
// Counts of what provider calls and ledger repairs came to, for metrics:
// launches (per node and placement tried) and terminations (per instance)
// per node group and outcome ("ok" or the provider's error kind), the
// launch requests sent (one per batch, retries included: nodes per request
// show the batching), and reconcile repairs per kind.  Written by the
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
    void launch_request(const std::string& group)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        ++launch_requests_[group];
    }
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
    std::map<std::string, std::uint64_t> launch_requests() const
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return launch_requests_;
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
    std::map<std::string, std::uint64_t> launch_requests_; // by group
    std::map<std::string, std::uint64_t> repairs_;
};

} // namespace burst
