#include "provider/cloud/sha256.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>

namespace burst {

std::string sha256(std::string_view data)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(data.data(), data.size(), out, &len, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("OpenSSL SHA-256 failed");
    return std::string(reinterpret_cast<char*>(out), len);
}

std::string hmac_sha256(std::string_view key, std::string_view data)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
              reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &len))
        throw std::runtime_error("OpenSSL HMAC-SHA256 failed");
    return std::string(reinterpret_cast<char*>(out), len);
}

std::string hex_lower(std::string_view bytes)
{
    static const char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 0xf];
    }
    return out;
}

} // namespace burst
