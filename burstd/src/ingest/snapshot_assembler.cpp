#include "ingest/snapshot_assembler.hpp"

#include <algorithm>
#include <optional>
#include <utility>

namespace burst {
namespace {

constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
constexpr std::uint64_t kFnvPrime = 1099511628211ull;
constexpr std::uint64_t kJsonExactBits = (std::uint64_t(1) << 53) - 1;

std::uint64_t state_code(JobState s)
{
    switch (s) {
    case JobState::Pending:
        return 1;
    case JobState::Running:
        return 2;
    case JobState::Suspended:
        return 3;
    case JobState::Completing:
        return 4;
    }
    return 0;
}

// Replaces the record with the same key, or appends it.
template <class Record, class Key>
void upsert(std::vector<Record>& records, std::unordered_map<Key, std::size_t>& at, const Key& key, Record&& r)
{
    auto [it, added] = at.try_emplace(key, records.size());
    if (added)
        records.push_back(std::move(r));
    else
        records[it->second] = std::move(r);
}

// Removes the records with these keys and keeps the others in their order:
// slurmctld's, by which SiteView finds equal priorities already in submit
// order and skips sorting them.  Returns the first key the state lacks.
template <class Record, class Key, class KeyOf>
std::optional<Key> erase_all(std::vector<Record>& records, std::unordered_map<Key, std::size_t>& at,
                             const std::vector<Key>& keys, KeyOf key_of)
{
    if (keys.empty())
        return std::nullopt;
    std::vector<bool> gone(records.size());
    std::size_t first = records.size();
    for (const Key& key : keys) {
        auto it = at.find(key);
        if (it == at.end())
            return key;
        gone[it->second] = true;
        first = std::min(first, it->second);
        at.erase(it);
    }
    std::size_t kept = first;
    for (std::size_t i = first; i < records.size(); ++i) {
        if (gone[i])
            continue;
        if (kept != i)
            records[kept] = std::move(records[i]);
        at[key_of(records[kept])] = kept;
        ++kept;
    }
    records.resize(kept);
    return std::nullopt;
}

std::string mismatch(const char* what, std::uint64_t expected, std::uint64_t got)
{
    return std::string("check.") + what + " is " + std::to_string(expected) + ", the state after the delta has " +
           std::to_string(got);
}

} // namespace

std::uint64_t job_fingerprint_sum(const std::vector<Job>& jobs)
{
    std::uint64_t sum = 0;
    for (const Job& j : jobs) {
        std::uint64_t h = kFnvOffset;
        for (std::uint64_t v : {std::uint64_t(j.id), std::uint64_t(j.priority), std::uint64_t(j.array_task_count),
                                state_code(j.state)})
            h = (h ^ v) * kFnvPrime;
        sum += h;
    }
    return sum & kJsonExactBits;
}

void SnapshotAssembler::replace(Snapshot&& whole, std::uint64_t connection)
{
    state_ = std::move(whole);
    connection_ = connection;
    complete_ = true;
    index();
}

void SnapshotAssembler::index()
{
    job_at_.clear();
    node_at_.clear();
    partition_at_.clear();
    job_at_.reserve(state_.jobs.size());
    for (std::size_t i = 0; i < state_.jobs.size(); ++i)
        job_at_[state_.jobs[i].id] = i;
    for (std::size_t i = 0; i < state_.nodes.size(); ++i)
        node_at_[state_.nodes[i].name] = i;
    for (std::size_t i = 0; i < state_.partitions.size(); ++i)
        partition_at_[state_.partitions[i].name] = i;
}

void SnapshotAssembler::drop()
{
    complete_ = false;
    state_ = Snapshot{};
    index();
}

std::string SnapshotAssembler::apply(SnapshotDelta&& delta, std::uint64_t seq, Time time, std::uint64_t connection)
{
    if (complete_ && connection < connection_)
        return "from an older connection than the state's, which it leaves alone";
    std::string why;
    if (!complete_)
        why = "no whole snapshot to apply it to";
    else if (connection != connection_)
        why = "the state was built on an older plugin connection";
    else if (delta.base != state_.seq)
        why = "base " + std::to_string(delta.base) + " is not the state's last message " + std::to_string(state_.seq);
    else
        why = apply_in_place(delta);
    if (!why.empty()) {
        drop();
        return why;
    }
    state_.seq = seq;
    state_.time = time;
    return "";
}

std::string SnapshotAssembler::apply_in_place(SnapshotDelta& d)
{
    const auto job_id = [](const Job& j) { return j.id; };
    if (auto missing = erase_all(state_.jobs, job_at_, d.removed_jobs, job_id))
        return "jobs_removed names job " + std::to_string(*missing) + ", which the state does not hold";
    for (Job& j : d.jobs) {
        const JobId id = j.id;
        upsert(state_.jobs, job_at_, id, std::move(j));
    }
    for (const auto& [id, priority] : d.priorities) {
        auto it = job_at_.find(id);
        if (it == job_at_.end())
            return "priorities names job " + std::to_string(id) + ", which the state does not hold";
        state_.jobs[it->second].priority = priority;
    }

    const auto node_name = [](const Node& n) { return n.name; };
    if (auto missing = erase_all(state_.nodes, node_at_, d.removed_nodes, node_name))
        return "nodes_removed names node " + *missing + ", which the state does not hold";
    for (Node& n : d.nodes) {
        const std::string name = n.name;
        upsert(state_.nodes, node_at_, name, std::move(n));
    }

    const auto partition_name = [](const Partition& p) { return p.name; };
    if (auto missing = erase_all(state_.partitions, partition_at_, d.removed_partitions, partition_name))
        return "partitions_removed names partition " + *missing + ", which the state does not hold";
    for (Partition& p : d.partitions) {
        const std::string name = p.name;
        upsert(state_.partitions, partition_at_, name, std::move(p));
    }

    if (d.shares)
        state_.shares = std::move(*d.shares);

    const SnapshotCheck& c = d.check;
    if (c.jobs != state_.jobs.size())
        return mismatch("jobs", c.jobs, state_.jobs.size());
    if (c.nodes != state_.nodes.size())
        return mismatch("nodes", c.nodes, state_.nodes.size());
    if (c.partitions != state_.partitions.size())
        return mismatch("partitions", c.partitions, state_.partitions.size());
    if (c.shares != state_.shares.size())
        return mismatch("shares", c.shares, state_.shares.size());
    const std::uint64_t sum = job_fingerprint_sum(state_.jobs);
    if (c.job_sum != sum)
        return mismatch("job_sum", c.job_sum, sum);
    return "";
}

} // namespace burst
