#include "policy/reason_text.hpp"

#include <cstdio>

namespace burst {

std::string money(double amount)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", amount);
    return text;
}

} // namespace burst
