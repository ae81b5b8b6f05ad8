#pragma once
// The pieces of objective_bound's Lagrangian relaxation: capacity prices
// constant on time buckets, the capacity a set of placements uses per
// bucket, and one job's cheapest start against such prices.  Times are
// seconds from the grid's origin (the first release).

#include "model/clock.hpp"

#include <cstddef>
#include <limits>
#include <vector>

namespace burst {

// Prices per core·s, constant on buckets [k·width, (k+1)·width) and zero
// past the last bucket.
class BucketPrices {
public:
    BucketPrices(std::size_t buckets, Seconds width);

    std::size_t buckets() const { return price_.size(); }
    Seconds width() const { return width_; }
    double total() const { return before_.back(); } // ∫ over the grid

    // ∫ prices over [from, from + length).
    double over(Time from, Seconds length) const { return integral(from + length) - integral(from); }

    // Squared length of the gradient as projected onto prices ≥ 0: a free
    // bucket with room to spare cannot get cheaper.
    double projected_norm(const std::vector<double>& gradient) const;

    // A projected subgradient step: price += step × gradient, at least 0.
    void step(const std::vector<double>& gradient, double step);

private:
    double integral(Time x) const;

    Seconds width_;
    std::vector<double> price_;
    std::vector<double> before_; // ∫ over the buckets before k
};

// Core·s the chosen placements use in each bucket, from each placement's
// cumulative use (a ramp up at its start, down at its end) read at the
// bucket edges.
class BucketUsage {
public:
    BucketUsage(std::size_t buckets, Seconds width);

    void clear();
    void add(Time from, Seconds length, double cores);

    // Use in each bucket minus what `capacity` cores can give it: the
    // subgradient of the relaxed problem in that bucket's price.
    void excess(double capacity, std::vector<double>& out) const;

private:
    void ramp(Time x, double slope);

    Seconds width_;
    std::vector<double> slope_;
    std::vector<double> offset_;
};

struct Placement {
    double cost = std::numeric_limits<double>::infinity(); // per core
    Time start = 0;
    bool cloud = false;
};

// Improves `best` with the least  wait_price·(s − release) + fixed + ∫ prices
// over [s, s + length)  over s ≥ release, tagged `cloud`.  The integral is
// piecewise linear in s with kinks where s or s + length meets a bucket
// edge, so the least is at the release or at a kink: exact, not sampled.
void improve_placement(Placement& best, const BucketPrices& prices, Time release, Seconds length,
                       double wait_price, double fixed, bool cloud);

} // namespace burst
