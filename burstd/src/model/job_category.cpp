#include "model/job_category.hpp"

#include <deque>
#include <limits>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <unordered_map>

namespace burst {
namespace {

struct Table {
    std::mutex mutex;
    std::deque<JobCategory::Entry> entries; // a deque never moves its elements
    std::unordered_map<std::string_view, const JobCategory::Entry*> by_text; // views of entries' texts
};

Table& table()
{
    static Table t;
    return t;
}

const std::string& no_text()
{
    static const std::string none;
    return none;
}

} // namespace

JobCategory::JobCategory(std::string_view text)
{
    if (text.empty())
        return;
    Table& t = table();
    const std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.by_text.find(text);
    if (it == t.by_text.end()) {
        // ids are 32-bit so that a table indexed by them stays small; one
        // more category than that is an error, not a wrapped id shared by two.
        if (t.entries.size() >= std::numeric_limits<std::uint32_t>::max() - 1)
            throw std::length_error("more than " + std::to_string(t.entries.size()) + " distinct job categories");
        const Entry& added = t.entries.emplace_back(Entry{std::string(text), std::uint32_t(t.entries.size() + 1)});
        it = t.by_text.emplace(std::string_view(added.text), &added).first;
    }
    entry_ = it->second;
    id_ = entry_->id;
}

const std::string& JobCategory::text() const
{
    return entry_ ? entry_->text : no_text();
}

std::uint32_t JobCategory::id_bound()
{
    Table& t = table();
    const std::lock_guard<std::mutex> lock(t.mutex);
    return std::uint32_t(t.entries.size() + 1);
}

std::ostream& operator<<(std::ostream& out, const JobCategory& category)
{
    return out << category.text();
}

} // namespace burst
