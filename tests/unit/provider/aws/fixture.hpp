#pragma once
// Reads a recorded provider response from tests/data/provider-fixtures (see
// tests/data/SOURCES.md).

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace burst {

inline std::string provider_fixture(const std::string& relative)
{
    const std::string path = std::string(TEST_SRCDIR) + "/tests/data/provider-fixtures/" + relative;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("provider fixture missing: " + path +
                                 " (tests/data/provider-fixtures of the source tree)");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace burst
