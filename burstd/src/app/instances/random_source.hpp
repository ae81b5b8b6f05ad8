#pragma once
// Where jitter comes from.  burstd draws from a seeded generator; tests pass
// a source that returns the numbers they chose, so every delay is predictable.

#include <cstdint>
#include <mutex>
#include <random>

namespace burst {

class RandomSource {
public:
    virtual ~RandomSource() = default;
    // Uniform in [0, 1).
    virtual double uniform() = 0;
};

// Shared by the provider workers, hence the lock.
class SeededRandom final : public RandomSource {
public:
    explicit SeededRandom(std::uint64_t seed) : engine_(seed) {}
    double uniform() override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return std::uniform_real_distribution<double>(0.0, 1.0)(engine_);
    }

private:
    std::mutex mutex_;
    std::mt19937_64 engine_;
};

} // namespace burst
