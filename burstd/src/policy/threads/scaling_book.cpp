#include "policy/threads/scaling_book.hpp"

namespace burst {

bool ScalingBook::observe(const JobEnd& end)
{
    if (end.category.empty() || !end.completed() || !(end.elapsed > 0))
        return false;
    models_[end.category].add(ScalingRun{end.cpus_per_task, end.elapsed, 0}, settings_.decay);
    return true;
}

ScalingFit ScalingBook::fit(const std::string& category) const
{
    auto it = models_.find(category);
    return it == models_.end() ? ScalingFit{} : it->second.fit(settings_);
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
