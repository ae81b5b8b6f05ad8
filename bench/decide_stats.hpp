#pragma once
// Summaries of repeated Policy::decide timings for bench/burst_bench: the tail
// of one size's samples, and how the median grows from one size to the next.

#include <cstddef>
#include <string>
#include <vector>

namespace burst::bench {

// A p99 needs 100 samples; with fewer the largest is all an honest label allows.
constexpr std::size_t kSamplesForP99 = 100;

struct TailTime {
    double ms = 0;
    std::string label; // "p99" or "max"
};

// `sorted`: ascending, not empty.  The nearest-rank 99th percentile, or the
// max with fewer than kSamplesForP99 samples.
TailTime tail_of(const std::vector<double>& sorted);

// medians[i] / medians[i-1] for each size after the first; NaN where the
// smaller one is 0 (below the clock's resolution: no ratio to speak of).
std::vector<double> growth_ratios(const std::vector<double>& medians);

// (n log n)(sizes[i]) / (n log n)(sizes[i-1]): what the median may grow by
// if decide is to stay within n log n.
std::vector<double> nlogn_ratios(const std::vector<std::size_t>& sizes);

} // namespace burst::bench
