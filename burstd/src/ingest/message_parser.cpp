#include "ingest/message_parser.hpp"

#include "common/json_ref.hpp"

#include <cstdint>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace burst {
namespace {

// Thrown at the first invalid field; carries its path and what was expected.
struct FieldError {
    std::string path;
    std::string message;
};

// Typed, validated access to the members of one JSON object at `path`.
class Fields {
public:
    Fields(json_t* object, std::string path) : object_(object), path_(std::move(path)) {}

    std::string at(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

    json_t* get(const char* key, bool required) const
    {
        json_t* v = json_object_get(object_, key);
        if (!v && required)
            throw FieldError{at(key), "required field missing"};
        return v;
    }

    std::int64_t integer(const char* key, bool required, std::int64_t fallback = 0, std::int64_t min = 0,
                         std::int64_t max = std::numeric_limits<std::int64_t>::max()) const
    {
        json_t* v = get(key, required);
        if (!v)
            return fallback;
        if (!json_is_integer(v))
            throw FieldError{at(key), "expected integer"};
        std::int64_t i = json_integer_value(v);
        if (i < min || i > max)
            throw FieldError{at(key), "expected integer in " + std::to_string(min) + ".." + std::to_string(max) +
                                          ", got " + std::to_string(i)};
        return i;
    }
    std::uint32_t u32(const char* key, bool required, std::uint32_t fallback = 0, std::uint32_t min = 0) const
    {
        return std::uint32_t(integer(key, required, fallback, min, std::numeric_limits<std::uint32_t>::max()));
    }
    Time time(const char* key, bool required) const { return Time(integer(key, required)); }

    // A size hint: absent is 0, else a number above 0 and at most 1e15, as
    // the plugin checks users' values.
    double size_hint(const char* key) const
    {
        const double v = number(key);
        if (!(v >= 0 && v <= 1e15) || (get(key, false) && v == 0))
            throw FieldError{at(key), "expected a number above 0 and at most 1e15"};
        return v;
    }
    double number(const char* key) const
    {
        json_t* v = get(key, false);
        if (!v)
            return 0;
        if (!json_is_number(v))
            throw FieldError{at(key), "expected number"};
        return json_number_value(v);
    }
    std::string string(const char* key, bool required, const char* fallback = "") const
    {
        json_t* v = get(key, required);
        if (!v)
            return fallback;
        if (!json_is_string(v))
            throw FieldError{at(key), "expected string"};
        return std::string(json_string_value(v), json_string_length(v));
    }
    bool boolean(const char* key) const
    {
        json_t* v = get(key, false);
        if (!v)
            return false;
        if (!json_is_boolean(v))
            throw FieldError{at(key), "expected boolean"};
        return json_is_true(v);
    }
    std::vector<std::string> strings(const char* key, bool required) const
    {
        std::vector<std::string> out;
        json_t* v = get(key, required);
        if (!v)
            return out;
        if (!json_is_array(v))
            throw FieldError{at(key), "expected array of strings"};
        out.reserve(json_array_size(v));
        for (std::size_t i = 0; i < json_array_size(v); ++i) {
            json_t* s = json_array_get(v, i);
            if (!json_is_string(s))
                throw FieldError{at(key) + "[" + std::to_string(i) + "]", "expected string"};
            out.emplace_back(json_string_value(s), json_string_length(s));
        }
        return out;
    }
    // Calls `each(Fields)` for every element of the array of objects at `key`.
    template <class Each>
    void objects(const char* key, bool required, Each each) const
    {
        json_t* v = get(key, required);
        if (!v)
            return;
        if (!json_is_array(v))
            throw FieldError{at(key), "expected array"};
        for (std::size_t i = 0; i < json_array_size(v); ++i) {
            std::string path = at(key) + "[" + std::to_string(i) + "]";
            json_t* o = json_array_get(v, i);
            if (!json_is_object(o))
                throw FieldError{path, "expected object"};
            each(Fields(o, path));
        }
    }

    template <class Enum>
    Enum word(const char* key, bool required, Enum fallback, std::initializer_list<std::pair<const char*, Enum>> words) const
    {
        if (!get(key, required))
            return fallback;
        std::string w = string(key, required);
        std::string known;
        for (const auto& [name, value] : words) {
            if (w == name)
                return value;
            known += std::string(known.empty() ? "" : ", ") + name;
        }
        throw FieldError{at(key), "expected one of " + known + ", got \"" + w + "\""};
    }

private:
    json_t* object_;
    std::string path_;
};

ThreadOption parse_threads(const Fields& f)
{
    std::string t = f.string("threads", false);
    ThreadOption out;
    if (t.empty())
        return out;
    if (t == "auto") {
        out.automatic = true;
        return out;
    }
    std::uint64_t n = 0;
    bool digits = t.size() <= 9;
    for (char c : t)
        digits = digits && c >= '0' && c <= '9';
    if (digits)
        for (char c : t)
            n = n * 10 + std::uint64_t(c - '0');
    if (!digits || n == 0)
        throw FieldError{f.at("threads"), "expected \"auto\", a positive integer or \"\", got \"" + t + "\""};
    out.count = std::uint32_t(n);
    return out;
}

// Slurm's job_reason_string(): a name of its enum of reasons (letters,
// digits, '_'; the longest is 38 characters), or the enum's number.  Reasons
// are interned for the life of burstd (model/pending_reason.hpp), so free
// text here is an error, not a table that grows with every snapshot.
PendingReason parse_reason(const Fields& f)
{
    const std::string text = f.string("reason", false);
    constexpr std::size_t kLongest = 64;
    bool name = text.size() <= kLongest;
    for (char c : text)
        name = name && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
    if (!name)
        throw FieldError{f.at("reason"), "expected a Slurm reason name (letters, digits and _, at most " +
                                             std::to_string(kLongest) + "), got \"" + text.substr(0, kLongest) +
                                             (text.size() > kLongest ? "...\"" : "\"")};
    return text;
}

Job parse_job(const Fields& f)
{
    Job j;
    j.id = f.u32("id", true);
    j.array_task_count = f.u32("array_tasks", false, 1, 1);
    j.user = f.string("user", true);
    j.account = f.string("account", true);
    j.partitions = f.strings("partitions", true);
    j.qos = f.string("qos", false);
    j.name = f.string("name", false);
    j.category = f.string("category", false);
    j.reason = parse_reason(f);
    j.dependency = f.string("dependency", false);
    j.state = f.word("state", true, JobState::Pending,
                     {{"PENDING", JobState::Pending},
                      {"RUNNING", JobState::Running},
                      {"SUSPENDED", JobState::Suspended},
                      {"COMPLETING", JobState::Completing}});
    j.priority = f.u32("priority", false);
    j.submit_time = f.time("submit_time", true);
    j.eligible_time = f.time("eligible_time", false);
    j.start_time = f.time("start_time", false);
    j.time_limit = Seconds(f.integer("time_limit", false));
    j.node_count = f.u32("nodes_req", false, 1);
    j.cpus = f.u32("cpus", true);
    j.cpus_per_task = f.u32("cpus_per_task", false, 1, 1);
    j.memory_mb = std::uint64_t(f.integer("mem_mb", false));
    j.needs = NodeNeeds(f.string("gres", false), f.string("features", false),
                        f.u32("node_cpus", false, j.cpus_per_task, 1), std::uint64_t(f.integer("node_mem_mb", false)));
    j.nodes = f.strings("node_list", false);
    j.burst = f.word("burst", false, BurstOption::Allow,
                     {{"never", BurstOption::Never}, {"allow", BurstOption::Allow}, {"prefer", BurstOption::Prefer}});
    j.threads = parse_threads(f);
    j.why = f.string("why", false);
    j.size = f.size_hint("size");
    return j;
}

Node parse_node(const Fields& f)
{
    Node n;
    n.name = f.string("name", true);
    n.base = f.word("state", true, NodeBaseState::Unknown,
                    {{"IDLE", NodeBaseState::Idle},
                     {"ALLOCATED", NodeBaseState::Allocated},
                     {"MIXED", NodeBaseState::Mixed},
                     {"DOWN", NodeBaseState::Down},
                     {"FUTURE", NodeBaseState::Future},
                     {"UNKNOWN", NodeBaseState::Unknown}});
    static const std::pair<const char*, NodeFlag> kFlags[] = {
        {"CLOUD", kNodeCloud},
        {"POWERED_DOWN", kNodePoweredDown},
        {"POWERING_UP", kNodePoweringUp},
        {"POWERING_DOWN", kNodePoweringDown},
        {"POWER_DOWN", kNodePowerDownPending},
        {"DRAIN", kNodeDrain},
        {"NOT_RESPONDING", kNodeNotResponding},
        {"COMPLETING", kNodeCompleting},
        {"FAIL", kNodeFail},
        {"RESERVED", kNodeReserved},
        {"MAINTENANCE", kNodeMaintenance},
    };
    // Newer Slurm versions add flags; one burstd does not know says nothing it acts on.
    for (const auto& flag : f.strings("flags", true))
        for (const auto& [word, bit] : kFlags)
            if (flag == word)
                n.flags |= bit;
    n.cpus = f.u32("cpus", true);
    n.alloc_cpus = f.u32("alloc_cpus", true);
    n.memory_mb = std::uint64_t(f.integer("mem_mb", false));
    n.alloc_memory_mb = std::uint64_t(f.integer("alloc_mem_mb", false));
    n.features = f.strings("features", false);
    n.gres = f.string("gres", false);
    n.partitions = f.strings("partitions", false);
    n.weight = f.u32("weight", false, 1);
    n.addr = f.string("addr", false);
    return n;
}

Partition parse_partition(const Fields& f)
{
    Partition p;
    p.name = f.string("name", true);
    p.nodes = f.strings("nodes", true);
    p.up = f.word("state", false, true, {{"UP", true}, {"DOWN", false}, {"DRAIN", false}, {"INACTIVE", false}});
    p.is_default = f.boolean("default");
    p.max_time = Seconds(f.integer("max_time", false));
    p.priority_tier = f.u32("priority_tier", false, 1);
    return p;
}

Share parse_share(const Fields& f)
{
    Share s;
    s.account = f.string("account", true);
    s.user = f.string("user", false);
    s.parent = f.string("parent", false);
    s.raw_shares = f.number("raw_shares");
    s.fairshare_parent = f.boolean("fairshare_parent");
    s.norm_shares = f.number("norm_shares");
    s.raw_usage = f.number("raw_usage");
    s.norm_usage = f.number("norm_usage");
    s.fairshare_factor = f.number("fs_factor");
    return s;
}

Snapshot parse_snapshot(const Fields& f, const ProtocolMessage& header)
{
    Snapshot s;
    s.cluster = header.cluster;
    s.seq = header.seq;
    s.time = header.time;
    f.objects("jobs", true, [&](const Fields& j) { s.jobs.push_back(parse_job(j)); });
    f.objects("nodes", true, [&](const Fields& n) { s.nodes.push_back(parse_node(n)); });
    f.objects("partitions", true, [&](const Fields& p) { s.partitions.push_back(parse_partition(p)); });
    f.objects("shares", true, [&](const Fields& sh) { s.shares.push_back(parse_share(sh)); });
    return s;
}

template <class Each>
void arrays(const Fields& f, const char* key, Each each)
{
    json_t* v = f.get(key, false);
    if (!v)
        return;
    if (!json_is_array(v))
        throw FieldError{f.at(key), "expected array"};
    for (std::size_t i = 0; i < json_array_size(v); ++i) {
        json_t* pair = json_array_get(v, i);
        const std::string path = f.at(key) + "[" + std::to_string(i) + "]";
        if (!json_is_array(pair) || json_array_size(pair) != 2)
            throw FieldError{path, "expected an array of two elements"};
        each(path, json_array_get(pair, 0), json_array_get(pair, 1));
    }
}

std::uint32_t pair_u32(const std::string& path, json_t* v)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) > json_int_t(std::numeric_limits<std::uint32_t>::max()))
        throw FieldError{path, "expected integer in 0..4294967295"};
    return std::uint32_t(json_integer_value(v));
}

SnapshotCheck parse_check(const Fields& f)
{
    json_t* v = f.get("check", true);
    if (!json_is_object(v))
        throw FieldError{f.at("check"), "expected object"};
    const Fields c(v, f.at("check"));
    SnapshotCheck check;
    check.jobs = std::uint64_t(c.integer("jobs", true));
    check.nodes = std::uint64_t(c.integer("nodes", true));
    check.partitions = std::uint64_t(c.integer("partitions", true));
    check.shares = std::uint64_t(c.integer("shares", true));
    check.job_sum = std::uint64_t(c.integer("job_sum", true));
    return check;
}

SnapshotDelta parse_delta(const Fields& f)
{
    SnapshotDelta d;
    d.base = std::uint64_t(f.integer("base", true));
    f.objects("jobs", false, [&](const Fields& j) { d.jobs.push_back(parse_job(j)); });
    arrays(f, "priorities", [&](const std::string& path, json_t* id, json_t* priority) {
        d.priorities.emplace_back(pair_u32(path + "[0]", id), pair_u32(path + "[1]", priority));
    });
    json_t* removed = f.get("jobs_removed", false);
    if (removed && !json_is_array(removed))
        throw FieldError{f.at("jobs_removed"), "expected array of integers"};
    for (std::size_t i = 0; removed && i < json_array_size(removed); ++i)
        d.removed_jobs.push_back(
            pair_u32(f.at("jobs_removed") + "[" + std::to_string(i) + "]", json_array_get(removed, i)));
    f.objects("nodes", false, [&](const Fields& n) { d.nodes.push_back(parse_node(n)); });
    d.removed_nodes = f.strings("nodes_removed", false);
    f.objects("partitions", false, [&](const Fields& p) { d.partitions.push_back(parse_partition(p)); });
    d.removed_partitions = f.strings("partitions_removed", false);
    if (f.get("shares", false)) {
        d.shares.emplace();
        f.objects("shares", false, [&](const Fields& sh) { d.shares->push_back(parse_share(sh)); });
    }
    d.check = parse_check(f);
    return d;
}

// The protocol version that brought each message type.
int version_of(const std::string& type)
{
    if (type == "hello" || type == "snapshot" || type == "job_end")
        return 1;
    if (type == "delta")
        return kDeltaProtocolVersion;
    return 0;
}

bool lists_version(const Fields& f, const char* key, int version)
{
    json_t* v = f.get(key, false);
    if (v && !json_is_array(v))
        throw FieldError{f.at(key), "expected array of integers"};
    bool found = false;
    for (std::size_t i = 0; v && i < json_array_size(v); ++i) {
        json_t* e = json_array_get(v, i);
        if (!json_is_integer(e))
            throw FieldError{f.at(key) + "[" + std::to_string(i) + "]", "expected integer"};
        found = found || json_integer_value(e) == version;
    }
    return found;
}

JobEnd parse_job_end(const Fields& f)
{
    JobEnd e;
    e.id = f.u32("id", true);
    e.category = f.string("category", true);
    e.account = f.string("account", false);
    e.cpus = f.u32("cpus", true);
    e.cpus_per_task = f.u32("cpus_per_task", false, 1, 1);
    e.size = f.size_hint("size");
    e.elapsed = Seconds(f.integer("elapsed", true));
    e.exit_code = int(f.integer("exit_code", false, 0, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
    e.nodes = f.strings("node_list", false);
    e.end_time = f.time("end_time", false);
    e.eligible_time = f.time("eligible_time", false);
    e.start_time = f.time("start_time", false);
    e.state = f.string("state", false);
    return e;
}

} // namespace

ParsedMessage parse_message(std::string_view line)
{
    ParsedMessage out;
    if (line.size() > kMaxMessageBytes) {
        out.error = "message of " + std::to_string(line.size()) + " bytes exceeds the limit of " +
                    std::to_string(kMaxMessageBytes) + " bytes";
        return out;
    }
    json_error_t jerr;
    JsonRef root(json_loadb(line.data(), line.size(), JSON_REJECT_DUPLICATES, &jerr));
    if (!root) {
        out.error = "invalid JSON at byte " + std::to_string(jerr.position) + ": " + jerr.text;
        return out;
    }
    if (!json_is_object(root.get())) {
        out.error = "expected a JSON object";
        return out;
    }
    ProtocolMessage msg;
    std::string context;
    try {
        Fields f(root.get(), "");
        std::int64_t v = f.integer("v", true, 0, std::numeric_limits<std::int64_t>::min());
        if (v < 1 || v > kProtocolVersion)
            throw FieldError{"v", "unsupported protocol version " + std::to_string(v) + " (this burstd speaks 1 to " +
                                      std::to_string(kProtocolVersion) + ")"};
        msg.type = f.string("type", true);
        const int introduced = version_of(msg.type);
        if (introduced == 0)
            throw FieldError{"type", "expected one of hello, snapshot, delta, job_end, got \"" + msg.type + "\""};
        if (v < introduced)
            throw FieldError{"v", msg.type + " needs protocol version " + std::to_string(introduced) + ", got " +
                                      std::to_string(v)};
        context = msg.type + ": ";
        msg.cluster = f.string("cluster", true);
        msg.seq = std::uint64_t(f.integer("seq", true));
        context = msg.type + " seq " + std::to_string(msg.seq) + ": ";
        msg.time = f.time("time", true);
        if (msg.type == "hello")
            msg.body = Hello{f.string("plugin_version", false), f.string("slurm_version", false),
                             lists_version(f, "versions", kDeltaProtocolVersion)};
        else if (msg.type == "snapshot")
            msg.body = parse_snapshot(f, msg);
        else if (msg.type == "delta")
            msg.body = parse_delta(f);
        else
            msg.body = parse_job_end(f);
    } catch (const FieldError& e) {
        out.error = context + e.path + ": " + e.message;
        return out;
    }
    out.message = std::move(msg);
    return out;
}

} // namespace burst
