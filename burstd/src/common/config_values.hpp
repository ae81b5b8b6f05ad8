#pragma once
// Parsers for the value syntaxes burstd.conf uses (policy parameters too).  Each returns nullopt on
// anything that is not exactly a value of its kind (no trailing junk).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace burst {

// Decimal number >= 0, e.g. "0.34", "12".
std::optional<double> parse_non_negative_number(const std::string& s);
// Decimal integer in [0, max].
std::optional<std::uint64_t> parse_unsigned(const std::string& s, std::uint64_t max);
// yes/no, true/false, on/off, 1/0 in any case.
std::optional<bool> parse_bool(const std::string& s);
// Seconds: "90", "90s", "5m", "2h", "1d", "1w", or hour/day/week.
std::optional<double> parse_duration(const std::string& s);
// Comma-separated, no empty items.
std::optional<std::vector<std::string>> parse_list(const std::string& s);

// "a, b, c": the lists of known names in error messages.
std::string joined(const std::vector<std::string>& words);

// The candidate closest to `word` if it is close enough to be a typo, else "".
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

} // namespace burst
