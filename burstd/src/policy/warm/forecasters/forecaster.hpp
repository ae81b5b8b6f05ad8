#pragma once
// Forecasts one node group's bucket count (policy/warm/buckets) from its
// past, one value per tick: what the warm pool should hold when a node
// asked for now would be up, one measured boot time ahead.  One
// implementation per file, registered in forecaster_registry.cpp.

#include <cstdint>
#include <string_view>

namespace burst {

class Forecaster {
public:
    virtual ~Forecaster() = default;
    virtual std::string_view name() const = 0;
    // The count of the tick after the last one observed.
    virtual void observe(double count) = 0;
    // The count `steps` (>= 1) ticks after the last observed one; never
    // negative, 0 before any observation.
    virtual double forecast(std::uint32_t steps) const = 0;
};

} // namespace burst
