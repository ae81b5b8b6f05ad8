#include "provider/gcp/gce_labels.hpp"

namespace burst {

namespace {

bool plain(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

} // namespace

std::string encode_gce_label(const std::string& value)
{
    static const char* kHex = "0123456789abcdef";
    std::string out;
    for (char c : value) {
        if (plain(c)) {
            out += c;
        } else {
            const auto b = static_cast<unsigned char>(c);
            out += '_';
            out += kHex[b >> 4];
            out += kHex[b & 15];
        }
    }
    return out;
}

std::optional<std::string> decode_gce_label(const std::string& label)
{
    std::string out;
    for (std::size_t i = 0; i < label.size(); ++i) {
        if (plain(label[i])) {
            out += label[i];
            continue;
        }
        if (label[i] != '_' || i + 2 >= label.size())
            return std::nullopt;
        const int hi = hex_value(label[i + 1]);
        const int lo = hex_value(label[i + 2]);
        if (hi < 0 || lo < 0)
            return std::nullopt;
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

bool fits_gce_label(const std::string& value)
{
    return encode_gce_label(value).size() <= 63;
}

bool is_gce_instance_name(const std::string& name)
{
    if (name.empty() || name.size() > 63 || !(name[0] >= 'a' && name[0] <= 'z') || name.back() == '-')
        return false;
    for (char c : name)
        if (!plain(c))
            return false;
    return true;
}

} // namespace burst
