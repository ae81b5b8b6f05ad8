#pragma once
// Gao et al.'s resource embedding (section 4.1, Algorithm 2): the resource
// vectors of the work, sorted, are packed first fit increasing into the
// buckets (one per node group, its node's vector), each vector into the
// smallest bucket it is not greater than; a bucket's count is the sum of
// its vectors divided by its own vector in the dominant resource, the
// resource of which the sum needs the most nodes.  The count says how many
// of the group's nodes the work would fill.
//
// As built (doc/policies.md, "Resource buckets"): a vector equal to a
// bucket fits it (the paper's worked example needs that); vectors greater
// than every bucket go to the largest (the paper drops them, but a Slurm
// job may span nodes, and the division counts the nodes it needs); a
// resource a bucket does not state (memory a group does not give) is left
// out of both the comparison and the division, so that the group takes
// work whatever it asks of that resource.
//
// Identical vectors are merged before they are placed: a queue of 100k
// jobs holds few distinct shapes, and each shape is placed once, in the
// first bucket, in increasing order, it fits (what the paper's walk over
// the sorted vectors gives each of them).

#include "policy/warm/buckets/resource_vector.hpp"

#include <vector>

namespace burst {

// `copies` jobs of the same vector: the tasks of a pending array.
struct ResourceDemand {
    ResourceVector vector{};
    double copies = 1;
};

// A node group's node as a bucket: its vector, and which of its resources
// the group states (Slurm lists no RealMemory, say).
struct ResourceBucket {
    ResourceVector vector{};
    std::array<bool, kResourceCount> stated{true, true, true};
};

// The fractional count of each bucket, in the order `buckets` were given.
// Equal buckets: the first given takes the work.  Buckets sort by their
// whole vectors, an unstated resource as 0.
std::vector<double> embed_first_fit_increasing(const std::vector<ResourceDemand>& demands,
                                               const std::vector<ResourceBucket>& buckets);

} // namespace burst
