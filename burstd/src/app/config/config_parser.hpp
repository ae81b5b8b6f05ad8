#pragma once
// burstd.conf -> BurstdConfig.  Every problem in the file is reported, each as
// "file:line: what: expected ..., got ...", so an admin fixes them in one pass.

#include "app/config/burstd_config.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace burst {

struct ConfigParseResult {
    BurstdConfig config;             // meaningful only when ok()
    std::vector<std::string> errors;
    bool ok() const { return errors.empty(); }
};

// `file` is the name errors are reported under.
ConfigParseResult parse_config(std::string_view text, const std::string& file);
// Reads and parses a file; an unreadable file is one error naming it.
ConfigParseResult load_config(const std::string& path);

} // namespace burst
