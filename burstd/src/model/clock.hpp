#pragma once
// Time as seen by policy code.  Policies never read the system clock: burstd
// passes a SystemClock, burstsim and the tests pass a clock they advance, so a
// decision is reproducible from (state, time).

#include <atomic>
#include <chrono>

namespace burst {

// Seconds since the Unix epoch.  A double keeps sub-second resolution for the
// simulator and is exact for whole seconds far beyond any trace's horizon.
using Time = double;
using Seconds = double;

class Clock {
public:
    virtual ~Clock() = default;
    virtual Time now() const = 0;
};

class SystemClock final : public Clock {
public:
    Time now() const override
    {
        using namespace std::chrono;
        return duration<double>(system_clock::now().time_since_epoch()).count();
    }
};

// A clock that only moves when told to: the simulator's and the tests'.
// Atomic because a test may move it while burstd's provider workers read it.
class ManualClock final : public Clock {
public:
    explicit ManualClock(Time start = 0) : now_(start) {}
    Time now() const override { return now_.load(std::memory_order_relaxed); }
    void set(Time t) { now_.store(t, std::memory_order_relaxed); }
    void advance(Seconds dt) { set(now() + dt); }

private:
    std::atomic<Time> now_;
};

} // namespace burst
