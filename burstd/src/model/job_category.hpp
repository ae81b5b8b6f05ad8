#pragma once
// A job's category (the plugin's: account, job name, batch command hashed
// to 16 hex digits; a trace's: account and job name), as one interned
// value.  Every distinct category is stored once while it is held, and a
// Job holds a counted reference to it, with a dense id.
//
// Why: the thread step reads the learned scaling of every pending auto
// job's category on every decision (100k of them at the largest sites).
// Looked up by text that was a string hash and three cache misses per job
// (the job's heap text, the table's node, the entry); by id it is one read
// of a table indexed by it (policy/threads/scaling_book.hpp).
//
// A category is interned where the job enters the model (ingest's parser,
// the trace parsers and workload generators), so decisions read ids only.
// An entry lives while a JobCategory refers to it: the table holds the
// categories of the jobs in the model and of what the models have learned,
// not of every job ever seen (a site whose job names never repeat has a new
// category per job).  The id of a category no longer held may be given to
// another: a table indexed by id must hold the categories it has slots for.
// Copying one touches its entry (the count): a per-job loop that only reads
// a category points at the job's own.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

namespace burst {

class JobCategory {
public:
    // No category (id 0): the job is learned from by no model.
    JobCategory() = default;
    // Interns `text` (the empty text is no category); thread-safe.
    // Implicit: a category is its text, as a literal is a std::string.
    JobCategory(std::string_view text);
    JobCategory(const std::string& text) : JobCategory(std::string_view(text)) {}
    JobCategory(const char* text) : JobCategory(std::string_view(text)) {}
    JobCategory(const JobCategory& other) noexcept;
    JobCategory(JobCategory&& other) noexcept;
    JobCategory& operator=(const JobCategory& other) noexcept;
    JobCategory& operator=(JobCategory&& other) noexcept;
    ~JobCategory() { release(); }

    const std::string& text() const;
    // 0 for no category, then 1, 2, ...: equal texts, equal ids; always
    // below id_bound().
    std::uint32_t id() const { return id_; }
    // One above the largest id held so far: the size of a table indexed by
    // id() (categories interned later may get larger ids).
    static std::uint32_t id_bound();
    // Categories held now, for the memory benchmarks.
    static std::size_t held();

    bool empty() const { return entry_ == nullptr; }

    friend bool operator==(const JobCategory& a, const JobCategory& b) { return a.entry_ == b.entry_; }
    friend bool operator!=(const JobCategory& a, const JobCategory& b) { return a.entry_ != b.entry_; }

    struct Entry {
        std::string text;
        std::uint32_t id = 0;
        std::atomic<std::uint32_t> refs{0};
    };

private:
    void release() noexcept;

    Entry* entry_ = nullptr; // owned by the process-wide table while refs > 0
    // entry_->id, kept here so that a table indexed by it is read without
    // another cache miss.
    std::uint32_t id_ = 0;
};

std::ostream& operator<<(std::ostream& out, const JobCategory& category);

} // namespace burst
