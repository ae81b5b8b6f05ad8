#pragma once
// The node groups' throughput history in PFA (Ilyushkin et al., §3.3.1-3.3.2):
// per autoscaling interval, the average throughput τ_i of every node group
// (eq. 5), smoothed either by a moving average over the last m+1 intervals
// (eqs. 7, 8, 13-15) or exponentially with factor α (eqs. 9, 16, 17).  It
// yields the resource-type ratios ρ_i, the token lookup depth ζ and the
// demand σ for θ visited cores.
//
// Throughput is counted in cores: τ_i = cores of jobs that ended on group i
// during the interval / cores of group i powered on, so that nodes and jobs
// of any width compare (one-core tasks on one-core nodes give the paper's
// tasks per resource).

#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

namespace burst {

enum class Smoothing { MovingAverage, Ewma };

class ThroughputProfile {
public:
    static constexpr double kUnbounded = std::numeric_limits<double>::infinity();

    ThroughputProfile(std::size_t groups, Smoothing smoothing, std::uint32_t depth, double alpha);

    // Closes one autoscaling interval with these throughputs (one per group).
    void record(const std::vector<double>& tau);

    // ρ: sums to 1.  Equal shares, so that each group keeps being tried
    // (the paper's rule for MA and EWMA): with MA unless every group has
    // shown throughput within the window, with EWMA in any interval in
    // which some group showed none.
    const std::vector<double>& ratios() const { return rho_; }
    // ζ: how many waves of tasks a node finishes per interval; unbounded
    // without throughput history.
    double lookup_depth() const { return zeta_; }
    // σ in cores for θ visited cores and the widest wave λ: θ over the mean
    // throughput, λ without history.  Never more than θ: a job holds one
    // slot at a time, so more cores than visited work cannot help (only
    // matters when jobs outlast an interval, τ < 1).
    double demand(double theta, double lambda) const;

private:
    void smooth_ma();
    void smooth_ewma(const std::vector<double>& tau);

    std::size_t groups_;
    Smoothing smoothing_;
    std::uint32_t depth_;
    double alpha_;
    std::deque<std::vector<double>> tau_history_; // last depth_+1 intervals
    std::vector<double> rho_;
    double zeta_ = kUnbounded;
    double mean_tau_ = 0; // the τ average σ divides by (0 = none)
};

} // namespace burst
