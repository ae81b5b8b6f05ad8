#pragma once
// What burstd has learned of each job category's thread scaling: one
// ScalingModel per category (the plugin's category: account, job name,
// batch command), fed by job ends.  Only runs that completed are learned
// from: a failed, cancelled, timed-out or preempted run's time says nothing
// about how the category scales.  Once a category has a run with a size
// hint, its runs without one are not learned from (they would count as size
// 0).  Each category's fit is kept beside its
// sums and redone when it learns, so that a decision reads fits without
// solving anything; they are found by the category's interned id.

#include "model/job.hpp"
#include "policy/threads/scaling_model.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace burst {

class ScalingBook {
public:
    explicit ScalingBook(ScalingSettings settings = {}) : settings_(settings) {}

    // True when the run was learned from.
    bool observe(const JobEnd& end);
    // A category never learned from has an empty fit, not known.
    const ScalingFit& fit(const JobCategory& category) const
    {
        const std::uint32_t id = category.id();
        return id < slot_.size() && slot_[id] ? fits_[slot_[id] - 1] : kNoFit;
    }
    // Counts every run learned and every category restored: a decision's
    // view of the fits is current while this has not moved.
    std::uint64_t version() const { return version_; }
    // Visit(category, fit) for every category whose fit has changed since
    // version `since` (0: every category), known or not.
    template <class Visit>
    void for_each_changed_since(std::uint64_t since, Visit visit) const
    {
        for (std::size_t k = 0; k < entries_.size(); ++k)
            if (entries_[k].changed_at > since)
                visit(entries_[k].category, fits_[k]);
    }

    struct Summary {
        std::size_t categories = 0; // with at least one run learned from
        std::size_t known = 0;      // whose fit is known
    };
    Summary summary() const;

    // The categories learned from since the last call, as text to keep
    // (the ledger's thread_scaling rows).
    std::map<std::string, std::string> take_changed();
    // Takes back what was kept; returns what could not be read, one line
    // per category naming it.
    std::vector<std::string> restore(const std::map<std::string, std::string>& kept);

private:
    static const ScalingFit kNoFit;

    struct Entry {
        JobCategory category;
        ScalingModel model;
        std::uint64_t changed_at = 0; // version_ when it last learned
        bool unsaved = false;         // learned from since take_changed
    };
    // The entry of `category`, added if it has none.
    std::size_t entry_of(const JobCategory& category);

    ScalingSettings settings_;
    // Fits apart from the sums, so that the decisions' reads of them stay
    // in few cache lines.
    std::vector<Entry> entries_;       // in the order first learned from or restored
    std::vector<ScalingFit> fits_;     // entries_[k]'s fit
    std::vector<std::uint32_t> slot_;  // by category id: 1 + its entry's index, 0 = none
    std::vector<std::uint32_t> unsaved_; // indices of the entries learned from since take_changed
    std::uint64_t version_ = 0;
};

} // namespace burst
