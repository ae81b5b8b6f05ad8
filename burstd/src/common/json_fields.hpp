#pragma once
// Reading fields of parsed JSON without trusting their shape: a response or
// message that lacks a field, or has one of another type, reads as empty.
// Callers that require a field check for the empty value and say which.

#include <jansson.h>

#include <string>

namespace burst {

// The string at `key` of `object`, or "" when absent, not a string, or
// `object` is not an object.
inline std::string string_field(const json_t* object, const char* key)
{
    const json_t* v = json_object_get(object, key);
    return json_is_string(v) ? json_string_value(v) : "";
}

} // namespace burst
