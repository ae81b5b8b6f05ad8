#pragma once
// bench/burst_bench's command line.

#include <cstddef>
#include <string>
#include <vector>

// The build sets it to the source tree's tests/data/traces/swf (bench/local.mk);
// without it, the same folder relative to the working directory.
#ifndef BURST_BENCH_TRACE_DIR
#define BURST_BENCH_TRACE_DIR "tests/data/traces/swf"
#endif

namespace burst::bench {

extern const char* const kUsage;

struct BenchArgs {
    bool help = false;
    std::string error; // non-empty: a bad command line, say it with the usage
    std::string trace_dir = BURST_BENCH_TRACE_DIR;
    std::vector<std::string> sections; // empty = all
    std::vector<std::size_t> sizes{1000, 10000, 100000, 1000000};
    std::vector<std::string> policies; // the decide section's rows; empty = all
    bool cold = false; // evict the caches before every timed decision

    bool wants(const std::string& section) const;
    // The first of `policies` not in `known`, or "" when all are.
    std::string unknown_policy(const std::vector<std::string>& known) const;
};

// [--sizes N,N,...] [--policies P,P,...] [--cold] [TRACE_DIR [SECTION...]], --help/-h; an option-looking
// word is never a trace directory.
BenchArgs parse_bench_args(const std::vector<std::string>& args);

} // namespace burst::bench
