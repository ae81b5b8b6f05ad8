#pragma once
// Generic resources (GPUs, MPS shares, ...) in the two texts Slurm writes
// them in: what a job asks of each of its nodes, and what a node has.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

struct GresCount {
    std::string name;  // "gpu"
    std::string type;  // "a100"; empty = any type
    std::uint64_t count = 1;

    friend bool operator==(const GresCount& a, const GresCount& b)
    {
        return a.name == b.name && a.type == b.type && a.count == b.count;
    }
};

// What a job asks of each of its nodes, in slurmctld's texts as the plugin
// joins them (plugin/node_gres.h: tres_per_node, per task, per socket, and
// per job at one): "gres:gpu:2,gres:gpu:a100:1".  The "gres:" prefix is
// optional; "none" and "" ask for nothing.  Throws std::invalid_argument
// naming the entry it cannot read.
std::vector<GresCount> parse_gres_request(std::string_view text);

// A node's, as slurm.conf's Gres= (and burstd.conf's) writes it:
// "gpu:a100:4(S:0-1),mps:400,bandwidth:lustre:no_consume:4G".  Socket
// bindings and no_consume are not what a job's fit depends on and are
// dropped.  Throws std::invalid_argument naming the entry it cannot read.
std::vector<GresCount> parse_node_gres(std::string_view text);

// What two nodes both have: each of `a`'s entries at the smaller of its two
// counts (b's of the same name and type), those b lacks left out.
std::vector<GresCount> common_gres(const std::vector<GresCount>& a, const std::vector<GresCount>& b);

// Whether a node with `node` holds `request` on its own: for each request,
// the node's count of that name (of that type, when the request names one)
// is at least the count asked.
bool gres_fits(const std::vector<GresCount>& request, const std::vector<GresCount>& node);

} // namespace burst
