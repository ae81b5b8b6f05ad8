#include "provider/gcp/request_uuid.hpp"

#include "provider/cloud/sha256.hpp"

namespace burst {

std::string request_uuid(const std::string& token)
{
    std::string bytes = sha256(token).substr(0, 16);
    bytes[6] = static_cast<char>((static_cast<unsigned char>(bytes[6]) & 0x0f) | 0x50);
    bytes[8] = static_cast<char>((static_cast<unsigned char>(bytes[8]) & 0x3f) | 0x80);
    const std::string hex = hex_lower(bytes);
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
           hex.substr(20, 12);
}

} // namespace burst
