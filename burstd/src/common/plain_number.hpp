#pragma once
#include <sstream>
#include <string>

namespace burst {

// A number as a person writes it, in at most six significant digits:
// 0.001, 1, 1e-09, 2.5e+06 (not std::to_string's 0.001000).
inline std::string plain_number(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

} // namespace burst
