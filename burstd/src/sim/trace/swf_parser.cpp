#include "sim/trace/swf_parser.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace burst {
namespace {

constexpr std::size_t kFields = 18;

enum Field {
    kJobNumber = 0,
    kSubmit = 1,
    kWaitTime = 2,
    kRunTime = 3,
    kAllocProcs = 4,
    kAvgCpuTime = 5,
    kUsedMemory = 6,
    kReqProcs = 7,
    kReqTime = 8,
    kReqMemory = 9,
    kStatus = 10,
    kUser = 11,
    kGroup = 12,
    kExecutable = 13,
    kQueue = 14,
    kPartition = 15,
    kPrecedingJob = 16,
    kThinkTime = 17,
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

using Numbers = std::array<double, kFields + 1>;
using Tokens = std::array<std::string_view, kFields + 1>;

// Splits a record into numbers (and their text, for messages).  Returns how
// many fields the record has, counted before any is read as a number (a
// record of another format says so by its width), or -1 (with `bad` set to
// the offending text) when one of its 18 fields is not a number.
// `tokens` is the caller's, reused from line to line.
int split_numbers(std::string_view line, Numbers& out, Tokens& text, std::string_view& bad,
                  std::vector<std::string_view>& tokens)
{
    tokens.clear();
    for (std::size_t i = 0;;) {
        while (i < line.size() && is_space(line[i]))
            ++i;
        if (i == line.size())
            break;
        std::size_t j = i;
        while (j < line.size() && !is_space(line[j]))
            ++j;
        tokens.push_back(line.substr(i, j - i));
        i = j;
    }
    if (tokens.size() != kFields)
        return int(tokens.size());
    for (std::size_t n = 0; n < tokens.size(); ++n) {
        const std::string_view token = tokens[n];
        double value = 0;
        auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
        if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value)) {
            bad = token;
            return -1;
        }
        text[n] = token;
        out[n] = value;
    }
    return int(tokens.size());
}

// A field as a message quotes it: at most 32 characters of it.
std::string quoted(std::string_view token)
{
    constexpr std::size_t kShown = 32;
    if (token.size() <= kShown)
        return "'" + std::string(token) + "'";
    return "'" + std::string(token.substr(0, kShown)) + "...' (" + std::to_string(token.size()) + " characters)";
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && is_space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && is_space(s.back()))
        s.remove_suffix(1);
    return s;
}

constexpr std::string_view kUsedHeaders[] = {"MaxNodes", "MaxProcs", "UnixStartTime"};

// The key of a header comment ("; MaxProcs: 128") the simulator uses, else
// empty.
std::string_view used_header_key(std::string_view comment)
{
    comment.remove_prefix(1);
    auto colon = comment.find(':');
    if (colon == std::string_view::npos)
        return {};
    std::string_view key = trim(comment.substr(0, colon));
    for (std::string_view used : kUsedHeaders)
        if (key == used)
            return key;
    return {};
}

// Whether a comment cut short could have been a header the simulator uses:
// a key whole or cut ("; MaxPro"), with or without its value.
bool may_be_cut_header(std::string_view comment)
{
    comment.remove_prefix(1);
    std::string_view key = trim(comment.substr(0, comment.find(':')));
    if (key.empty())
        return false;
    for (std::string_view used : kUsedHeaders)
        if (used.substr(0, key.size()) == key)
            return true;
    return false;
}

// False (and the line reported malformed) when a header the simulator uses
// has a bad value; true for every other comment.
bool read_header(std::string_view comment, TraceReport& report, std::size_t line_no)
{
    std::string_view key = used_header_key(comment);
    if (key.empty())
        return true;
    std::string_view value = trim(comment.substr(comment.find(':') + 1));
    std::uint64_t number = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (ec != std::errc() || end != value.data() + value.size()) {
        report.malformed_line(line_no, "header " + std::string(key) + ": expected a non-negative integer, got '" +
                                           std::string(value) + "'");
        return false;
    }
    if (key == "MaxNodes")
        report.max_nodes = number;
    else if (key == "MaxProcs")
        report.max_procs = number;
    else
        report.unix_start_time = Time(number);
    return true;
}

std::string id_name(char prefix, double id) { return prefix + std::to_string(std::int64_t(id)); }

// The standard writes -1 for a value it does not know; every other value of
// these fields has a range, and the counts and ids are whole numbers.
struct FieldRule {
    Field field;
    const char* name;
    bool whole;
    double max;
    const char* expected;
};
constexpr double kMaxId = 9007199254740992.0; // 2^53: every whole number up to it is exact
constexpr FieldRule kFieldRules[] = {
    {kRunTime, "run time", false, HUGE_VAL, "seconds >= 0"},
    {kAllocProcs, "allocated processors", true, 4294967295.0, "a whole number in [0, 4294967295]"},
    {kReqProcs, "requested processors", true, 4294967295.0, "a whole number in [0, 4294967295]"},
    {kReqTime, "requested time", false, HUGE_VAL, "seconds >= 0"},
    {kStatus, "status", true, 5, "0 to 5"},
    {kUser, "user id", true, kMaxId, "a whole number in [0, 2^53]"},
    {kGroup, "group id", true, kMaxId, "a whole number in [0, 2^53]"},
    {kExecutable, "executable number", true, kMaxId, "a whole number in [0, 2^53]"},
    {kQueue, "queue number", true, kMaxId, "a whole number in [0, 2^53]"},
    {kPartition, "partition number", true, kMaxId, "a whole number in [0, 2^53]"},
};

// The fields the simulator does not read: out of range, the record is
// still replayed, and reported (a converter's bug there may be one in the
// fields it does read too).
constexpr FieldRule kUnusedFieldRules[] = {
    {kWaitTime, "wait time", false, HUGE_VAL, "seconds >= 0"},
    {kAvgCpuTime, "average CPU time", false, HUGE_VAL, "seconds >= 0"},
    {kUsedMemory, "used memory", false, HUGE_VAL, "kilobytes >= 0"},
    {kReqMemory, "requested memory", false, HUGE_VAL, "kilobytes >= 0"},
    {kPrecedingJob, "preceding job number", true, 4294967295.0, "a job number"},
    {kThinkTime, "think time", false, HUGE_VAL, "seconds >= 0"},
};

std::string broken_rule_message(const FieldRule& rule, const Tokens& text)
{
    return std::string(rule.name) + ": expected " + rule.expected + " or -1 (missing), got '" +
           std::string(text[rule.field]) + "'";
}

// The first field of `f` outside its rule in `rules`, or nullptr.
template <std::size_t N>
const FieldRule* broken_rule(const Numbers& f, const FieldRule (&rules)[N])
{
    for (const auto& rule : rules) {
        const double v = f[rule.field];
        if (v == -1)
            continue;
        if (v < 0 || v > rule.max || (rule.whole && v != std::floor(v)))
            return &rule;
    }
    return nullptr;
}

// Epoch submit times stay epoch seconds; the trace starts at the header's
// UnixStartTime (time 0 of a standard trace), else at the first record's
// submit time, and the runaway check applies to the offset from that start.
void keep_within_runaway_limit(Trace& trace, const std::vector<std::size_t>& record_lines)
{
    TraceReport& report = trace.report;
    if (trace.jobs.empty())
        return;
    const bool from_header = report.unix_start_time > 0;
    const Time start = from_header ? report.unix_start_time : trace.jobs.front().submit;
    const std::string start_text = std::to_string(std::int64_t(start)) +
                                   (from_header ? " (UnixStartTime)" : " (the first record's submit time)");
    std::size_t kept = 0;
    for (std::size_t i = 0; i < trace.jobs.size(); ++i) {
        const Seconds offset = trace.jobs[i].submit - start;
        if (offset < 0) {
            report.malformed_line(record_lines[i], "epoch submit time before the trace's start " + start_text);
            continue;
        }
        if (offset > kMaxTraceSeconds) {
            report.malformed_line(record_lines[i],
                                  "epoch submit time over 10 years after the trace's start " + start_text);
            continue;
        }
        if (kept != i)
            trace.jobs[kept] = std::move(trace.jobs[i]);
        ++kept;
    }
    trace.jobs.resize(kept);
}

} // namespace

Trace parse_swf(std::istream& in, const std::string& source, std::size_t kept_problems)
{
    Trace trace;
    TraceReport& report = trace.report;
    report.source = source;
    report.kept_limit = kept_problems;
    std::string line;
    Numbers f{};
    Tokens text;
    std::vector<std::string_view> tokens;
    std::unordered_map<JobId, std::size_t> job_lines; // job number → line it was read from
    std::vector<std::size_t> record_lines;              // line of each trace.jobs entry
    bool time_base_known = false;
    bool epoch_times = false;
    while (std::getline(in, line)) {
        const std::size_t line_no = ++report.lines;
        std::string_view view(line);
        std::size_t first = 0;
        while (first < view.size() && is_space(view[first]))
            ++first;
        if (first == view.size()) {
            ++report.comment_lines;
            continue;
        }
        const bool comment = view[first] == ';';
        // Only a header the simulator reads can be cut into a wrong value
        // or lost; any other comment ending the file unterminated loses
        // nothing.
        if (in.eof() && (!comment || may_be_cut_header(view.substr(first)))) {
            report.unterminated_line(line_no);
            continue;
        }
        if (comment) {
            if (read_header(view.substr(first), report, line_no))
                ++report.comment_lines;
            continue;
        }
        std::string_view bad;
        int n = split_numbers(view, f, text, bad, tokens);
        if (n < 0) {
            report.malformed_line(line_no, "field is not a number: " + quoted(bad));
            continue;
        }
        if (n != int(kFields)) {
            report.malformed_line(line_no, "expected 18 fields, found " + std::to_string(n) +
                                               (n < int(kFields) ? " (truncated line?)" : ""));
            continue;
        }
        if (f[kJobNumber] < 1 || f[kJobNumber] > 4294967295.0 || f[kJobNumber] != std::floor(f[kJobNumber])) {
            report.malformed_line(line_no, "job number must be a positive integer");
            continue;
        }
        if (f[kSubmit] < 0) {
            report.malformed_line(line_no, "submit time is negative");
            continue;
        }
        // A submit time beyond the runaway limit cannot be an offset from the
        // log's start, so the first record decides: the trace carries epoch
        // times (some converters write them) or standard relative ones.
        if (!time_base_known) {
            time_base_known = true;
            epoch_times = f[kSubmit] > kMaxTraceSeconds;
        }
        if (!epoch_times && f[kSubmit] > kMaxTraceSeconds) {
            report.malformed_line(line_no, "submit time over 10 years after the trace's start");
            continue;
        }
        if (const FieldRule* rule = broken_rule(f, kFieldRules)) {
            report.malformed_line(line_no, broken_rule_message(*rule, text));
            continue;
        }
        if (f[kRunTime] > kMaxTraceSeconds) {
            report.malformed_line(line_no, "run time over 10 years");
            continue;
        }
        const int status = int(f[kStatus]);
        if (status >= 2 && status <= 4) {
            report.unusable_record(line_no, "partial-execution record (status " + std::to_string(status) +
                                                "); the job's summary line is used");
            continue;
        }
        if (f[kRunTime] < 0) {
            report.unusable_record(line_no, "no run time (-1)");
            continue;
        }
        if (status == 5 && f[kRunTime] == 0) {
            report.unusable_record(line_no, "cancelled before it started");
            continue;
        }
        const double cpus = f[kAllocProcs] > 0 ? f[kAllocProcs] : f[kReqProcs];
        if (cpus < 1) {
            report.unusable_record(line_no, "neither allocated nor requested processors");
            continue;
        }
        const JobId id = JobId(f[kJobNumber]);
        if (auto [first, inserted] = job_lines.emplace(id, line_no); !inserted) {
            report.malformed_line(line_no, "job number " + std::to_string(id) + " already used on line " +
                                               std::to_string(first->second));
            continue;
        }
        if (const FieldRule* rule = broken_rule(f, kUnusedFieldRules))
            report.doubtful_record(line_no, broken_rule_message(*rule, text));
        TraceJob job;
        job.id = id;
        job.submit = f[kSubmit];
        job.runtime = f[kRunTime];
        job.time_limit = f[kReqTime] > 0 ? f[kReqTime] : 0;
        job.cpus = std::uint32_t(cpus);
        job.user = f[kUser] >= 0 ? id_name('u', f[kUser]) : "unknown";
        job.account = f[kGroup] >= 0 ? id_name('g', f[kGroup]) : job.user;
        job.partition = f[kPartition] >= 0 ? id_name('p', f[kPartition]) : "";
        job.name = f[kExecutable] >= 0 ? id_name('x', f[kExecutable])
                                       : (f[kQueue] >= 0 ? id_name('q', f[kQueue]) : (f[kPartition] >= 0 ? id_name('p', f[kPartition]) : "job"));
        job.category = job.account + "/" + job.name;
        trace.jobs.push_back(std::move(job));
        record_lines.push_back(line_no);
    }
    // Applied after reading so that a header line anywhere still counts.
    if (epoch_times)
        keep_within_runaway_limit(trace, record_lines);
    else
        for (auto& job : trace.jobs)
            job.submit += report.unix_start_time;
    report.jobs = trace.jobs.size();
    return trace;
}

} // namespace burst
