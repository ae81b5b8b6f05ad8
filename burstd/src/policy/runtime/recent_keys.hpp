#pragma once
// A string-keyed map that keeps only its most recently written keys.
//
// What burstd learns per user, job name and time limit meets new keys for
// as long as it runs: a site whose job names carry a date or a sequence
// number makes a new kind with nearly every job, and a kind last run months
// ago says little about its next run.  So each such map keeps the
// `capacity` keys written last: once it holds twice that, the least
// recently written half is dropped in one sweep (amortized O(1) a write;
// lookups do not count as use, so what is kept is what is still learned).
// A dropped key that comes back starts afresh.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

// Keys a learned map keeps: far above the kinds of every trace under
// tests/data/traces (LCG-2005: 6,719 over 170,862 jobs), so nothing a site
// still runs is forgotten, and at most twice this many strings per map.
inline constexpr std::size_t kRecentKeys = 32768;

template <class Value>
class RecentKeys {
public:
    explicit RecentKeys(std::size_t capacity = kRecentKeys) : capacity_(std::max<std::size_t>(1, capacity)) {}

    // The value under `key`, value-initialized when new; marks it written
    // last.  The reference lasts until the next write of a new key (which
    // may drop the key it refers to).
    Value& write(const std::string& key)
    {
        auto it = entries_.find(key);
        if (it == entries_.end()) {
            if (entries_.size() >= 2 * capacity_)
                drop_oldest();
            it = entries_.emplace(key, Entry{}).first;
            ++additions_;
        }
        it->second.written = ++clock_;
        return it->second.value;
    }

    const Value* find(const std::string& key) const
    {
        auto it = entries_.find(key);
        return it == entries_.end() ? nullptr : &it->second.value;
    }

    std::size_t size() const { return entries_.size(); }
    // What find() answered stays true while these are unchanged: a value it
    // found stays where it is until keys are dropped, and a key it did not
    // find stays absent until keys are added.
    std::uint64_t additions() const { return additions_; }
    std::uint64_t drops() const { return drops_; }

private:
    struct Entry {
        Value value{};
        std::uint64_t written = 0;
    };

    // Keeps the `capacity_` keys written last (write stamps are distinct).
    void drop_oldest()
    {
        std::vector<std::uint64_t> stamps;
        stamps.reserve(entries_.size());
        for (const auto& [key, entry] : entries_)
            stamps.push_back(entry.written);
        const auto cut = stamps.end() - std::ptrdiff_t(capacity_);
        std::nth_element(stamps.begin(), cut, stamps.end());
        const std::uint64_t oldest_kept = *cut;
        ++drops_;
        for (auto it = entries_.begin(); it != entries_.end();)
            it = it->second.written < oldest_kept ? entries_.erase(it) : std::next(it);
    }

    std::unordered_map<std::string, Entry> entries_;
    std::uint64_t clock_ = 0;
    std::uint64_t additions_ = 0;
    std::uint64_t drops_ = 0;
    std::size_t capacity_;
};

} // namespace burst
