#pragma once
// A job's node constraint (sbatch --constraint) as Slurm 22.05 reads it:
// feature names joined by '&' (and; ',' is taken as '&' too) and '|' (or),
// read left to right with no precedence ("a|b&c" is "(a|b)&c"), grouped by
// parentheses, one bracketed set of alternatives all of a job's nodes must
// share ("[rack1|rack2]"), and counts ("gpu*2": two of its nodes).
//
// Asked of one kind of node (a node group's), the bracket's "all nodes
// alike" holds by itself and a count asks for the feature like a plain
// name: met_by() evaluates the expression on that kind's features.

#include <string>
#include <string_view>
#include <vector>

namespace burst {

class FeatureConstraint {
public:
    // No constraint: every node meets it.
    FeatureConstraint() = default;
    // Throws std::invalid_argument naming the text, the position and what
    // was expected there.
    explicit FeatureConstraint(std::string_view text);

    bool empty() const { return terms_.empty(); }
    // Whether a node with these features (sorted) meets the constraint.
    bool met_by(const std::vector<std::string>& sorted_features) const;

private:
    // Operand stack slots met_by() needs at most: nesting is bounded so
    // that it evaluates without allocating.
    static constexpr std::size_t kMaxDepth = 32;
    // The expression in postfix order: a feature pushes whether the node
    // has it, an operator combines the two values on top.
    struct Term {
        enum Kind { Feature, And, Or } kind;
        std::string feature;
    };
    std::vector<Term> terms_;
};

} // namespace burst
