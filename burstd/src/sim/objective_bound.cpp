#include "sim/objective_bound.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace burst {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Prices per core·s, constant on buckets [k·width, (k+1)·width) of time
// since the first release and zero past the last bucket.
class BucketPrices {
public:
    BucketPrices(std::size_t buckets, Seconds width) : width_(width), price_(buckets, 0.0), before_(buckets + 1, 0.0) {}

    std::size_t buckets() const { return price_.size(); }
    Seconds width() const { return width_; }
    double total() const { return before_.back(); }

    // ∫ prices over [from, from + length).
    double over(Time from, Seconds length) const { return integral(from + length) - integral(from); }

    // Squared length of the gradient as projected onto prices ≥ 0: a free
    // bucket with room to spare cannot get cheaper.
    double projected_norm(const std::vector<double>& gradient) const
    {
        double norm = 0;
        for (std::size_t k = 0; k < price_.size(); ++k)
            if (price_[k] > 0 || gradient[k] > 0)
                norm += gradient[k] * gradient[k];
        return norm;
    }

    // A projected subgradient step: price += step × gradient, at least 0.
    void step(const std::vector<double>& gradient, double step)
    {
        for (std::size_t k = 0; k < price_.size(); ++k)
            price_[k] = std::max(0.0, price_[k] + step * gradient[k]);
        for (std::size_t k = 0; k < price_.size(); ++k)
            before_[k + 1] = before_[k] + price_[k] * width_;
    }

private:
    double integral(Time x) const
    {
        if (x <= 0)
            return 0;
        const double edge = x / width_;
        if (edge >= double(price_.size()))
            return before_.back();
        const auto k = std::size_t(edge);
        return before_[k] + price_[k] * (x - double(k) * width_);
    }

    Seconds width_;
    std::vector<double> price_;
    std::vector<double> before_; // ∫ over the buckets before k
};

// Core·s the chosen placements use in each bucket, from each placement's
// cumulative use (a ramp up at its start, down at its end) read at the
// bucket edges.
class BucketUsage {
public:
    BucketUsage(std::size_t buckets, Seconds width)
        : width_(width), slope_(buckets + 1, 0.0), offset_(buckets + 1, 0.0) {}

    void clear()
    {
        std::fill(slope_.begin(), slope_.end(), 0.0);
        std::fill(offset_.begin(), offset_.end(), 0.0);
    }

    void add(Time from, Seconds length, double cores)
    {
        ramp(from, cores);
        ramp(from + length, -cores);
    }

    // Use in each bucket minus what `capacity` cores can give it: the
    // subgradient of the relaxed problem in that bucket's price.
    void excess(double capacity, std::vector<double>& out) const
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

private:
    // Counts from the first bucket edge after x; past the grid it is free.
    void ramp(Time x, double slope)
    {
        const auto edge = std::size_t(x / width_) + 1;
        if (edge >= slope_.size())
            return;
        slope_[edge] += slope;
        offset_[edge] += slope * x;
    }

    Seconds width_;
    std::vector<double> slope_;
    std::vector<double> offset_;
};

struct Placement {
    double cost = kInfinity; // per core
    Time start = 0;
    bool cloud = false;
};

// Improves `best` with the least  wait_price·(s − release) + fixed + ∫ prices
// over [s, s + length)  over s ≥ release.  The integral is piecewise linear
// in s with kinks where s or s + length meets a bucket edge, so the least is
// at the release or at a kink; past wait_price·(s − release) + fixed ≥ best
// none can win.
void improve_placement(Placement& best, const BucketPrices& prices, Time release, Seconds length, double wait_price,
             double fixed, bool cloud)
{
    auto consider = [&](Time s) {
        const double cost = wait_price * (s - release) + fixed + prices.over(s, length);
        if (cost < best.cost)
            best = Placement{cost, s, cloud};
    };
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

struct BoundJob {
    Time release = 0;
    Seconds runtime = 0;
    double cpus = 0;
};

// Subgradient steps start at twice the Polyak step and halve after this
// many steps without a better bound: the usual schedule, which converges
// without knowing the optimum.
constexpr double kFirstStepScale = 2;
constexpr int kStepsBeforeHalving = 20;
// Buckets at most: a trace of years on 300-s buckets would take gigabytes
// of prices; coarser buckets only weaken the bound.
constexpr double kMostBuckets = 1 << 20;

} // namespace

std::optional<double> objective_bound(const SimConfig& config, const std::vector<TraceJob>& trace, double lambda,
                                      double achieved, const ObjectiveBoundOptions& options)
{
    if (lambda < 0 || config.local_cores == 0)
        return std::nullopt;
    std::vector<BoundJob> jobs;
    Time first = kInfinity;
    for (const auto& t : trace) {
        if (!t.parents.empty())
            return std::nullopt;
        if (t.cpus > config.local_cores)
            continue;
        jobs.push_back(BoundJob{t.submit, t.true_runtime(), double(t.cpus)});
        first = std::min(first, t.submit);
    }
    // Waiting for free: every job starts at once, locally or in the cloud.
    if (jobs.empty() || lambda == 0)
        return 0.0;

    // The cloud: the cheapest work, the fastest cores, all of them at once.
    double work_price = kInfinity, fastest = 0, cloud_cores = 0;
    for (const auto& g : config.groups) {
        work_price = std::min(work_price, g.price_per_cpu_second() / g.speed);
        fastest = std::max(fastest, g.speed);
        cloud_cores += double(simulated_node_count(g)) * g.cpus;
    }
    const bool cloud = !config.groups.empty();
    const double local_cores = config.local_cores;

    // Times from the first release.  The grid reaches well past the last
    // release: the local cores' whole work, were it fluid, plus the longest
    // job.  Capacity past the grid is free, which only weakens the bound.
    double work = 0, last = 0, longest = 0;
    for (auto& j : jobs) {
        j.release -= first;
        work += j.cpus * j.runtime;
        last = std::max(last, j.release);
        longest = std::max(longest, j.runtime);
    }
    const double horizon = last + work / local_cores + longest;
    const Seconds width = std::max({options.bucket, horizon / kMostBuckets, 1.0});
    const auto buckets = std::size_t(std::ceil(horizon / width)) + 1;

    BucketPrices local_price(buckets, width), cloud_price(buckets, width);
    BucketUsage local_use(buckets, width), cloud_use(buckets, width);
    std::vector<double> local_excess, cloud_excess;
    const double wait_price = lambda / 3600;

    double bound = 0; // the prices at 0 bound J by 0
    double step_scale = kFirstStepScale;
    int since_better = 0;
    for (int iteration = 0; iteration < options.iterations; ++iteration) {
        local_use.clear();
        cloud_use.clear();
        double dual = -local_cores * local_price.total() - (cloud ? cloud_cores * cloud_price.total() : 0);
        for (const auto& j : jobs) {
            Placement best;
            improve_placement(best, local_price, j.release, j.runtime, wait_price, 0, false);
            if (cloud)
                improve_placement(best, cloud_price, j.release, j.runtime / fastest, wait_price,
                                  work_price * j.runtime, true);
            dual += j.cpus * best.cost;
            if (best.cloud)
                cloud_use.add(best.start, j.runtime / fastest, j.cpus);
            else
                local_use.add(best.start, j.runtime, j.cpus);
        }
        if (dual > bound) {
            bound = dual;
            since_better = 0;
        } else if (++since_better == kStepsBeforeHalving) {
            step_scale /= 2;
            since_better = 0;
        }

        local_use.excess(local_cores, local_excess);
        double norm = local_price.projected_norm(local_excess);
        if (cloud) {
            cloud_use.excess(cloud_cores, cloud_excess);
            norm += cloud_price.projected_norm(cloud_excess);
        }
        // No capacity is over- or underused at a price: these prices are optimal.
        if (norm == 0)
            break;
        // A target at or under the bound would stall the steps: aim 1% above.
        const double target = std::max(achieved, bound * 1.01);
        const double step = step_scale * (target - dual) / norm;
        local_price.step(local_excess, step);
        if (cloud)
            cloud_price.step(cloud_excess, step);
    }
    return bound;
}

} // namespace burst
