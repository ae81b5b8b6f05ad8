#pragma once
// burstd -> plugin lines: per-category thread counts for --threads=auto jobs
// (advice) and requests for a whole snapshot (resync).

#include "model/clock.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace burst {

constexpr std::uint32_t kMaxAdvisedThreads = 1024;

// One NDJSON line, newline included: burstd's whole table ("replace": true),
// which takes the place of whatever the plugin held, so that advice burstd
// no longer gives is dropped too.  Throws std::invalid_argument for a thread
// count outside 1..kMaxAdvisedThreads: the plugin would reject it.
std::string serialize_advice(const std::string& cluster, std::uint64_t seq, Time time,
                             const std::map<std::string, std::uint32_t>& threads);

// One NDJSON line, newline included, asking the plugin for a whole snapshot
// next; `reason` is for its log.
std::string serialize_resync(const std::string& cluster, std::uint64_t seq, Time time, const std::string& reason);

} // namespace burst
