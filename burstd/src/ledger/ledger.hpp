#pragma once
// The durable record of every instance burstd asked a provider for.  An intent
// is written (and on disk: WAL + synchronous=FULL) BEFORE the provider call,
// carrying the idempotency token the provider gets, so after a crash at any
// point the reconciler can tell launched, half-launched and leaked instances
// apart.  Storage failures throw SqliteError, misuse throws LedgerError; both
// name the ledger file.

#include "ledger/sqlite_connection.hpp"
#include "model/billed_span.hpp"
#include "model/clock.hpp"
#include "model/instance.hpp"
#include "model/node_boot.hpp"
#include "model/spend_booking.hpp"

#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

class LedgerError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::string_view to_string(InstanceState state);
std::optional<InstanceState> parse_instance_state(std::string_view word);

struct LaunchIntent {
    std::string node;
    std::string node_group;
    std::string provider;
    std::string instance_type;
    bool spot = false;
    std::string zone; // empty = the provider's default
};

struct LedgerRecord {
    std::int64_t id = 0;
    std::string token; // idempotency token handed to the provider
    std::string node;
    std::string node_group;
    std::string provider;
    std::string instance_type;
    std::string zone; // where the launch was asked for; empty = the provider's default
    bool spot = false;
    std::string provider_id; // empty until the provider answered
    std::string address;
    InstanceState state = InstanceState::Requested;
    Time requested_at = 0;
    Time launched_at = 0; // 0 = not yet
    Time running_since = 0;
    Time terminate_requested_at = 0;
    Time terminated_at = 0; // also the time a launch was marked failed
    Time updated_at = 0;
    std::string last_error;

    // Still (possibly) backed by an instance that costs money.
    bool open() const { return state != InstanceState::Terminated && state != InstanceState::Failed; }
    Instance to_instance() const;
    // What it costs money for: from the provider's answer (or the request,
    // if the answer was lost) to its termination; std::nullopt without a
    // provider id (no instance ever existed, or reconcile has not adopted it).
    std::optional<BilledSpan> billed_span() const;
};

// The billed spans of `records`, in their order.
std::vector<BilledSpan> billed_spans(const std::vector<LedgerRecord>& records);

// The last `per_group` plausible boots of each group among `records`
// (latest_boots).
std::vector<NodeBoot> recent_boots(const std::vector<LedgerRecord>& records, std::size_t per_group);

// A boot and the record it was measured on.
struct LedgerBoot {
    std::int64_t record = 0;
    NodeBoot boot;
};

// A node group's circuit breaker as last changed, so that a restart does not
// launch straight into a provider that just refused (see GroupHealth).
struct BreakerRecord {
    std::string node_group;
    std::string state; // open, half-open (closed and disabled are not kept)
    std::string cause; // capacity, quota, boot, ...
    std::string reason;
    Time open_until = 0;
    Seconds cool_down = 0;
    std::int64_t opened = 0;
    std::int64_t probes = 0;
};

// A waiting scavenger job whose node groups' partitions burstd took away,
// and the warm node it may have put the job on since.
struct ScavengerRecord {
    std::uint32_t job = 0;
    std::vector<std::string> asked; // the partitions the job was submitted to
    bool held = false;              // burstd held it: it asked for no other partition
    std::string node;               // the warm node it is pinned to; "" = none
    Time pinned_at = 0;
};

class Ledger {
public:
    // 2: group_breakers; 3: instances.zone; 4: spend_intervals and
    // spend_accounts; 5: thread_scaling; 6: scavenger_jobs (older ledgers
    // are migrated on open).
    static constexpr int kSchemaVersion = 6;

    // Opens or creates the ledger.  Throws naming `path` when the file is not a
    // SQLite database, not a burstd ledger, or from a newer burstd.
    // `change_memory`: how many writes changed_since() looks back over.
    explicit Ledger(const std::string& path, std::size_t change_memory = kChangeMemory);

    const std::string& path() const { return db_.path(); }

    // Generates a fresh unique token and stores the intent as Requested.
    LedgerRecord record_launch_intent(const LaunchIntent& intent, Time now);
    // Requested -> Launching; repeating it on a Launching record updates the
    // address (the provider id must then be the same).
    void mark_launched(const std::string& token, const std::string& provider_id,
                       const std::string& address, Time now);
    // Launching -> Running: the node registered with Slurm.
    void mark_running(const std::string& token, Time now);
    // Any open state -> Failed: no instance exists for this record.
    void mark_failed(const std::string& token, const std::string& error, Time now);
    // Any open state -> Terminating, before the provider's terminate call.
    void record_terminate_intent(const std::string& token, const std::string& reason, Time now);
    // Any open state -> Terminated.  Terminated again is a no-op.
    void mark_terminated(const std::string& token, Time now);

    std::optional<LedgerRecord> find(const std::string& token);
    std::vector<LedgerRecord> for_node(const std::string& node); // oldest first
    std::vector<LedgerRecord> open_for_node(const std::string& node); // oldest first
    std::vector<LedgerRecord> in_state(InstanceState state);
    std::vector<LedgerRecord> open_records();
    std::vector<LedgerRecord> all();
    // Every open record and every closed one that ended at or after `since`,
    // by id: a window of the history whose cost does not grow with its age.
    std::vector<LedgerRecord> open_or_ended_since(Time since);
    // latest_boots(per_group) over every record, with the records' ids.
    std::vector<LedgerBoot> latest_boots(std::size_t per_group);
    // The records, in any state, of instances with these provider ids, by id.
    std::vector<LedgerRecord> with_provider_ids(const std::vector<std::string>& ids);
    std::size_t closed_count();

    // Writes so far through this Ledger (its process is the ledger's only
    // writer): a cursor for changed_since().
    std::uint64_t change_count();
    // The records written after `cursor` as they are now, by id; nullopt when
    // that is more than change_memory writes ago (read the window afresh).
    std::optional<std::vector<LedgerRecord>> changed_since(std::uint64_t cursor);
    static constexpr std::size_t kChangeMemory = 65536;

    // Replaces the group's breaker record; state closed (or disabled, which
    // a restart's fresh configuration ends anyway) removes it.
    void save_breaker(const BreakerRecord& breaker);
    std::vector<BreakerRecord> breakers();

    // Replaces the kept spend bookings with these, in one transaction.
    void save_spend_bookings(const std::vector<SpendBooking>& bookings);
    std::vector<SpendBooking> spend_bookings(); // by interval length

    // What burstd learned of each job category's thread scaling, as text the
    // model writes and reads (ScalingModel): rows are replaced or added,
    // never removed.
    void save_thread_scaling(const std::map<std::string, std::string>& by_category);
    std::map<std::string, std::string> thread_scaling();

    // The scavenger jobs burstd keeps off the cloud or puts on warm nodes:
    // a record is replaced whole, and forgotten when its job has ended.
    void save_scavenger(const ScavengerRecord& record);
    void save_scavengers(const std::vector<ScavengerRecord>& records); // in one transaction
    void forget_scavengers(const std::vector<std::uint32_t>& jobs);
    std::vector<ScavengerRecord> scavengers(); // by job

private:
    void create_or_check_schema();
    // Runs an UPDATE guarded by "state IN allowed"; explains a refusal.
    void transition(const std::string& token, std::string_view what, std::string_view set_sql,
                    std::initializer_list<InstanceState> allowed,
                    const std::function<void(SqliteStatement&)>& bind_set,
                    std::string_view guard = {});
    std::vector<LedgerRecord> select(std::string_view where, const std::string& arg);
    LedgerRecord row(const SqliteStatement& stmt) const;

    void note_change(const std::string& token); // under mutex_

    std::mutex mutex_;
    SqliteConnection db_;
    std::uint64_t changes_ = 0;
    const std::size_t change_memory_;
    std::deque<std::string> changed_tokens_; // the last change_memory_ writes' records
};

} // namespace burst
