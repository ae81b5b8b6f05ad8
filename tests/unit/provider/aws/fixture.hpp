#pragma once
// Reads a recorded provider response from ../shared/vectors/provider-fixtures.

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace burst {

inline std::string provider_fixture(const std::string& relative)
{
    const std::string path = std::string(TEST_SRCDIR) + "/../shared/vectors/provider-fixtures/" + relative;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("provider fixture missing: " + path +
                                 " (expected /work/shared next to the source tree)");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace burst
