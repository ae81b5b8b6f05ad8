#pragma once
// Time as seen by policy code.  Policies never read the system clock: burstd
// passes a SystemClock, burstsim and the tests pass a clock they advance, so a
// decision is reproducible from (state, time).

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
class ManualClock final : public Clock {
public:
    explicit ManualClock(Time start = 0) : now_(start) {}
    Time now() const override { return now_; }
    void set(Time t) { now_ = t; }
    void advance(Seconds dt) { now_ += dt; }

private:
    Time now_;
};

} // namespace burst
