#pragma once
// The whole nodes that hold a fractional count of them (a bucket count, a
// forecast): a warm pool can only hold whole ones.

#include <cmath>

namespace burst {

// Rounded up; a hair above a whole number is float noise (sums of
// fractions, such as memory over a node's, land there) and holds no more.
inline double whole_nodes(double nodes) { return std::ceil(nodes - 1e-9); }

} // namespace burst
