#include "decide_stats.hpp"

#include <cmath>

namespace burst::bench {

TailTime tail_of(const std::vector<double>& sorted)
{
    if (sorted.size() < kSamplesForP99)
        return {sorted.back(), "max"};
    return {sorted[std::size_t(std::ceil(0.99 * double(sorted.size()))) - 1], "p99"};
}

std::vector<double> growth_ratios(const std::vector<double>& medians)
{
    std::vector<double> out;
    for (std::size_t i = 1; i < medians.size(); ++i)
        out.push_back(medians[i - 1] > 0 ? medians[i] / medians[i - 1] : std::nan(""));
    return out;
}

std::vector<double> nlogn_ratios(const std::vector<std::size_t>& sizes)
{
    auto nlogn = [](std::size_t n) { return double(n) * std::log(double(n)); };
    std::vector<double> out;
    for (std::size_t i = 1; i < sizes.size(); ++i)
        out.push_back(nlogn(sizes[i]) / nlogn(sizes[i - 1]));
    return out;
}

} // namespace burst::bench
