#include "policy/runtime/runtime_ratio_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
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

RuntimeRatioModel::Identity::Identity(const std::string& user, const std::string& name, const std::string& category,
                                      Seconds limit)
    : user(user), name(name), category(category), limit(limit), name_key(user_job_name(user, name)),
      kind_key(user_job_kind(name_key, limit))
{
}

bool RuntimeRatioModel::Identity::differs(const Job& job) const
{
    return job.time_limit != limit || job.user != user || job.name != name || job.category.text() != category;
}

void RuntimeRatioModel::begin_cycle(Time now)
{
    ++cycle_;
    for (auto it = seen_.begin(); it != seen_.end();)
        it = it->second.cycle + 1 < cycle_ ? seen_.erase(it) : std::next(it);
    now_ = now;
    // Identities of forgotten jobs linger until they outnumber the jobs
    // remembered; then the tables start afresh from those.  Kinds' running
    // jobs are the last cycle's: nothing of them is lost.
    if (identities_.size() > 2 * seen_.size() + 1024) {
        std::vector<Identity> old = std::move(identities_);
        identities_.clear();
        identity_ids_.clear();
        kind_ids_.clear();
        kinds_.clear();
        std::vector<std::uint32_t> moved(old.size(), kNotInterned);
        for (auto& [id, info] : seen_) {
            std::uint32_t& to = moved[info.identity];
            if (to == kNotInterned)
                to = intern(std::move(old[info.identity]));
            info.identity = to;
        }
    }
}

std::uint32_t RuntimeRatioModel::intern(Identity identity)
{
    // Each field behind its length, and the limit's exact bits: no two
    // identities share a key, whatever their strings hold.
    std::string key;
    auto append_bits = [&key](auto value) {
        char bytes[sizeof value];
        std::memcpy(bytes, &value, sizeof value);
        key.append(bytes, sizeof bytes);
    };
    for (const std::string* part : {&identity.category, &identity.user, &identity.name}) {
        append_bits(std::uint64_t(part->size()));
        key += *part;
    }
    append_bits(identity.limit);
    const auto [it, fresh] = identity_ids_.try_emplace(std::move(key), std::uint32_t(identities_.size()));
    if (!fresh)
        return it->second;
    if (!identity.kind_key.empty()) {
        const auto [kind, fresh_kind] = kind_ids_.try_emplace(identity.kind_key, std::uint32_t(kinds_.size()));
        if (fresh_kind)
            kinds_.emplace_back();
        identity.kind = kind->second;
    }
    identities_.push_back(std::move(identity));
    return it->second;
}

RuntimeRatioModel::Noted RuntimeRatioModel::note(const Job& job)
{
    auto [it, fresh] = seen_.try_emplace(job.id);
    Seen& info = it->second;
    if (fresh || (info.cycle != cycle_ && identities_[info.identity].differs(job)))
        info.identity = intern(Identity(job.user, job.name, job.category.text(), job.time_limit));
    Noted noted;
    noted.identity_ = info.identity;
    if (!fresh && info.cycle == cycle_)
        return noted;
    info.cycle = cycle_;
    const std::uint32_t kind = identities_[info.identity].kind;
    if (job.running() && kind != kNotInterned && job.time_limit > 0) {
        KindRunning& running = kinds_[kind];
        if (running.cycle != cycle_) {
            running.elapsed.clear();
            running.cycle = cycle_;
        }
        running.elapsed.push_back(std::max<Seconds>(0, now_ - job.start_time));
        running.floor = -1;
    }
    return noted;
}

Seconds RuntimeRatioModel::running_floor(const Identity& job) const
{
    std::uint32_t id = job.kind;
    if (id == kNotInterned) {
        const auto it = kind_ids_.find(job.kind_key);
        if (it == kind_ids_.end())
            return 0;
        id = it->second;
    }
    KindRunning& kind = kinds_[id];
    if (kind.cycle != cycle_ || kind.elapsed.empty())
        return 0;
    if (kind.floor < 0) {
        std::vector<Seconds>& e = kind.elapsed; // only its order changes
        const auto mid = e.begin() + std::ptrdiff_t(e.size() / 2);
        std::nth_element(e.begin(), mid, e.end());
        kind.floor = 2 * *mid;
    }
    return kind.floor;
}

RuntimeRatioModel::Chain RuntimeRatioModel::chain(const Identity& job, double unknown) const
{
    Chain c;
    c.all = all_ratio_.count > 0 ? all_ratio_.value : unknown;
    c.category = category_level_.estimate(job.category, c.all, job.category_place);
    c.name = name_level_.estimate(job.name_key, c.category, job.name_place);
    c.kind = kind_level_.estimate(job.kind_key, c.name, job.kind_place);
    return c;
}

Seconds RuntimeRatioModel::learned_prediction(const Identity& job) const
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
    return e;
}

Seconds RuntimeRatioModel::predict(const Identity& job) const
{
    if (job.learned_at != learned_) {
        job.learned_prediction = learned_prediction(job);
        job.learned_at = learned_;
    }
    Seconds e = job.learned_prediction;
    // Not without a limit: jobs sharing user and name but no limit are less
    // alike, and the running ones are a length-biased sample of them.
    if (!job.user.empty() && job.limit > 0)
        e = std::max(e, running_floor(job));
    return job.limit > 0 ? std::min(e, job.limit) : e;
}

Seconds RuntimeRatioModel::expected(const Job& job) const
{
    // A job noted this cycle has its identity already.
    if (auto it = seen_.find(job.id); it != seen_.end() && !identities_[it->second.identity].differs(job))
        return predict(identities_[it->second.identity]);
    return predict(Identity(job.user, job.name, job.category.text(), job.time_limit));
}

void RuntimeRatioModel::observe(const JobEnd& end)
{
    if (end.elapsed < 0)
        return;
    const Identity unknown("", "", end.category.text(), 0);
    const Identity* known = &unknown;
    if (auto it = seen_.find(end.id); it != seen_.end()) {
        known = &identities_[it->second.identity];
        seen_.erase(it);
    }
    const Identity& info = *known;
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
    ++learned_;
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
        category_runtime_.write(end.category.text()).add(end.elapsed);
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
