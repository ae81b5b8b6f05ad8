#pragma once
// Splits burstd.conf text into logical lines of Key=Value pairs, the way
// slurm.conf is written: several pairs per line, '#' comments, blank lines,
// "quoted values" with spaces, and a trailing '\' continuing a line.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

struct ConfigPair {
    std::string key;
    std::string value;
};

struct ConfigLine {
    std::size_t number = 0; // physical line where the logical line starts
    std::vector<ConfigPair> pairs;
};

struct LexedConfig {
    std::vector<ConfigLine> lines;   // non-empty lines only
    std::vector<std::string> errors; // "file:line: expected ..."
};

LexedConfig lex_config(std::string_view text, const std::string& file);

} // namespace burst
