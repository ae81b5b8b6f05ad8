#include "policy/runtime/runtime_ratio_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace burst {
namespace {

constexpr std::size_t kErrorWindow = 512;
constexpr double kErrorQuantile = 0.8;
constexpr std::uint64_t kMinSamples = 3;

std::string user_job_name(const std::string& user, const std::string& name)
{
    return user.empty() ? std::string() : user + '\n' + name;
}

std::string user_job_kind(const std::string& name_key, Seconds limit)
{
    return name_key.empty() ? std::string() : name_key + '\n' + std::to_string(std::int64_t(limit));
}

} // namespace

RuntimeRatioModel::Seen::Seen(const std::string& user, const std::string& name, const std::string& category,
                              Seconds limit)
    : user(user), name(name), category(category), limit(limit), name_key(user_job_name(user, name)),
      kind_key(user_job_kind(name_key, limit))
{
}

void RuntimeRatioModel::Seen::update(const Job& job)
{
    if (job.category != category)
        category = job.category;
    if (job.user == user && job.name == name && job.time_limit == limit)
        return;
    *this = Seen(job.user, job.name, job.category, job.time_limit);
}

void RuntimeRatioModel::begin_cycle(Time now)
{
    ++cycle_;
    for (auto it = seen_.begin(); it != seen_.end();)
        it = it->second.cycle + 1 < cycle_ ? seen_.erase(it) : std::next(it);
    now_ = now;
    running_elapsed_.clear();
    running_floor_.clear();
}

void RuntimeRatioModel::note(const Job& job)
{
    auto [it, fresh] = seen_.try_emplace(job.id);
    Seen& info = it->second;
    if (!fresh && info.cycle == cycle_)
        return;
    // Most jobs were noted last cycle too: their strings change only where the job did.
    if (fresh)
        info = Seen(job.user, job.name, job.category, job.time_limit);
    else
        info.update(job);
    info.cycle = cycle_;
    if (job.running() && !job.user.empty() && job.time_limit > 0) {
        running_elapsed_[info.kind_key].push_back(std::max<Seconds>(0, now_ - job.start_time));
        if (!running_floor_.empty()) // clear() zeroes every bucket, empty or not
            running_floor_.clear();
    }
}

Seconds RuntimeRatioModel::running_floor(const std::string& kind) const
{
    if (running_floor_.empty() && !running_elapsed_.empty())
        for (const auto& [k, elapsed] : running_elapsed_) {
            std::vector<Seconds> e = elapsed;
            const auto mid = e.begin() + std::ptrdiff_t(e.size() / 2);
            std::nth_element(e.begin(), mid, e.end());
            running_floor_.emplace(k, 2 * *mid);
        }
    auto it = running_floor_.find(kind);
    return it == running_floor_.end() ? 0 : it->second;
}

RuntimeRatioModel::Chain RuntimeRatioModel::chain(const Seen& job, double unknown) const
{
    Chain c;
    c.all = all_ratio_.count > 0 ? all_ratio_.value : unknown;
    c.category = category_level_.estimate(job.category, c.all);
    c.name = name_level_.estimate(job.name_key, c.category);
    c.kind = kind_level_.estimate(job.kind_key, c.name);
    return c;
}

Seconds RuntimeRatioModel::predict(const Seen& job) const
{
    const std::string& user = job.user;
    const std::string& category = job.category;
    const Seconds limit = job.limit;
    Seconds e = 0;
    // The mean of the last two runs filed under `key`, once there are two.
    auto last_two = [&e](const auto& runs, const std::string& key) {
        const LastTwo* last = runs.find(key);
        if (!last || last->n < 2)
            return false;
        e = (last->a + last->b) / 2;
        return true;
    };
    if (limit > 0 && !user.empty()) {
        e = std::min(chain(job, 1).kind, 1.0) * limit; // knowing nothing: the limit
    } else if (!user.empty() && (last_two(user_kind_last_, job.kind_key) || last_two(user_name_last_, job.name_key) ||
                                 last_two(user_last_, user))) {
        // e is the user's own history
    } else if (limit > 0) {
        const Mean* c = category_ratio_.find(category);
        if (c && c->count >= kMinSamples)
            e = c->value * limit;
        else if (all_ratio_.count >= kMinSamples)
            e = all_ratio_.value * limit;
        else
            e = limit;
    } else {
        const Mean* c = category_runtime_.find(category);
        if (c && c->count >= kMinSamples)
            e = c->value;
        else if (all_runtime_.count >= kMinSamples)
            e = all_runtime_.value;
    }
    // Not without a limit: jobs sharing user and name but no limit are less
    // alike, and the running ones are a length-biased sample of them.
    if (!user.empty() && limit > 0)
        e = std::max(e, running_floor(job.kind_key));
    return limit > 0 ? std::min(e, limit) : e;
}

Seconds RuntimeRatioModel::expected(const Job& job) const
{
    // A job noted this cycle has its keys already.
    if (auto it = seen_.find(job.id); it != seen_.end() && it->second.user == job.user &&
                                      it->second.name == job.name && it->second.limit == job.time_limit &&
                                      it->second.category == job.category)
        return predict(it->second);
    return predict(Seen(job.user, job.name, job.category, job.time_limit));
}

void RuntimeRatioModel::observe(const JobEnd& end)
{
    if (end.elapsed < 0)
        return;
    Seen info("", "", end.category, 0);
    if (auto it = seen_.find(end.id); it != seen_.end()) {
        info = std::move(it->second);
        seen_.erase(it);
    }
    const Seconds predicted = predict(info);
    if (predicted > 0) {
        const double err = std::abs(end.elapsed - predicted) / predicted;
        if (errors_.size() < kErrorWindow)
            errors_.push_back(err);
        else
            errors_[error_next_] = err;
        error_next_ = (error_next_ + 1) % kErrorWindow;
        max_error_cache_ = -1;
    }
    ++finished_;
    if (!info.user.empty()) {
        user_last_.write(info.user).add(end.elapsed);
        user_name_last_.write(info.name_key).add(end.elapsed);
        if (info.limit <= 0) // with a limit, the credibility levels predict the kind
            user_kind_last_.write(info.kind_key).add(end.elapsed);
    }
    if (info.limit > 0) {
        const double ratio = std::min(1.0, end.elapsed / info.limit);
        if (!info.user.empty()) {
            // The first ratio learned is no offset from anything.
            const Chain c = chain(info, ratio);
            category_level_.observe(info.category, c.all, ratio);
            name_level_.observe(info.name_key, c.category, ratio);
            kind_level_.observe(info.kind_key, c.name, ratio);
        }
        all_ratio_.add(ratio);
        if (!info.category.empty())
            category_ratio_.write(info.category).add(ratio);
    }
    all_runtime_.add(end.elapsed);
    if (!end.category.empty())
        category_runtime_.write(end.category).add(end.elapsed);
}

double RuntimeRatioModel::max_error() const
{
    if (fixed_max_error_ >= 0)
        return fixed_max_error_;
    if (max_error_cache_ >= 0)
        return max_error_cache_;
    if (errors_.empty())
        return max_error_cache_ = 0.5;
    std::vector<double> e = errors_;
    const std::size_t k = std::min(e.size() - 1, std::size_t(kErrorQuantile * double(e.size())));
    std::nth_element(e.begin(), e.begin() + std::ptrdiff_t(k), e.end());
    return max_error_cache_ = std::clamp(e[k], 0.0, 1.0);
}

Seconds RuntimeRatioModel::remaining(Seconds elapsed, Seconds expected, Seconds limit) const
{
    const Seconds to_limit = limit > 0 ? std::max<Seconds>(0, limit - elapsed) : std::numeric_limits<Seconds>::infinity();
    if (expected <= 0)
        return to_limit;
    const double m = max_error();
    const Seconds lo = (1 - m) * expected, hi = (1 + m) * expected;
    Seconds left;
    if (elapsed < lo)
        left = expected - elapsed; // the window's midpoint
    else if (elapsed < hi)
        left = (hi - elapsed) / 2; // uniform over what is left of the window
    else if (limit > 0)
        left = to_limit / 2;
    else
        left = elapsed;
    return std::min(left, to_limit);
}

} // namespace burst
