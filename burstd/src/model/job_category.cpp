#include "model/job_category.hpp"

#include <limits>
#include <memory>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace burst {
namespace {

struct Table {
    std::mutex mutex;
    // Keyed by views of the entries' own texts (an entry never moves).
    std::unordered_map<std::string_view, std::unique_ptr<JobCategory::Entry>> by_text;
    std::vector<std::uint32_t> free_ids; // of entries no longer held
    std::uint32_t id_bound = 1;
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
        auto entry = std::make_unique<Entry>();
        entry->text = std::string(text);
        if (!t.free_ids.empty()) {
            entry->id = t.free_ids.back();
            t.free_ids.pop_back();
        } else {
            // ids are 32-bit so that a table indexed by them stays small; one
            // more category than that is an error, not a wrapped id shared by two.
            if (t.id_bound == std::numeric_limits<std::uint32_t>::max())
                throw std::length_error("more than " + std::to_string(t.id_bound - 1) + " job categories held");
            entry->id = t.id_bound++;
        }
        const std::string_view key(entry->text);
        it = t.by_text.emplace(key, std::move(entry)).first;
    }
    entry_ = it->second.get();
    entry_->refs.fetch_add(1, std::memory_order_relaxed);
    id_ = entry_->id;
}

JobCategory::JobCategory(const JobCategory& other) noexcept : entry_(other.entry_), id_(other.id_)
{
    if (entry_)
        entry_->refs.fetch_add(1, std::memory_order_relaxed);
}

JobCategory::JobCategory(JobCategory&& other) noexcept : entry_(other.entry_), id_(other.id_)
{
    other.entry_ = nullptr;
    other.id_ = 0;
}

JobCategory& JobCategory::operator=(const JobCategory& other) noexcept
{
    if (entry_ != other.entry_) {
        JobCategory copy(other);
        *this = std::move(copy);
    }
    return *this;
}

JobCategory& JobCategory::operator=(JobCategory&& other) noexcept
{
    if (this != &other) {
        release();
        entry_ = other.entry_;
        id_ = other.id_;
        other.entry_ = nullptr;
        other.id_ = 0;
    }
    return *this;
}

void JobCategory::release() noexcept
{
    Entry* e = entry_;
    entry_ = nullptr;
    id_ = 0;
    if (!e)
        return;
    // Not the last reference: no lock.  The last one is dropped under the
    // table's lock, so that no other thread interns the text again while
    // its entry goes.
    std::uint32_t refs = e->refs.load(std::memory_order_relaxed);
    while (refs > 1)
        if (e->refs.compare_exchange_weak(refs, refs - 1, std::memory_order_release, std::memory_order_relaxed))
            return;
    Table& t = table();
    const std::lock_guard<std::mutex> lock(t.mutex);
    if (e->refs.fetch_sub(1, std::memory_order_acq_rel) != 1)
        return;
    t.free_ids.push_back(e->id);
    t.by_text.erase(t.by_text.find(std::string_view(e->text))); // deletes e
}

const std::string& JobCategory::text() const
{
    return entry_ ? entry_->text : no_text();
}

std::uint32_t JobCategory::id_bound()
{
    Table& t = table();
    const std::lock_guard<std::mutex> lock(t.mutex);
    return t.id_bound;
}

std::size_t JobCategory::held()
{
    Table& t = table();
    const std::lock_guard<std::mutex> lock(t.mutex);
    return t.by_text.size();
}

std::ostream& operator<<(std::ostream& out, const JobCategory& category)
{
    return out << category.text();
}

} // namespace burst
