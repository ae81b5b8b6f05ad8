#pragma once
// A provider's XML response that is malformed or lacks a field burstd needs.

#include <stdexcept>

namespace burst {

class XmlError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace burst
