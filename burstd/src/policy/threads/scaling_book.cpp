#include "policy/threads/scaling_book.hpp"

#include <algorithm>

namespace burst {

bool ScalingBook::observe(const JobEnd& end)
{
    if (end.category.empty() || !end.completed() || !(end.elapsed > 0))
        return false;
    models_[end.category].add(ScalingRun{end.cpus_per_task, end.elapsed, 0}, settings_.decay);
    changed_.insert(end.category);
    return true;
}

ScalingFit ScalingBook::fit(const std::string& category) const
{
    auto it = models_.find(category);
    return it == models_.end() ? ScalingFit{} : it->second.fit(settings_);
}

std::map<std::string, std::string> ScalingBook::take_changed()
{
    std::map<std::string, std::string> out;
    for (const auto& category : changed_)
        out[category] = models_.at(category).to_text();
    changed_.clear();
    return out;
}

std::vector<std::string> ScalingBook::restore(const std::map<std::string, std::string>& kept)
{
    std::vector<std::string> errors;
    for (const auto& [category, text] : kept) {
        std::string error;
        if (auto m = ScalingModel::from_text(text, error))
            models_[category] = *m;
        else
            errors.push_back("thread scaling of category " + category + ": " + error);
    }
    return errors;
}

std::vector<std::pair<std::string, ScalingFit>> ScalingBook::known() const
{
    std::vector<std::pair<std::string, ScalingFit>> out;
    for (const auto& [category, model] : models_) {
        ScalingFit f = model.fit(settings_);
        if (f.known)
            out.emplace_back(category, f);
    }
    std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    return out;
}

ScalingBook::Summary ScalingBook::summary() const
{
    Summary s;
    s.categories = models_.size();
    for (const auto& [category, model] : models_)
        s.known += model.fit(settings_).known ? 1 : 0;
    return s;
}

} // namespace burst
