#pragma once
// Owns one jansson reference: json_decref on destruction, no copies.

#include <jansson.h>

#include <memory>

namespace burst {

struct JsonDecref {
    void operator()(json_t* j) const { json_decref(j); }
};

using JsonRef = std::unique_ptr<json_t, JsonDecref>;

} // namespace burst
