#include "model/partition_set.hpp"

#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>

namespace burst {
namespace {

// Never shrinks: a long-running burstd keeps every list it has seen, which
// is bounded by the combinations of partitions its users ask for.
struct Table {
    std::mutex mutex;
    std::map<std::vector<std::string>, std::uint32_t> ids;
};

Table& table()
{
    static Table t;
    return t;
}

const std::vector<std::string>& no_names()
{
    static const std::vector<std::string> none;
    return none;
}

} // namespace

PartitionSet::PartitionSet(std::vector<std::string> names)
{
    if (names.empty())
        return;
    Table& t = table();
    const std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.ids.find(names);
    if (it == t.ids.end()) {
        // ids are 32-bit so that a table indexed by them stays small; one
        // more list than that is an error, not a wrapped id shared by two.
        if (t.ids.size() >= std::numeric_limits<std::uint32_t>::max() - 1)
            throw std::length_error("more than " + std::to_string(t.ids.size()) + " distinct partition lists");
        const std::uint32_t id = std::uint32_t(t.ids.size() + 1);
        it = t.ids.emplace(std::move(names), id).first;
    }
    entry_ = &*it;
}

PartitionSet::PartitionSet(std::initializer_list<std::string> names) : PartitionSet(std::vector<std::string>(names)) {}

const std::vector<std::string>& PartitionSet::names() const
{
    return entry_ ? entry_->first : no_names();
}

std::uint32_t PartitionSet::id_bound()
{
    Table& t = table();
    const std::lock_guard<std::mutex> lock(t.mutex);
    return std::uint32_t(t.ids.size() + 1);
}

} // namespace burst
