#pragma once
// How a provider worker waits before retrying.  burstd really sleeps (on a
// worker thread, never on the io_context); tests record the waits and advance
// their ManualClock instead, so a test with minutes of backoff runs at once.

#include "model/clock.hpp"

#include <chrono>
#include <thread>

namespace burst {

class Sleeper {
public:
    virtual ~Sleeper() = default;
    virtual void sleep(Seconds seconds) = 0;
};

class ThreadSleeper final : public Sleeper {
public:
    void sleep(Seconds seconds) override
    {
        if (seconds > 0)
            std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    }
};

} // namespace burst
