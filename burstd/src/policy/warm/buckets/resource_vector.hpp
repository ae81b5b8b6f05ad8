#pragma once
// A job's or a node's GPUs, memory and CPUs as one vector, the resources in
// the site's order of cost (Gao et al.'s resource vector, section 4.1).
// Vectors compare element by element, the first unequal element deciding
// (their Algorithm 1), so the first resource of the order decides first:
// with GPUs first, a job without one is smaller than every GPU node and
// never lands in a GPU node's bucket.

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace burst {

enum class Resource : std::uint8_t { Gpus, Memory, Cpus };
constexpr std::size_t kResourceCount = 3;

class ResourceOrderError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// Amounts in Slurm's units: GPUs (gres "gpu"), memory in MB, CPUs.
struct ResourceAmounts {
    double gpus = 0;
    double memory_mb = 0;
    double cpus = 0;
};

// The amounts in an order's sequence; std::array's < is Algorithm 1.
using ResourceVector = std::array<double, kResourceCount>;

class ResourceOrder {
public:
    // Gao et al.'s: GPUs, memory, CPUs.
    ResourceOrder() = default;
    // "gpus,memory,cpus" in any order, each resource once.  Throws
    // ResourceOrderError naming the word that is not one, or the resource
    // missing or given twice.
    static ResourceOrder parse(const std::string& text);

    ResourceVector vector(const ResourceAmounts& amounts) const;
    // Where `resource` stands in the vectors.
    std::size_t position(Resource resource) const;
    // As parse() reads it.
    std::string text() const;

private:
    std::array<Resource, kResourceCount> order_{Resource::Gpus, Resource::Memory, Resource::Cpus};
};

const char* resource_name(Resource resource);

} // namespace burst
