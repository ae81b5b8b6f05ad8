#pragma once
// Decodes one NDJSON line from the plugin.  Validates every field it uses and
// rejects the whole message on the first bad one, naming its path; fields it
// does not know are ignored so newer plugins can add them.

#include "ingest/protocol_message.hpp"

#include <string_view>

namespace burst {

// `line` excludes the terminating newline.
ParsedMessage parse_message(std::string_view line);

} // namespace burst
