#pragma once
// What a job asks of each node it runs on: generic resources, a feature
// constraint, CPUs and memory, as one interned value of 2
// bytes.  Every distinct combination is read once, when it is first
// interned, and kept for the life of the process; what is asked of a value
// is whether a kind of node meets it (met_by), never a parse.
//
// Why: a policy must not route a job to a node group whose nodes Slurm
// would never start it on (a GPU job to CPU nodes, a job constrained to
// the site's own hardware, a job wider or hungrier than one node can hold):
// hiring for it buys nodes that stay idle.
// SiteView::of sorts out every waiting job on every decision (a million at
// the largest sites), so the value sits in the Job's first cache line,
// where two bytes were spare (model/job.hpp), and most jobs ask for
// nothing of the kind (the empty value, answered without a lookup).
//
// A process interns at most 65,534 distinct combinations.  Those beyond
// share one value, unchecked(), that every node is taken to meet: such
// jobs are routed as if they asked nothing, so a GPU job may go to CPU
// nodes again.  SiteView counts them and every decision says so; a restart
// of burstd forgets the old combinations.

#include "model/gres.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

// What one kind of node has: the gres, features, CPUs and memory Slurm
// lists for every node of a group (its burstd.conf values while Slurm lists
// none).
struct NodeOffer {
    std::vector<GresCount> gres;
    std::vector<std::string> features; // sorted
    std::uint32_t cpus = 0;            // 0 = not known: any
    std::uint64_t memory_mb = 0;       // 0 = not known: any
};

class NodeNeeds {
public:
    // Asks for nothing.
    NodeNeeds() = default;
    // Interns what a job asks of each of its nodes: gres as the exporter
    // sends it, the --constraint text, the CPUs and memory (0 =
    // unspecified) each node must give it; thread-safe.  Texts that cannot be read
    // are kept with the reason (error()), and no node meets them: routing
    // such a job could only buy nodes Slurm may not start it on.
    NodeNeeds(std::string_view gres, std::string_view features, std::uint32_t cpus = 1, std::uint64_t memory_mb = 0);

    bool empty() const { return id_ == 0; }
    // Interned after the table was full: not checked (see above).
    bool unchecked() const;
    // 0 for nothing asked, then 1, 2, ... in the order combinations were first
    // interned; always below id_bound().
    std::uint16_t id() const { return id_; }
    // One above the largest id interned so far: the size of a table indexed by id().
    static std::uint32_t id_bound();

    const std::string& gres() const;
    const std::string& features() const;
    std::uint32_t cpus() const;
    std::uint64_t memory_mb() const;
    // Why the texts could not be read; empty when they could.
    const std::string& error() const;
    bool met_by(const NodeOffer& offer) const;

    friend bool operator==(NodeNeeds a, NodeNeeds b) { return a.id_ == b.id_; }
    friend bool operator!=(NodeNeeds a, NodeNeeds b) { return a.id_ != b.id_; }

private:
    static std::uint16_t intern(std::string_view gres, std::string_view features, std::uint32_t cpus,
                                std::uint64_t memory_mb);
    std::uint16_t id_ = 0;
};

} // namespace burst
