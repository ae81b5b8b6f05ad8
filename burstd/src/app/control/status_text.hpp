#pragma once
// What "burstctl status" prints, from the JSON status burstd answers on its
// control socket (a function of its own so the rendering is unit-tested).

#include <jansson.h>

#include <ostream>

namespace burst {

void write_status_text(std::ostream& out, json_t* status);

} // namespace burst
