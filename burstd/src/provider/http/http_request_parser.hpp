#pragma once
// Reads an HTTP/1.x request from its text form (request line, header lines,
// blank line, body).  Used to load the SigV4 test suite's recorded requests,
// whose header values may continue on following lines that start with
// whitespace (obsolete line folding); those continuations are kept in the
// value, joined by '\n', and no value is trimmed, so a signer sees the value
// exactly as it was written and must canonicalize it itself.

#include "provider/http/http_message.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

namespace burst {

class HttpParseError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// `source` names the text in error messages ("file.txt:3: ...").
HttpRequest parse_http_request(std::string_view text, std::string_view source);

} // namespace burst
