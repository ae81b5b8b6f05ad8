#pragma once
// How one job category's run time scales with its threads, learned from its
// runs (Smowton et al., section III-A): with t threads and input size d,
//     T(t, d) = E(d) · (c/t + 1 − c),   E(d) = a·d + b,
// c being the share of the single-threaded time E that scales.  Expanded,
// T = b(1−c) + bc·(1/t) + a(1−c)·d + ac·(d/t) is linear in (1, 1/t, d, d/t),
// so the model keeps only the weighted sums a least-squares fit needs, in a
// fixed 200-odd bytes, and older runs weigh less (`decay` per run) so that a
// category that changes is relearned.  Runs without a size hint drop the d
// columns.  A fit is "known" only with enough runs, at two thread counts or
// more, and c precise enough: otherwise jobs keep what their users asked for.

#include "model/clock.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace burst {

struct ScalingRun {
    std::uint32_t threads = 1; // CPUs per task it ran with
    Seconds elapsed = 0;
    double size = 0; // its size hint; 0: none
};

struct ScalingSettings {
    double min_runs = 5;        // effective runs (decayed weights) before a fit is known
    double max_c_error = 0.1;   // standard error of c a known fit may have
    double decay = 0.98;        // weight kept by every earlier run when one is added
};

struct ScalingFit {
    bool known = false;
    double c = 0;                                             // in [0, 1]
    double c_error = std::numeric_limits<double>::infinity(); // its standard error
    double a = 0;      // single-threaded seconds per unit of size (0 without size hints)
    double b = 0;      // single-threaded seconds at size 0
    double runs = 0;   // effective number of runs
    std::uint32_t thread_counts = 0; // distinct thread counts seen (up to kCountsKept)

    // The expected run time with `threads` threads at `size`.
    Seconds time(std::uint32_t threads, double size = 0) const;
};

class ScalingModel {
public:
    static constexpr std::size_t kCountsKept = 8;

    // A run is learned from only if it has a thread count and a run time.
    void add(const ScalingRun& run, double decay);
    ScalingFit fit(const ScalingSettings& settings) const;

    // The sums as one line of numbers, to be kept across restarts, and back;
    // from_text says what is wrong with a line it refuses.
    std::string to_text() const;
    static std::optional<ScalingModel> from_text(std::string_view text, std::string& error);
    // Whether a run with a size hint was learned: then E is fitted as a·size + b.
    bool sized() const { return sized_; }

private:
    // Weighted sums over runs of x xᵀ (upper triangle, row-major) and x·T,
    // x = (1, 1/t, d, d/t).
    std::array<double, 10> xx_{};
    std::array<double, 4> xy_{};
    double yy_ = 0;
    double w_ = 0;  // Σ w
    double ww_ = 0; // Σ w², for the effective number of runs
    bool sized_ = false;
    std::array<std::uint16_t, kCountsKept> counts_{}; // distinct thread counts, 0 = free slot
};

} // namespace burst
