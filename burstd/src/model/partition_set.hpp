#pragma once
// The partitions a job may run in, as one interned value.  Every distinct
// list of partition names is stored once for the life of the process and a
// Job holds a pointer to it, with a dense id.
//
// Why: SiteView::of works out the node group of every job on every decision
// (a million of them at the largest sites).  With a vector of names in each
// Job that read a heap block of its own per job (48 MB per decision at a
// million jobs, none of it cached) and compared names; with an id it looks
// the group up in a table it fills once per distinct list, and a site's jobs
// ask for a handful of partition combinations.
//
// A job's list is interned where the job enters the model (ingest's parser,
// burstsim's snapshot, the policy cycle's re-routing), so the decision path
// reads ids only.  Order matters, as it does to Slurm: ["a","b"] and
// ["b","a"] are different values (the first of a job's partitions that
// belongs to a node group decides its group).

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace burst {

class PartitionSet {
public:
    // No partition (id 0).
    PartitionSet() = default;
    // Interns `names`; thread-safe.  Implicit: a list of names is what a
    // PartitionSet is, as a literal is what a std::string is.
    PartitionSet(std::vector<std::string> names);
    PartitionSet(std::initializer_list<std::string> names);

    const std::vector<std::string>& names() const;
    // 0 for no partition, then 1, 2, ... in the order lists were first
    // interned: equal lists, equal ids; always below id_bound().
    std::uint32_t id() const { return entry_ ? entry_->second : 0; }
    // One above the largest id interned so far: the size of a table indexed
    // by id() (lists interned later get larger ids).
    static std::uint32_t id_bound();

    bool empty() const { return entry_ == nullptr; }
    std::size_t size() const { return names().size(); }
    const std::string& operator[](std::size_t i) const { return names()[i]; }
    std::vector<std::string>::const_iterator begin() const { return names().begin(); }
    std::vector<std::string>::const_iterator end() const { return names().end(); }

    friend bool operator==(const PartitionSet& a, const PartitionSet& b) { return a.entry_ == b.entry_; }
    friend bool operator!=(const PartitionSet& a, const PartitionSet& b) { return a.entry_ != b.entry_; }

private:
    // An element of the process-wide table (a std::map's, which never moves
    // its elements): the names and their id.
    using Entry = std::pair<const std::vector<std::string>, std::uint32_t>;
    const Entry* entry_ = nullptr;
};

} // namespace burst
