#include "policy/threads/scaling_book.hpp"

#include <algorithm>

namespace burst {

const ScalingFit ScalingBook::kNoFit{};

std::size_t ScalingBook::entry_of(const JobCategory& category)
{
    const std::uint32_t id = category.id();
    if (id >= slot_.size())
        slot_.resize(std::max<std::size_t>(id + 1, 2 * slot_.size()), 0);
    if (!slot_[id]) {
        entries_.push_back(Entry{category, ScalingModel{}, 0, false});
        fits_.emplace_back();
        slot_[id] = std::uint32_t(entries_.size());
    }
    return slot_[id] - 1;
}

bool ScalingBook::observe(const JobEnd& end)
{
    if (end.category.empty() || !end.completed() || !(end.elapsed > 0))
        return false;
    const std::uint32_t id = end.category.id();
    if (id < slot_.size() && slot_[id] && entries_[slot_[id] - 1].model.sized() && !(end.size > 0))
        return false; // it would be learned as a run of size 0
    const std::size_t k = entry_of(end.category);
    Entry& e = entries_[k];
    e.model.add(ScalingRun{end.cpus_per_task, end.elapsed, end.size}, settings_.decay);
    fits_[k] = e.model.fit(settings_);
    e.changed_at = ++version_;
    if (!e.unsaved) {
        e.unsaved = true;
        unsaved_.push_back(std::uint32_t(k));
    }
    return true;
}

std::map<std::string, std::string> ScalingBook::take_changed()
{
    std::map<std::string, std::string> out;
    for (std::uint32_t k : unsaved_) {
        Entry& e = entries_[k];
        out[e.category.text()] = e.model.to_text();
        e.unsaved = false;
    }
    unsaved_.clear();
    return out;
}

std::vector<std::string> ScalingBook::restore(const std::map<std::string, std::string>& kept)
{
    std::vector<std::string> errors;
    for (const auto& [category, text] : kept) {
        std::string error;
        if (category.empty()) {
            errors.push_back("thread scaling: a row without a category");
        } else if (auto m = ScalingModel::from_text(text, error)) {
            const std::size_t k = entry_of(JobCategory(category));
            entries_[k].model = *m;
            entries_[k].changed_at = ++version_;
            fits_[k] = m->fit(settings_);
        } else {
            errors.push_back("thread scaling of category " + category + ": " + error);
        }
    }
    return errors;
}

ScalingBook::Summary ScalingBook::summary() const
{
    Summary s;
    s.categories = entries_.size();
    for (const ScalingFit& f : fits_)
        s.known += f.known ? 1 : 0;
    return s;
}

} // namespace burst
