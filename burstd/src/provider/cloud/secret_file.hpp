#pragma once
// Reads a file that holds a secret (a private key, a client secret).  A file
// that group or others may read is refused: the secret may already be out,
// and the operator should know before burstd relies on it.

#include <string>

namespace burst {

// Throws std::runtime_error naming the path and the problem.
std::string read_secret_file(const std::string& path);

// The same refusal without reading: every provider's credentials file goes
// through it, so the rule and the message are the same for all clouds.
void check_secret_file_mode(const std::string& path);

} // namespace burst
