#include "policy/runtime/credibility_level.hpp"

#include <algorithm>
#include <cmath>

namespace burst {
double CredibilityLevel::prior_weight() const
{
    if (sum_df_ == 0)
        return std::numeric_limits<double>::infinity();
    const double within = sum_m2_ / double(sum_df_);
    // E[n·mean²] = n·τ² + σ² per key (offsets from the parent average zero).
    const double between = (sum_n_mean2_ - double(keys_observed_) * within) / double(total_);
    if (!(between > 0))
        return std::numeric_limits<double>::infinity();
    return within / between;
}

double CredibilityLevel::estimate(const std::string& key, double parent) const
{
    return estimate(nodes_.find(key), parent);
}

double CredibilityLevel::estimate(const std::string& key, double parent, Place& place) const
{
    const std::uint64_t stamp = place.node_ ? nodes_.drops() : nodes_.additions();
    if (place.stamp_ != stamp) {
        place.node_ = nodes_.find(key);
        place.stamp_ = place.node_ ? nodes_.drops() : nodes_.additions();
    }
    return estimate(place.node_, parent);
}

double CredibilityLevel::estimate(const Node* node, double parent) const
{
    if (!node)
        return parent;
    const double k = prior_weight();
    if (std::isinf(k))
        return parent;
    const double n = std::min(double(node->n), kRecentRuns);
    const double z = n / (n + k);
    return (1 - z) * parent + z * node->recent;
}

void CredibilityLevel::observe(const std::string& key, double parent, double x)
{
    Node& node = nodes_.write(key);
    if (node.n == 0)
        ++keys_observed_;
    const double offset = x - parent;
    sum_m2_ -= node.m2;
    sum_n_mean2_ -= double(node.n) * node.mean * node.mean;
    ++node.n;
    ++total_;
    if (node.n > 1)
        ++sum_df_;
    const double delta = offset - node.mean;
    node.mean += delta / double(node.n);
    node.m2 += delta * (offset - node.mean);
    node.recent += (x - node.recent) / std::min(double(node.n), kRecentRuns);
    sum_m2_ += node.m2;
    sum_n_mean2_ += double(node.n) * node.mean * node.mean;
}

} // namespace burst
