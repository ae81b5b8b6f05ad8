#pragma once
// What burstd has learned of each job category's thread scaling: one
// ScalingModel per category (the plugin's category: account, job name,
// batch command), fed by job ends.  Only runs that completed are learned
// from: a failed, cancelled, timed-out or preempted run's time says nothing
// about how the category scales.

#include "model/job.hpp"
#include "policy/threads/scaling_model.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace burst {

class ScalingBook {
public:
    explicit ScalingBook(ScalingSettings settings = {}) : settings_(settings) {}

    // True when the run was learned from.
    bool observe(const JobEnd& end);
    // A category never seen has an empty fit, not known.
    ScalingFit fit(const std::string& category) const;

    struct Summary {
        std::size_t categories = 0; // with at least one run learned from
        std::size_t known = 0;      // whose fit is known
    };
    Summary summary() const;
    // Every known category's fit.
    std::vector<std::pair<std::string, ScalingFit>> known() const;

    // The categories learned from since the last call, as text to keep
    // (the ledger's thread_scaling rows).
    std::map<std::string, std::string> take_changed();
    // Takes back what was kept; returns what could not be read, one line
    // per category naming it.
    std::vector<std::string> restore(const std::map<std::string, std::string>& kept);

private:
    ScalingSettings settings_;
    std::unordered_map<std::string, ScalingModel> models_;
    std::unordered_set<std::string> changed_;
};

} // namespace burst
