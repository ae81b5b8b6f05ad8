#pragma once
// [0, 1) from 53 random bits: the same on every platform, unlike
// std::uniform_real_distribution, so a seed replays the same run anywhere.

#include <random>

namespace burst {

inline double unit_draw(std::mt19937_64& rng)
{
    return double(rng() >> 11) * 0x1.0p-53;
}

} // namespace burst
