#pragma once
// What the workload generators share: their "key=value,key=value" option
// strings (burstsim --workload NAME:SPEC) and a seeded random source whose
// draws are the same on every platform (std:: distributions are not).

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace burst {

class WorkloadSpecError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

class WorkloadSpec {
public:
    // `workload` names the generator in error messages.
    WorkloadSpec(std::string workload, const std::string& text);

    double get_double(const std::string& key, double fallback, double min, double max);
    std::uint64_t get_uint(const std::string& key, std::uint64_t fallback, std::uint64_t min, std::uint64_t max);
    // "a:b:c": between min_count and max_count integers in [min, max].
    std::vector<std::uint64_t> get_uint_list(const std::string& key, std::vector<std::uint64_t> fallback,
                                             std::size_t min_count, std::size_t max_count, std::uint64_t min,
                                             std::uint64_t max);
    std::string get_string(const std::string& key, const std::string& fallback);
    // "1.5:2:3": at least one number in [min, max].
    std::vector<double> get_double_list(const std::string& key, std::vector<double> fallback, double min, double max);
    // "a:b": at least one of `allowed`, none twice.
    std::vector<std::string> get_choice_list(const std::string& key, std::vector<std::string> fallback,
                                             const std::vector<std::string>& allowed);
    // Throws naming every key no generator read, and the known keys.
    void reject_unread() const;

private:
    std::string workload_;
    std::map<std::string, std::string> values_;
    std::set<std::string> read_;
    [[noreturn]] void bad(const std::string& key, const std::string& expected) const;
};

class WorkloadRandom {
public:
    explicit WorkloadRandom(std::uint64_t seed) : rng_(seed) {}
    double uniform(); // [0, 1)
    double exponential(double mean);
    double normal(double mean, double stddev);

private:
    std::mt19937_64 rng_;
};

} // namespace burst
