#include "policy/threads/long_term_allocator.hpp"

#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace burst {
namespace {

constexpr std::size_t kMaxShortlists = 4096;
// A shortlist is made anew once a stage's fit has moved this far from the
// one it was made from: c by this much, E by this share.
constexpr double kCDrift = 0.02, kEDrift = 0.02;
// Sizes share a shortlist within this ratio of each other (a size hint is
// in the user's unit: bytes, reads, atoms).
constexpr double kSizeStep = 1.02;

// The largest allowed count up to `planned` (the tier may allow fewer).
std::uint32_t within(const std::vector<std::uint32_t>& counts, std::uint32_t planned)
{
    std::uint32_t t = counts.front();
    for (std::uint32_t c : counts)
        if (c <= planned)
            t = c;
    return t;
}

long size_bucket(double size)
{
    return size > 0 ? std::lround(std::log(size) / std::log(kSizeStep)) : std::numeric_limits<long>::min();
}

} // namespace

LongTermAllocator::LongTermAllocator(PolicyParams& params) : sharing_(params.get_double("sharing", 1, 1, 100)) {}

double LongTermAllocator::cost(const ThreadQuestion& q, std::uint32_t threads) const
{
    ChainPlan plan{threads};
    for (const ChainStage& s : q.rest) {
        const auto it = planned_.find(s.job);
        plan.push_back(it != planned_.end() ? it->second : s.plannable() ? 1 : s.threads);
    }
    return thread_cost(q, threads, tier_price(q, threads, sharing_), q.speed, q.elapsed, plan_rest_time(q, plan));
}

std::uint32_t LongTermAllocator::choose(const ThreadQuestion& q)
{
    if (const auto it = planned_.find(q.job); it != planned_.end())
        return within(q.counts, it->second);
    // A job alone has nothing to plan: its cheapest count now.
    if (q.rest.empty())
        return ThreadAllocator::choose(q);
    // The first job of its chain: the plan for all of it, by what its
    // stages would cost if they ran now on its tier.
    const StagePricing now{[&](std::size_t, std::uint32_t t) { return tier_price(q, t, sharing_); }, q.speed};
    const ChainPlan* best = nullptr;
    double best_cost = 0;
    for (const ChainPlan& plan : shortlist(q)) {
        const double c = plan_cost(q, plan, now, q.elapsed);
        if (!best || c < best_cost - std::abs(best_cost) * 1e-9)
            best = &plan, best_cost = c;
    }
    if (!best)
        return q.counts.front();
    for (std::size_t s = 1; s < best->size(); ++s)
        planned_[q.rest[s - 1].job] = (*best)[s];
    return within(q.counts, best->front());
}

bool LongTermAllocator::committed(const ThreadQuestion& q) const
{
    return planned_.count(q.job) > 0;
}

void LongTermAllocator::forget_unless(const std::function<bool(JobId)>& live)
{
    for (auto it = planned_.begin(); it != planned_.end();)
        it = live(it->first) ? std::next(it) : planned_.erase(it);
}

const std::vector<ChainPlan>& LongTermAllocator::shortlist(const ThreadQuestion& q)
{
    // Each stage's c and its E at the size the key rounds to.
    std::ostringstream key;
    key << std::setprecision(17);
    std::vector<double> fits;
    const auto add = [&](const JobCategory& category, const ScalingFit& fit, double size, std::uint32_t tasks,
                         std::uint32_t fixed) {
        const long bucket = size_bucket(size);
        key << category << '@' << bucket << 'x' << tasks << '/' << fixed << ';';
        fits.push_back(fit.c);
        fits.push_back(fit.known ? single_threaded_time(fit, size > 0 ? std::pow(kSizeStep, double(bucket)) : 0) : 0);
    };
    add(*q.category, q.fit, q.size, q.tasks, 0);
    for (const ChainStage& s : q.rest)
        add(*s.category, s.fit, s.size, s.tasks, s.plannable() ? 0 : s.threads);
    for (std::uint32_t t : q.counts)
        key << ',' << t;
    key << '|' << q.local_price << '|' << q.lambda << '|' << q.reward_scale << '|' << int(q.reward);
    auto it = shortlists_.find(key.str());
    const auto close = [&](const std::vector<double>& kept) {
        for (std::size_t i = 0; i < fits.size(); i += 2)
            if (std::abs(fits[i] - kept[i]) > kCDrift || std::abs(fits[i + 1] - kept[i + 1]) > kEDrift * kept[i + 1])
                return false;
        return true;
    };
    if (it == shortlists_.end()) {
        if (shortlists_.size() >= kMaxShortlists) {
            shortlists_.erase(made_.front());
            made_.pop_front();
        }
        it = shortlists_.emplace(key.str(), Shortlist{fits, plan_shortlist(q, kShortlist)}).first;
        made_.push_back(it->first);
    } else if (!close(it->second.fits)) {
        it->second = Shortlist{fits, plan_shortlist(q, kShortlist)};
    }
    return it->second.plans;
}

} // namespace burst
