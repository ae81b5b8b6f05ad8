#pragma once
// A policy's parameters as configured (burstd.conf `PolicyParam=` or
// `burstsim --param k=v`): strings in, typed and range-checked values out.
// Every key must be read by the policy; leftovers are rejected so that a
// misspelled parameter is an error rather than a silent default.  Keys are
// case-insensitive (burstd.conf's rule; burstsim --param follows it): they
// are stored in lower case, the case policies read them in.

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace burst {

class PolicyConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Where a number may lie: [min, max], an open end leaving its bound out
// ("(0, 1]" for a share that must move something).
struct NumberRange {
    double min = 0;
    double max = 0;
    bool min_open = false;
    bool max_open = false;

    bool holds(double v) const
    {
        return (min_open ? v > min : v >= min) && (max_open ? v < max : v <= max);
    }
    // As a reader writes it: "(0, 1]", "[1, 100]".
    std::string text() const;
};

class PolicyParams {
public:
    PolicyParams() = default;
    explicit PolicyParams(const std::map<std::string, std::string>& values);

    // "k=v" as given on a command line; throws PolicyConfigError without '='.
    void set(const std::string& assignment);
    void set(const std::string& key, const std::string& value);

    double get_double(const std::string& key, double fallback, double min, double max)
    {
        return get_double(key, fallback, NumberRange{min, max});
    }
    double get_double(const std::string& key, double fallback, const NumberRange& range);
    // Seconds, in burstd.conf's duration syntax ("300", "5m", "1d"; see
    // common/config_values.hpp).
    double get_duration(const std::string& key, double fallback, double min, double max);
    std::uint32_t get_uint(const std::string& key, std::uint32_t fallback, std::uint32_t min, std::uint32_t max);
    // Comma-separated integers, each in [min, max], returned ascending without repeats.
    std::vector<std::uint32_t> get_uint_list(const std::string& key, const std::vector<std::uint32_t>& fallback,
                                             std::uint32_t min, std::uint32_t max);
    std::string get_choice(const std::string& key, const std::string& fallback,
                           const std::vector<std::string>& allowed);
    // A value another parser reads (a forecaster's NAME[,key=value...]).
    std::string get_text(const std::string& key, const std::string& fallback);

    // Throws "OWNER: unknown parameter(s) ...", naming every key nobody
    // read (with the known key it is likely a typo of) and the known keys.
    // `owner` is what the parameters configure: a policy's or forecaster's name.
    void reject_unread(const std::string& owner) const;
    // Throws if `key` was given although the other parameters make the
    // policy ignore it ("KEY applies only with CONDITION").
    void given_only_with(const std::string& key, bool applies, const std::string& condition) const;

    const std::map<std::string, std::string>& values() const { return values_; }
    // Whether a policy asked for this key (given or not).
    bool was_read(const std::string& key) const { return read_.count(key) != 0; }
    // The default a policy gave for a number it read (NaN if none was read).
    double double_fallback(const std::string& key) const;

private:
    // Marks `key` read; its value, or nullptr when not given.
    const std::string* lookup(const std::string& key);

    std::map<std::string, std::string> values_;
    std::set<std::string> read_;
    std::map<std::string, double> double_fallbacks_;
};

} // namespace burst
