#pragma once
// Compact serialization of a jansson value, keys in insertion order (the
// order the builder chose, so request bodies are stable in tests).

#include <jansson.h>

#include <memory>
#include <string>

namespace burst {

inline std::string json_text(const json_t* value)
{
    std::unique_ptr<char, decltype(&free)> text(json_dumps(value, JSON_COMPACT | JSON_PRESERVE_ORDER), &free);
    return text ? text.get() : "";
}

} // namespace burst
