#include "policy/threads/scaling_book.hpp"

namespace burst {

bool ScalingBook::observe(const JobEnd& end)
{
    if (end.category.empty() || !end.completed() || !(end.elapsed > 0))
        return false;
    Entry& e = entries_[end.category];
    if (e.model.sized() && !(end.size > 0))
        return false; // it would be learned as a run of size 0
    e.model.add(ScalingRun{end.cpus_per_task, end.elapsed, end.size}, settings_.decay);
    e.fit = e.model.fit(settings_);
    e.changed_at = ++version_;
    changed_.insert(end.category);
    return true;
}

ScalingFit ScalingBook::fit(const std::string& category) const
{
    auto it = entries_.find(category);
    return it == entries_.end() ? ScalingFit{} : it->second.fit;
}

std::map<std::string, std::string> ScalingBook::take_changed()
{
    std::map<std::string, std::string> out;
    for (const auto& category : changed_)
        out[category] = entries_.at(category).model.to_text();
    changed_.clear();
    return out;
}

std::vector<std::string> ScalingBook::restore(const std::map<std::string, std::string>& kept)
{
    std::vector<std::string> errors;
    for (const auto& [category, text] : kept) {
        std::string error;
        if (auto m = ScalingModel::from_text(text, error)) {
            entries_[category] = Entry{*m, m->fit(settings_), ++version_};
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
    for (const auto& [category, entry] : entries_)
        s.known += entry.fit.known ? 1 : 0;
    return s;
}

} // namespace burst
