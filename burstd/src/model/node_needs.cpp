#include "model/node_needs.hpp"

#include "model/feature_constraint.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace burst {
namespace {

struct Entry {
    std::string gres_text;
    std::string features_text;
    std::uint32_t cpus = 1;
    std::uint64_t memory_mb = 0;
    std::vector<GresCount> gres;
    FeatureConstraint features;
    std::string error;
    bool met_by_every_node = false;
};

constexpr std::size_t kIds = std::size_t(std::numeric_limits<std::uint16_t>::max()) + 1;
// Shared by every pair interned after the others filled the table.
constexpr std::uint16_t kUnchecked = std::numeric_limits<std::uint16_t>::max();

// Never shrinks.  Entries live in a deque, which never moves them, and are
// found by id through an array of pointers published with release stores,
// so that met_by() reads without the lock while another thread interns.
struct Table {
    std::mutex mutex;
    using Key = std::tuple<std::string, std::string, std::uint32_t, std::uint64_t>;
    std::map<Key, std::uint16_t> ids;
    std::deque<Entry> entries;
    std::array<std::atomic<const Entry*>, kIds> by_id{};
    std::atomic<std::uint32_t> bound{1};

    Table()
    {
        static const Entry nothing{{}, {}, 1, 0, {}, {}, {}, true};
        by_id[0].store(&nothing);
        Entry& unchecked = entries.emplace_back();
        unchecked.met_by_every_node = true;
        by_id[kUnchecked].store(&unchecked);
    }
};

Table& table()
{
    static Table t;
    return t;
}

const Entry& entry(std::uint16_t id)
{
    return *table().by_id[id].load(std::memory_order_acquire);
}

} // namespace

NodeNeeds::NodeNeeds(std::string_view gres, std::string_view features, std::uint32_t cpus, std::uint64_t memory_mb)
{
    if (gres.empty() && features.empty() && cpus <= 1 && memory_mb == 0)
        return;
    // A snapshot's jobs mostly repeat a few combinations: the last one
    // interned on this thread settles most without the lock.  An id never
    // changes, so the copy cannot go stale.
    thread_local std::string last_gres, last_features;
    thread_local std::uint32_t last_cpus = 0;
    thread_local std::uint64_t last_memory = 0;
    thread_local std::uint16_t last_id = 0;
    if (last_id != 0 && cpus == last_cpus && memory_mb == last_memory && gres == last_gres &&
        features == last_features) {
        id_ = last_id;
        return;
    }
    id_ = intern(gres, features, cpus, memory_mb);
    last_gres = gres;
    last_features = features;
    last_cpus = cpus;
    last_memory = memory_mb;
    last_id = id_;
}

std::uint16_t NodeNeeds::intern(std::string_view gres, std::string_view features, std::uint32_t cpus,
                                std::uint64_t memory_mb)
{
    Table& t = table();
    const std::lock_guard<std::mutex> lock(t.mutex);
    Table::Key key{std::string(gres), std::string(features), std::max<std::uint32_t>(cpus, 1), memory_mb};
    if (auto it = t.ids.find(key); it != t.ids.end())
        return it->second;
    const std::uint32_t id = t.bound.load(std::memory_order_relaxed);
    if (id >= kUnchecked) {
        t.bound.store(kIds, std::memory_order_release);
        return kUnchecked;
    }
    Entry& e = t.entries.emplace_back();
    e.gres_text = std::get<0>(key);
    e.features_text = std::get<1>(key);
    e.cpus = std::get<2>(key);
    e.memory_mb = std::get<3>(key);
    try {
        e.gres = parse_gres_request(gres);
        e.features = FeatureConstraint(features);
    } catch (const std::invalid_argument& bad) {
        e.error = bad.what();
    }
    t.by_id[id].store(&e, std::memory_order_release);
    t.ids.emplace(std::move(key), std::uint16_t(id));
    t.bound.store(id + 1, std::memory_order_release);
    return std::uint16_t(id);
}

bool NodeNeeds::unchecked() const { return id_ == kUnchecked; }

std::uint32_t NodeNeeds::id_bound()
{
    return table().bound.load(std::memory_order_acquire);
}

const std::string& NodeNeeds::gres() const { return entry(id_).gres_text; }
const std::string& NodeNeeds::features() const { return entry(id_).features_text; }
const std::string& NodeNeeds::error() const { return entry(id_).error; }
std::uint32_t NodeNeeds::cpus() const { return entry(id_).cpus; }
std::uint64_t NodeNeeds::memory_mb() const { return entry(id_).memory_mb; }

bool NodeNeeds::met_by(const NodeOffer& offer) const
{
    const Entry& e = entry(id_);
    if (e.met_by_every_node)
        return true;
    return e.error.empty() && (offer.cpus == 0 || offer.cpus >= e.cpus) &&
           (offer.memory_mb == 0 || offer.memory_mb >= e.memory_mb) && gres_fits(e.gres, offer.gres) &&
           e.features.met_by(offer.features);
}

} // namespace burst
