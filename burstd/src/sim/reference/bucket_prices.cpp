#include "sim/reference/bucket_prices.hpp"

#include <algorithm>

namespace burst {

BucketPrices::BucketPrices(std::size_t buckets, Seconds width)
    : width_(width), price_(buckets, 0.0), before_(buckets + 1, 0.0)
{
}

double BucketPrices::projected_norm(const std::vector<double>& gradient) const
{
    double norm = 0;
    for (std::size_t k = 0; k < price_.size(); ++k)
        if (price_[k] > 0 || gradient[k] > 0)
            norm += gradient[k] * gradient[k];
    return norm;
}

void BucketPrices::step(const std::vector<double>& gradient, double step)
{
    for (std::size_t k = 0; k < price_.size(); ++k)
        price_[k] = std::max(0.0, price_[k] + step * gradient[k]);
    for (std::size_t k = 0; k < price_.size(); ++k)
        before_[k + 1] = before_[k] + price_[k] * width_;
}

double BucketPrices::integral(Time x) const
{
    if (x <= 0)
        return 0;
    const double edge = x / width_;
    if (edge >= double(price_.size()))
        return before_.back();
    const auto k = std::size_t(edge);
    return before_[k] + price_[k] * (x - double(k) * width_);
}

BucketUsage::BucketUsage(std::size_t buckets, Seconds width)
    : width_(width), slope_(buckets + 1, 0.0), offset_(buckets + 1, 0.0)
{
}

void BucketUsage::clear()
{
    std::fill(slope_.begin(), slope_.end(), 0.0);
    std::fill(offset_.begin(), offset_.end(), 0.0);
}

void BucketUsage::add(Time from, Seconds length, double cores)
{
    ramp(from, cores);
    ramp(from + length, -cores);
}

void BucketUsage::excess(double capacity, std::vector<double>& out) const
{
    out.resize(slope_.size() - 1);
    double slope = 0, offset = 0, used_before = 0;
    for (std::size_t e = 0; e + 1 < slope_.size(); ++e) {
        slope += slope_[e + 1];
        offset += offset_[e + 1];
        const double used = double(e + 1) * width_ * slope - offset; // core·s up to edge e + 1
        out[e] = used - used_before - capacity * width_;
        used_before = used;
    }
}

// Counts from the first bucket edge after x; past the grid it is free.
void BucketUsage::ramp(Time x, double slope)
{
    const auto edge = std::size_t(x / width_) + 1;
    if (edge >= slope_.size())
        return;
    slope_[edge] += slope;
    offset_[edge] += slope * x;
}

void improve_placement(Placement& best, const BucketPrices& prices, Time release, Seconds length,
                       double wait_price, double fixed, bool cloud)
{
    auto consider = [&](Time s) {
        const double cost = wait_price * (s - release) + fixed + prices.over(s, length);
        if (cost < best.cost)
            best = Placement{cost, s, cloud};
    };
    // Past this none can win: the prices' part is never negative.
    auto hopeless = [&](Time s) { return wait_price * (s - release) + fixed >= best.cost; };
    consider(release);
    const Seconds width = prices.width();
    const std::size_t edges = prices.buckets();
    for (auto k = std::size_t(release / width) + 1; k <= edges; ++k) {
        const Time s = double(k) * width;
        if (hopeless(s))
            break;
        consider(s);
    }
    for (auto k = std::size_t((release + length) / width) + 1; k <= edges; ++k) {
        const Time s = double(k) * width - length;
        if (hopeless(s))
            break;
        consider(s);
    }
}

} // namespace burst
