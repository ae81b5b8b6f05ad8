#include "ledger/ledger.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <random>

namespace burst {

namespace {

constexpr std::array<std::pair<InstanceState, std::string_view>, 6> kStateNames{{
    {InstanceState::Requested, "requested"},
    {InstanceState::Launching, "launching"},
    {InstanceState::Running, "running"},
    {InstanceState::Terminating, "terminating"},
    {InstanceState::Terminated, "terminated"},
    {InstanceState::Failed, "failed"},
}};

constexpr std::string_view kColumns =
    "id, token, node, node_group, provider, instance_type, spot, provider_id, address, state, "
    "requested_at, launched_at, running_since, terminate_requested_at, terminated_at, updated_at, "
    "last_error, zone";

// 128 random bits: collisions are not a practical concern, and the UNIQUE
// constraint turns one into an error instead of a shared instance.
std::string new_token()
{
    std::random_device rd;
    std::string token = "burst-";
    static constexpr char kHex[] = "0123456789abcdef";
    for (int i = 0; i < 4; ++i) {
        std::uint32_t word = rd();
        for (int j = 0; j < 8; ++j) {
            token += kHex[word & 0xf];
            word >>= 4;
        }
    }
    return token;
}

std::string state_list(std::initializer_list<InstanceState> states)
{
    std::string out;
    for (InstanceState s : states) {
        if (!out.empty())
            out += ",";
        out += "'" + std::string(to_string(s)) + "'";
    }
    return out;
}

SqliteConnection open_ledger_file(const std::string& path)
{
    try {
        return SqliteConnection(path, true);
    } catch (const SqliteError& e) {
        throw LedgerError(std::string("ledger ") + e.what());
    }
}

} // namespace

std::string_view to_string(InstanceState state)
{
    for (const auto& [s, name] : kStateNames)
        if (s == state)
            return name;
    return "unknown";
}

std::optional<InstanceState> parse_instance_state(std::string_view word)
{
    for (const auto& [s, name] : kStateNames)
        if (name == word)
            return s;
    return std::nullopt;
}

std::optional<BilledSpan> LedgerRecord::billed_span() const
{
    if (provider_id.empty())
        return std::nullopt;
    BilledSpan span;
    span.node = node;
    span.node_group = node_group;
    span.from = billing_start(requested_at, launched_at);
    if (!open() && terminated_at > 0)
        span.until = terminated_at;
    return span;
}

std::vector<BilledSpan> billed_spans(const std::vector<LedgerRecord>& records)
{
    std::vector<BilledSpan> spans;
    spans.reserve(records.size());
    for (const auto& r : records)
        if (auto span = r.billed_span())
            spans.push_back(std::move(*span));
    return spans;
}

std::vector<NodeBoot> recent_boots(const std::vector<LedgerRecord>& records, std::size_t per_group)
{
    std::vector<NodeBoot> boots;
    boots.reserve(records.size());
    for (const auto& r : records)
        boots.push_back(NodeBoot{r.node_group, r.requested_at, r.running_since});
    return latest_boots(std::move(boots), per_group);
}

Instance LedgerRecord::to_instance() const
{
    Instance i;
    i.node = node;
    i.node_group = node_group;
    i.provider_id = provider_id;
    i.instance_type = instance_type;
    i.state = state;
    i.requested_at = requested_at;
    i.launched_at = launched_at;
    i.running_since = running_since;
    i.spot = spot;
    return i;
}

Ledger::Ledger(const std::string& path, std::size_t change_memory)
    : db_(open_ledger_file(path)), change_memory_(change_memory)
{
    try {
        db_.exec("PRAGMA busy_timeout=5000");
        {
            auto mode = db_.prepare("PRAGMA journal_mode=WAL");
            if (!mode.step() || mode.text(0) != "wal")
                throw LedgerError("ledger " + path + ": cannot switch to WAL journal mode");
        }
        // FULL: a commit returns only after the WAL is fsync'ed, so an intent
        // recorded before a provider call survives a power loss too.
        db_.exec("PRAGMA synchronous=FULL");
        create_or_check_schema();
    } catch (const SqliteError& e) {
        throw LedgerError("ledger " + path + " is unreadable (" + e.what() + ")");
    }
}

namespace {

// Schema version 3: the zone each instance was asked for in.
constexpr std::string_view kZoneColumn = "ALTER TABLE instances ADD COLUMN zone TEXT NOT NULL DEFAULT ''";

// Schema version 2.
constexpr std::string_view kBreakersTable = R"(
CREATE TABLE group_breakers (
  node_group TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  cause TEXT NOT NULL,
  reason TEXT NOT NULL,
  open_until REAL NOT NULL,
  cool_down REAL NOT NULL,
  opened INTEGER NOT NULL,
  probes INTEGER NOT NULL);
)";

// Schema version 4: how far spend was split over the accounts, per budget
// interval length (SpendBooking).  Only tables are added, so a site that
// goes back to a version-3 burstd lowers schema_version by hand; they may
// be there already when it comes forward again.
constexpr std::string_view kSpendTables = R"(
CREATE TABLE IF NOT EXISTS spend_intervals (
  interval REAL PRIMARY KEY,
  interval_start REAL NOT NULL,
  booked_until REAL NOT NULL);
CREATE TABLE IF NOT EXISTS spend_accounts (
  interval REAL NOT NULL REFERENCES spend_intervals(interval),
  account TEXT NOT NULL,
  amount REAL NOT NULL,
  PRIMARY KEY (interval, account));
)";

// Schema version 5: each job category's thread scaling.  Only a table is
// added, as for version 4.
constexpr std::string_view kThreadScalingTable = R"(
CREATE TABLE IF NOT EXISTS thread_scaling (
  category TEXT PRIMARY KEY,
  model TEXT NOT NULL);
)";

// Schema version 6: the scavenger jobs' own partitions and pins
// (ScavengerRecord; `asked` comma-separated).  Only a table is added.
constexpr std::string_view kScavengerTable = R"(
CREATE TABLE IF NOT EXISTS scavenger_jobs (
  job_id INTEGER PRIMARY KEY,
  asked TEXT NOT NULL,
  held INTEGER NOT NULL,
  node TEXT NOT NULL DEFAULT '',
  pinned_at REAL NOT NULL DEFAULT 0);
)";

// Indexes for reading a window of the history instead of all of it (the
// records that ended lately, those of the instances a provider lists).  Any
// schema version may have them; a burstd that does not use them ignores them.
constexpr std::string_view kHistoryIndexes = R"(
CREATE INDEX IF NOT EXISTS instances_ended ON instances(terminated_at);
CREATE INDEX IF NOT EXISTS instances_provider_id ON instances(provider_id);
)";

} // namespace

void Ledger::create_or_check_schema()
{
    db_.exec("BEGIN IMMEDIATE");
    try {
        bool has_version = false, has_other = false;
        {
            auto tables = db_.prepare("SELECT name FROM sqlite_master WHERE type='table'");
            while (tables.step()) {
                std::string name = tables.text(0);
                if (name == "schema_version")
                    has_version = true;
                else if (name != "sqlite_sequence")
                    has_other = true;
            }
        }
        if (!has_version) {
            if (has_other)
                throw LedgerError("ledger " + path() +
                                  " is a SQLite database but not a burstd ledger (no schema_version table)");
            db_.exec(R"(
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE instances (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  token TEXT NOT NULL UNIQUE,
  node TEXT NOT NULL,
  node_group TEXT NOT NULL,
  provider TEXT NOT NULL,
  instance_type TEXT NOT NULL,
  spot INTEGER NOT NULL,
  provider_id TEXT NOT NULL DEFAULT '',
  address TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL,
  requested_at REAL NOT NULL,
  launched_at REAL NOT NULL DEFAULT 0,
  running_since REAL NOT NULL DEFAULT 0,
  terminate_requested_at REAL NOT NULL DEFAULT 0,
  terminated_at REAL NOT NULL DEFAULT 0,
  updated_at REAL NOT NULL,
  last_error TEXT NOT NULL DEFAULT '');
CREATE INDEX instances_node ON instances(node);
CREATE INDEX instances_state ON instances(state);
)");
            db_.exec(kBreakersTable);
            db_.exec(std::string(kZoneColumn));
            db_.exec(kSpendTables);
            db_.exec(kThreadScalingTable);
            db_.exec(kScavengerTable);
            db_.prepare("INSERT INTO schema_version(version) VALUES (?)")
                .bind(1, std::int64_t{kSchemaVersion})
                .run();
        } else {
            std::int64_t version = 0;
            {
                auto v = db_.prepare("SELECT version FROM schema_version");
                if (!v.step())
                    throw LedgerError("ledger " + path() + " has an empty schema_version table");
                version = v.integer(0);
            }
            if (version > kSchemaVersion)
                throw LedgerError("ledger " + path() + " has schema version " +
                                  std::to_string(version) + ", written by a newer burstd; this one reads up to " +
                                  std::to_string(kSchemaVersion));
            if (version < 1)
                throw LedgerError("ledger " + path() + " has invalid schema version " +
                                  std::to_string(version));
            if (version < 2)
                db_.exec(kBreakersTable);
            if (version < 3)
                db_.exec(std::string(kZoneColumn));
            if (version < 4)
                db_.exec(kSpendTables);
            if (version < 5)
                db_.exec(kThreadScalingTable);
            if (version < 6)
                db_.exec(kScavengerTable);
            if (version < kSchemaVersion)
                db_.prepare("UPDATE schema_version SET version = ?").bind(1, std::int64_t{kSchemaVersion}).run();
        }
        db_.exec(kHistoryIndexes);
        db_.exec("COMMIT");
    } catch (...) {
        db_.rollback();
        throw;
    }
}

LedgerRecord Ledger::record_launch_intent(const LaunchIntent& intent, Time now)
{
    if (intent.node.empty() || intent.provider.empty())
        throw LedgerError("ledger " + path() + ": a launch intent needs a node and a provider");
    std::lock_guard lock(mutex_);
    LedgerRecord r;
    r.token = new_token();
    r.node = intent.node;
    r.node_group = intent.node_group;
    r.provider = intent.provider;
    r.instance_type = intent.instance_type;
    r.zone = intent.zone;
    r.spot = intent.spot;
    r.requested_at = r.updated_at = now;
    db_.prepare("INSERT INTO instances(token, node, node_group, provider, instance_type, spot, state, "
                "requested_at, updated_at, zone) VALUES (?,?,?,?,?,?,?,?,?,?)")
        .bind(1, r.token)
        .bind(2, r.node)
        .bind(3, r.node_group)
        .bind(4, r.provider)
        .bind(5, r.instance_type)
        .bind(6, std::int64_t{r.spot})
        .bind(7, to_string(r.state))
        .bind(8, now)
        .bind(9, now)
        .bind(10, r.zone)
        .run();
    r.id = db_.last_insert_rowid();
    note_change(r.token);
    return r;
}

void Ledger::transition(const std::string& token, std::string_view what, std::string_view set_sql,
                        std::initializer_list<InstanceState> allowed,
                        const std::function<void(SqliteStatement&)>& bind_set,
                        std::string_view guard)
{
    std::lock_guard lock(mutex_);
    auto update = db_.prepare("UPDATE instances SET " + std::string(set_sql) +
                              " WHERE token = ?1 AND state IN (" + state_list(allowed) + ")" +
                              (guard.empty() ? "" : " AND " + std::string(guard)));
    update.bind(1, token);
    bind_set(update);
    update.run();
    if (db_.changes() == 1) {
        note_change(token);
        return;
    }
    auto current = db_.prepare("SELECT state, provider_id FROM instances WHERE token = ?");
    current.bind(1, token);
    if (!current.step())
        throw LedgerError("ledger " + path() + ": " + std::string(what) + ": unknown token " + token);
    auto state = parse_instance_state(current.text(0));
    for (InstanceState a : allowed)
        if (state == a)
            throw LedgerError("ledger " + path() + ": " + std::string(what) + ": instance " + token +
                              " already has provider id " + current.text(1));
    throw LedgerError("ledger " + path() + ": " + std::string(what) + ": instance " + token +
                      " is " + current.text(0));
}

void Ledger::mark_launched(const std::string& token, const std::string& provider_id,
                           const std::string& address, Time now)
{
    if (provider_id.empty())
        throw LedgerError("ledger " + path() + ": mark_launched(" + token + ") without a provider id");
    // A repeat on a Launching record may only fill in the address of the same instance.
    transition(token, "mark launched",
               "state = 'launching', provider_id = ?2, address = ?3, updated_at = ?4, "
               "launched_at = CASE WHEN launched_at = 0 THEN ?4 ELSE launched_at END",
               {InstanceState::Requested, InstanceState::Launching},
               [&](SqliteStatement& s) {
                   s.bind(2, provider_id).bind(3, address).bind(4, now);
               },
               "provider_id IN ('', ?2)");
}

void Ledger::mark_running(const std::string& token, Time now)
{
    transition(token, "mark running",
               "state = 'running', updated_at = ?2, "
               "running_since = CASE WHEN running_since = 0 THEN ?2 ELSE running_since END",
               {InstanceState::Launching, InstanceState::Running},
               [&](SqliteStatement& s) { s.bind(2, now); });
}

void Ledger::mark_failed(const std::string& token, const std::string& error, Time now)
{
    transition(token, "mark failed",
               "state = 'failed', last_error = ?2, terminated_at = ?3, updated_at = ?3",
               {InstanceState::Requested, InstanceState::Launching, InstanceState::Running,
                InstanceState::Terminating},
               [&](SqliteStatement& s) { s.bind(2, error).bind(3, now); });
}

void Ledger::record_terminate_intent(const std::string& token, const std::string& reason, Time now)
{
    transition(token, "record terminate intent",
               "state = 'terminating', last_error = CASE WHEN ?2 = '' THEN last_error ELSE ?2 END, "
               "updated_at = ?3, "
               "terminate_requested_at = CASE WHEN terminate_requested_at = 0 THEN ?3 "
               "ELSE terminate_requested_at END",
               {InstanceState::Requested, InstanceState::Launching, InstanceState::Running,
                InstanceState::Terminating},
               [&](SqliteStatement& s) { s.bind(2, reason).bind(3, now); });
}

void Ledger::mark_terminated(const std::string& token, Time now)
{
    transition(token, "mark terminated",
               "state = 'terminated', updated_at = ?2, "
               "terminated_at = CASE WHEN terminated_at = 0 THEN ?2 ELSE terminated_at END",
               {InstanceState::Requested, InstanceState::Launching, InstanceState::Running,
                InstanceState::Terminating, InstanceState::Terminated},
               [&](SqliteStatement& s) { s.bind(2, now); });
}

LedgerRecord Ledger::row(const SqliteStatement& s) const
{
    LedgerRecord r;
    r.id = s.integer(0);
    r.token = s.text(1);
    r.node = s.text(2);
    r.node_group = s.text(3);
    r.provider = s.text(4);
    r.instance_type = s.text(5);
    r.spot = s.integer(6) != 0;
    r.provider_id = s.text(7);
    r.address = s.text(8);
    auto state = parse_instance_state(s.text(9));
    if (!state)
        throw LedgerError("ledger " + path() + ": record " + std::to_string(r.id) +
                          " has unknown state '" + s.text(9) + "'");
    r.state = *state;
    r.requested_at = s.real(10);
    r.launched_at = s.real(11);
    r.running_since = s.real(12);
    r.terminate_requested_at = s.real(13);
    r.terminated_at = s.real(14);
    r.updated_at = s.real(15);
    r.last_error = s.text(16);
    r.zone = s.text(17);
    return r;
}

std::vector<LedgerRecord> Ledger::select(std::string_view where, const std::string& arg)
{
    std::lock_guard lock(mutex_);
    auto stmt = db_.prepare("SELECT " + std::string(kColumns) + " FROM instances WHERE " +
                            std::string(where) + " ORDER BY id");
    if (!arg.empty())
        stmt.bind(1, arg);
    std::vector<LedgerRecord> out;
    while (stmt.step())
        out.push_back(row(stmt));
    return out;
}

void Ledger::note_change(const std::string& token)
{
    ++changes_;
    changed_tokens_.push_back(token);
    if (changed_tokens_.size() > change_memory_)
        changed_tokens_.pop_front();
}

std::uint64_t Ledger::change_count()
{
    std::lock_guard lock(mutex_);
    return changes_;
}

std::optional<std::vector<LedgerRecord>> Ledger::changed_since(std::uint64_t cursor)
{
    std::set<std::string> tokens;
    {
        std::lock_guard lock(mutex_);
        if (cursor > changes_ || changes_ - cursor > changed_tokens_.size())
            return std::nullopt;
        tokens.insert(changed_tokens_.end() - std::ptrdiff_t(changes_ - cursor), changed_tokens_.end());
    }
    std::vector<LedgerRecord> out;
    for (const auto& token : tokens)
        if (auto r = find(token))
            out.push_back(std::move(*r));
    std::sort(out.begin(), out.end(), [](const LedgerRecord& a, const LedgerRecord& b) { return a.id < b.id; });
    return out;
}

std::vector<LedgerRecord> Ledger::open_or_ended_since(Time since)
{
    std::lock_guard lock(mutex_);
    auto stmt = db_.prepare("SELECT " + std::string(kColumns) +
                            " FROM instances WHERE state NOT IN ('terminated', 'failed') UNION SELECT " +
                            std::string(kColumns) + " FROM instances WHERE terminated_at >= ?1 ORDER BY id");
    stmt.bind(1, since);
    std::vector<LedgerRecord> out;
    while (stmt.step())
        out.push_back(row(stmt));
    return out;
}

std::vector<LedgerBoot> Ledger::latest_boots(std::size_t per_group)
{
    std::lock_guard lock(mutex_);
    // NodeBoot::plausible() in SQL, then latest_boots()'s choice: the last
    // per_group to come up in each group (the later record on a tie).
    auto stmt = db_.prepare("SELECT id, node_group, requested_at, running_since FROM ("
                            "SELECT id, node_group, requested_at, running_since, ROW_NUMBER() OVER ("
                            "PARTITION BY node_group ORDER BY running_since DESC, id DESC) AS latest "
                            "FROM instances WHERE running_since > 0 AND running_since >= requested_at) "
                            "WHERE latest <= ?1 ORDER BY id");
    stmt.bind(1, std::int64_t(per_group));
    std::vector<LedgerBoot> out;
    while (stmt.step())
        out.push_back({stmt.integer(0), NodeBoot{stmt.text(1), stmt.real(2), stmt.real(3)}});
    return out;
}

std::vector<LedgerRecord> Ledger::with_provider_ids(const std::vector<std::string>& ids)
{
    std::vector<LedgerRecord> out;
    std::lock_guard lock(mutex_);
    auto stmt = db_.prepare("SELECT " + std::string(kColumns) + " FROM instances WHERE provider_id = ?1");
    for (const auto& id : std::set<std::string>(ids.begin(), ids.end())) {
        if (id.empty())
            continue;
        stmt.reset();
        stmt.bind(1, id);
        while (stmt.step())
            out.push_back(row(stmt));
    }
    std::sort(out.begin(), out.end(), [](const LedgerRecord& a, const LedgerRecord& b) { return a.id < b.id; });
    return out;
}

std::size_t Ledger::closed_count()
{
    std::lock_guard lock(mutex_);
    auto stmt = db_.prepare("SELECT COUNT(*) FROM instances WHERE state IN ('terminated', 'failed')");
    stmt.step();
    return std::size_t(stmt.integer(0));
}

std::optional<LedgerRecord> Ledger::find(const std::string& token)
{
    auto rows = select("token = ?1", token);
    if (rows.empty())
        return std::nullopt;
    return rows.front();
}

std::vector<LedgerRecord> Ledger::for_node(const std::string& node)
{
    return select("node = ?1", node);
}

std::vector<LedgerRecord> Ledger::open_for_node(const std::string& node)
{
    return select("node = ?1 AND state NOT IN ('terminated', 'failed')", node);
}

std::vector<LedgerRecord> Ledger::in_state(InstanceState state)
{
    return select("state = ?1", std::string(to_string(state)));
}

std::vector<LedgerRecord> Ledger::open_records()
{
    return select("state NOT IN ('terminated', 'failed')", "");
}

std::vector<LedgerRecord> Ledger::all()
{
    return select("1", "");
}

void Ledger::save_breaker(const BreakerRecord& b)
{
    if (b.node_group.empty())
        throw LedgerError("ledger " + path() + ": a breaker record needs a node group");
    std::lock_guard lock(mutex_);
    if (b.state != "open" && b.state != "half-open") {
        db_.prepare("DELETE FROM group_breakers WHERE node_group = ?").bind(1, b.node_group).run();
        return;
    }
    db_.prepare("INSERT OR REPLACE INTO group_breakers(node_group, state, cause, reason, open_until, cool_down, "
                "opened, probes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(1, b.node_group)
        .bind(2, b.state)
        .bind(3, b.cause)
        .bind(4, b.reason)
        .bind(5, double(b.open_until))
        .bind(6, double(b.cool_down))
        .bind(7, b.opened)
        .bind(8, b.probes)
        .run();
}

void Ledger::save_spend_bookings(const std::vector<SpendBooking>& bookings)
{
    std::lock_guard lock(mutex_);
    db_.exec("BEGIN IMMEDIATE");
    try {
        db_.exec("DELETE FROM spend_accounts; DELETE FROM spend_intervals;");
        for (const SpendBooking& b : bookings) {
            if (!(b.interval > 0))
                throw LedgerError("ledger " + path() + ": a spend booking needs an interval longer than 0");
            db_.prepare("INSERT INTO spend_intervals(interval, interval_start, booked_until) VALUES (?, ?, ?)")
                .bind(1, double(b.interval))
                .bind(2, double(b.interval_start))
                .bind(3, double(b.booked_until))
                .run();
            for (const auto& [account, amount] : b.accounts)
                db_.prepare("INSERT INTO spend_accounts(interval, account, amount) VALUES (?, ?, ?)")
                    .bind(1, double(b.interval))
                    .bind(2, account)
                    .bind(3, amount)
                    .run();
        }
        db_.exec("COMMIT");
    } catch (...) {
        db_.rollback();
        throw;
    }
}

std::vector<SpendBooking> Ledger::spend_bookings()
{
    std::lock_guard lock(mutex_);
    std::vector<SpendBooking> out;
    auto q = db_.prepare("SELECT i.interval, i.interval_start, i.booked_until, a.account, a.amount "
                         "FROM spend_intervals i LEFT JOIN spend_accounts a ON a.interval = i.interval "
                         "ORDER BY i.interval");
    while (q.step()) {
        if (out.empty() || out.back().interval != q.real(0))
            out.push_back(SpendBooking{q.real(0), q.real(1), q.real(2), {}});
        if (!q.is_null(3))
            out.back().accounts[q.text(3)] = q.real(4);
    }
    return out;
}

void Ledger::save_thread_scaling(const std::map<std::string, std::string>& by_category)
{
    if (by_category.empty())
        return;
    std::lock_guard lock(mutex_);
    db_.exec("BEGIN IMMEDIATE");
    try {
        for (const auto& [category, model] : by_category)
            db_.prepare("INSERT OR REPLACE INTO thread_scaling(category, model) VALUES (?, ?)")
                .bind(1, category)
                .bind(2, model)
                .run();
        db_.exec("COMMIT");
    } catch (...) {
        db_.rollback();
        throw;
    }
}

std::map<std::string, std::string> Ledger::thread_scaling()
{
    std::lock_guard lock(mutex_);
    std::map<std::string, std::string> out;
    auto q = db_.prepare("SELECT category, model FROM thread_scaling");
    while (q.step())
        out[q.text(0)] = q.text(1);
    return out;
}

void Ledger::save_scavenger(const ScavengerRecord& record)
{
    save_scavengers({record});
}

void Ledger::save_scavengers(const std::vector<ScavengerRecord>& records)
{
    if (records.empty())
        return;
    std::vector<std::string> asked(records.size());
    for (std::size_t i = 0; i < records.size(); ++i)
        for (const auto& p : records[i].asked) {
            if (p.empty() || p.find(',') != std::string::npos)
                throw LedgerError("ledger " + path() + ": scavenger job " + std::to_string(records[i].job) +
                                  " has an invalid partition name '" + p + "'");
            asked[i] += (asked[i].empty() ? "" : ",") + p;
        }
    std::lock_guard lock(mutex_);
    db_.exec("BEGIN IMMEDIATE");
    try {
        for (std::size_t i = 0; i < records.size(); ++i)
            db_.prepare("INSERT OR REPLACE INTO scavenger_jobs(job_id, asked, held, node, pinned_at) "
                        "VALUES (?, ?, ?, ?, ?)")
                .bind(1, std::int64_t{records[i].job})
                .bind(2, asked[i])
                .bind(3, std::int64_t{records[i].held})
                .bind(4, records[i].node)
                .bind(5, records[i].pinned_at)
                .run();
        db_.exec("COMMIT");
    } catch (...) {
        db_.rollback();
        throw;
    }
}

void Ledger::forget_scavengers(const std::vector<std::uint32_t>& jobs)
{
    if (jobs.empty())
        return;
    std::lock_guard lock(mutex_);
    db_.exec("BEGIN IMMEDIATE");
    try {
        for (std::uint32_t job : jobs)
            db_.prepare("DELETE FROM scavenger_jobs WHERE job_id = ?").bind(1, std::int64_t{job}).run();
        db_.exec("COMMIT");
    } catch (...) {
        db_.rollback();
        throw;
    }
}

std::vector<ScavengerRecord> Ledger::scavengers()
{
    std::lock_guard lock(mutex_);
    std::vector<ScavengerRecord> out;
    auto q = db_.prepare("SELECT job_id, asked, held, node, pinned_at FROM scavenger_jobs ORDER BY job_id");
    while (q.step()) {
        ScavengerRecord r;
        r.job = std::uint32_t(q.integer(0));
        const std::string asked = q.text(1);
        for (std::size_t start = 0; start < asked.size();) {
            const std::size_t comma = std::min(asked.find(',', start), asked.size());
            r.asked.push_back(asked.substr(start, comma - start));
            start = comma + 1;
        }
        r.held = q.integer(2) != 0;
        r.node = q.text(3);
        r.pinned_at = q.real(4);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<BreakerRecord> Ledger::breakers()
{
    std::lock_guard lock(mutex_);
    std::vector<BreakerRecord> out;
    auto q = db_.prepare("SELECT node_group, state, cause, reason, open_until, cool_down, opened, probes "
                         "FROM group_breakers ORDER BY node_group");
    while (q.step())
        out.push_back(BreakerRecord{q.text(0), q.text(1), q.text(2), q.text(3), q.real(4), q.real(5), q.integer(6),
                                    q.integer(7)});
    return out;
}

} // namespace burst
