#pragma once
// Free local cores over time as a step function, for planning with exact
// runtimes: where is the first hole of `cores` cores lasting `duration`
// from a given time, and reserve it.  Conservative backfilling's profile
// (Mu'alem and Feitelson), used by the clairvoyant reference.

#include "model/clock.hpp"

#include <cstdint>
#include <map>
#include <vector>

namespace burst {

class CoreProfile {
public:
    explicit CoreProfile(std::uint32_t cores);

    // Earliest t ≥ from with at least `cores` free over [t, t + duration).
    // `cores` must not exceed the profile's total; a job of no duration
    // starts at `from`.
    Time earliest_fit(Time from, Seconds duration, std::uint32_t cores) const;
    // Take `cores` over [start, start + duration).
    void reserve(Time start, Seconds duration, std::uint32_t cores);
    struct Span {
        Time start = 0;
        Seconds duration = 0;
        std::uint32_t cores = 0;
    };
    // The same as reserve() for each span, in O((steps + spans) log) rather
    // than O(steps each span covers) per span: long runs over a busy
    // profile (a replay of 170k jobs) made reserve() quadratic.
    void reserve_all(const std::vector<Span>& spans);
    // Forget the steps before `t` (nothing will be asked about them again).
    void forget_before(Time t);
    std::uint32_t total() const { return total_; }
    std::size_t steps() const { return free_.size(); }

private:
    std::uint32_t total_;
    std::map<Time, std::int64_t> free_; // free cores from the key until the next key
    std::map<Time, std::int64_t>::iterator split(Time t);
};

} // namespace burst
