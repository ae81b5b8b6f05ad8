#pragma once
// The part of the ledger a decision cycle reads, kept in memory and brought
// up to date from the ledger's own record of its writes: every open record,
// the closed ones that ended since a horizon the caller names (what budget
// intervals and billing tails still need), and each group's latest boots.
// Reading the whole ledger every cycle made a cycle's cost grow with the
// site's history, not its work (bench/results/ingest_cycle.txt).

#include "ledger/ledger.hpp"
#include "model/clock.hpp"
#include "model/node_boot.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace burst {

class LedgerWindow {
public:
    LedgerWindow(Ledger& ledger, std::size_t boots_per_group) : ledger_(ledger), per_group_(boots_per_group) {}

    // Brings the window up to date and drops closed records that ended
    // before `ended_since`; a horizon earlier than the last one reads the
    // ledger afresh.
    void refresh(Time ended_since);
    // Open records and those that ended since the horizon, by id.
    const std::vector<LedgerRecord>& records() const { return records_; }
    // What recent_boots(all records, boots_per_group) would return.
    std::vector<NodeBoot> boots() const;

private:
    void reload(Time ended_since);
    void merge(std::vector<LedgerRecord> changed);
    void prune(Time ended_since);

    Ledger& ledger_;
    const std::size_t per_group_;
    std::optional<std::uint64_t> cursor_; // none before the first read
    Time horizon_ = 0;
    std::vector<LedgerRecord> records_;
    std::unordered_map<std::int64_t, std::size_t> at_; // record id -> index in records_
    std::map<std::int64_t, NodeBoot> boots_;           // by record id: the latest per_group_ of each group
};

} // namespace burst
