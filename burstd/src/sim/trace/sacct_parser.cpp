#include "sim/trace/sacct_parser.hpp"

#include "common/text.hpp"
#include "model/slurm_duration.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <ctime>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace burst {
namespace {

enum Column {
    kId, kAccount, kUser, kSubmit, kStart, kEnd, kAllocCpus, kReqCpus, kTimelimit, kState,
    kName, kPartition, kEligible, kColumns
};
constexpr std::array<const char*, kColumns> kColumnNames = {
    "JobIDRaw", "Account", "User", "Submit", "Start", "End", "AllocCPUS",
    "ReqCPUS", "Timelimit", "State", "JobName", "Partition", "Eligible"};
constexpr int kRequiredColumns = kName; // every column before JobName

template <class T>
bool parse_number(std::string_view text, T& out)
{
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

unsigned days_in_month(unsigned year, unsigned month)
{
    constexpr unsigned kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : kDays[month - 1];
}

// The names sacct prints in its State column (sacct(1), JOB STATE CODES):
// slurmdbd keeps a job's base state, or REQUEUED, RESIZING or REVOKED.
bool is_job_state(std::string_view state)
{
    constexpr std::string_view kStates[] = {
        "BOOT_FAIL", "CANCELLED", "COMPLETED", "DEADLINE", "FAILED",   "NODE_FAIL", "OUT_OF_MEMORY", "PENDING",
        "PREEMPTED", "RUNNING",   "REQUEUED",  "RESIZING", "REVOKED", "SUSPENDED", "TIMEOUT"};
    if (std::find(std::begin(kStates), std::end(kStates), state) != std::end(kStates))
        return true;
    // "CANCELLED by 1000": sacct names the uid that cancelled the job.
    constexpr std::string_view kCancelledBy = "CANCELLED by ";
    std::uint32_t uid = 0;
    return state.substr(0, kCancelledBy.size()) == kCancelledBy &&
           parse_number(state.substr(kCancelledBy.size()), uid);
}

} // namespace

bool parse_slurm_timestamp(const std::string& text, Time& out, RepeatedHour reading)
{
    // Fixed layout: 0123-56-89T12:45:78
    if (text.size() != 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
        text[16] != ':')
        return false;
    std::string_view v(text);
    unsigned y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
    if (!parse_number(v.substr(0, 4), y) || !parse_number(v.substr(5, 2), mo) || !parse_number(v.substr(8, 2), d) ||
        !parse_number(v.substr(11, 2), h) || !parse_number(v.substr(14, 2), mi) || !parse_number(v.substr(17, 2), s))
        return false;
    // mktime would quietly roll 2024-02-31 over into March.
    if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || s > 60)
        return false;
    // Slurm prints local time (localtime_r in parse_time.c): read it back in
    // the zone TZ names, so runtimes across a DST change come out right.
    // glibc's mktime with tm_isdst = -1 resolves the hour repeated when DST
    // ends by its previous call, so both readings are tried and the caller
    // picks one: a reading counts when the instant it gives has that DST flag.
    auto instant = [&](int isdst, std::time_t& result) {
        std::tm tm{};
        tm.tm_year = int(y) - 1900;
        tm.tm_mon = int(mo) - 1;
        tm.tm_mday = int(d);
        tm.tm_hour = int(h);
        tm.tm_min = int(mi);
        tm.tm_sec = int(s);
        tm.tm_isdst = isdst;
        result = std::mktime(&tm);
        if (result == std::time_t(-1))
            return false;
        std::tm back{};
        return isdst < 0 || (localtime_r(&result, &back) && (back.tm_isdst > 0) == (isdst > 0));
    };
    std::time_t standard = 0, daylight = 0;
    const bool as_standard = instant(0, standard), as_daylight = instant(1, daylight);
    if (as_standard && as_daylight)
        out = Time(reading == RepeatedHour::kEarlier ? std::min(standard, daylight) : std::max(standard, daylight));
    else if (as_standard || as_daylight)
        out = Time(as_standard ? standard : daylight);
    else if (std::time_t any = 0; instant(-1, any)) // a time the DST start skipped, or a zone's odd rule
        out = Time(any);
    else
        return false;
    return true;
}


Trace parse_sacct(std::istream& in, const std::string& source, std::size_t kept_problems)
{
    Trace trace;
    TraceReport& report = trace.report;
    report.source = source;
    report.kept_limit = kept_problems;
    std::string line;
    std::array<int, kColumns> where;
    where.fill(-1);
    std::size_t columns = 0;
    bool have_header = false;
    // `--parsable` (not parsable2) ends every line, the header included, with
    // a '|'; decided once from the header, since a record's last field may
    // legitimately be empty (a job step's Partition).
    bool trailing_bar = false;
    std::unordered_map<JobId, std::size_t> job_lines; // JobIDRaw → line it was read from
    while (std::getline(in, line)) {
        const std::size_t line_no = ++report.lines;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) {
            ++report.comment_lines;
            continue;
        }
        if (in.eof()) {
            report.unterminated_line(line_no);
            continue;
        }
        auto fields = split(line, '|');
        if (!have_header)
            trailing_bar = fields.size() > 1 && fields.back().empty();
        if (trailing_bar && fields.size() > 1 && fields.back().empty())
            fields.pop_back();
        if (!have_header) {
            for (std::size_t i = 0; i < fields.size(); ++i)
                for (int c = 0; c < kColumns; ++c)
                    if (fields[i] == kColumnNames[std::size_t(c)])
                        where[std::size_t(c)] = int(i);
            std::string missing;
            for (int c = 0; c < kRequiredColumns; ++c)
                if (where[std::size_t(c)] < 0)
                    missing += std::string(missing.empty() ? "" : ",") + kColumnNames[std::size_t(c)];
            if (!missing.empty()) {
                // Without the header no record can be read: one error says
                // so, rather than the same problem once per line.
                std::size_t unread = 0;
                while (std::getline(in, line))
                    ++unread;
                throw TraceError(source + ":" + std::to_string(line_no) + ": sacct header lacks required column(s) " +
                                 missing +
                                 " (sacct -P --format=JobIDRaw,Account,User,Submit,Eligible,Start,End,AllocCPUS,ReqCPUS,"
                                 "Timelimit,State,JobName,Partition prints one); " +
                                 (unread == 1 ? std::string("the line") : "the " + std::to_string(unread) + " lines") +
                                 " after it not read");
            }
            ++report.comment_lines;
            columns = fields.size();
            have_header = true;
            continue;
        }
        if (fields.size() != columns) {
            report.malformed_line(line_no, "expected " + std::to_string(columns) + " '|'-separated fields, found " +
                                               std::to_string(fields.size()));
            continue;
        }
        auto field = [&](Column c) -> std::string {
            return where[c] < 0 ? std::string() : std::string(fields[std::size_t(where[c])]);
        };
        // A job's id, or a step's: the job's id, '.', the step's name.
        const std::string id = field(kId);
        const auto dot = id.find('.');
        std::uint32_t numeric_id = 0;
        if (!parse_number(std::string_view(id).substr(0, dot), numeric_id) || numeric_id == 0 ||
            dot + 1 == id.size()) {
            report.malformed_line(line_no, "JobIDRaw: expected a positive integer or a step of one, got '" + id + "'");
            continue;
        }
        if (dot != std::string::npos) {
            ++report.skipped_steps;
            continue;
        }
        const std::string state = field(kState);
        if (!is_job_state(state)) {
            report.malformed_line(line_no, "State: '" + state + "' is not a Slurm job state");
            continue;
        }
        if (state == "PENDING" || state == "RUNNING" || state == "REQUEUED" || state == "SUSPENDED") {
            report.unusable_record(line_no, "job " + id + " was still " + state + " when sacct ran");
            continue;
        }
        Time submit = 0, start = 0, end = 0;
        if (!parse_slurm_timestamp(field(kSubmit), submit)) {
            report.malformed_line(line_no, "Submit: expected YYYY-MM-DDTHH:MM:SS, got '" + field(kSubmit) + "'");
            continue;
        }
        const std::string start_text = field(kStart), end_text = field(kEnd);
        if (start_text == "Unknown" || start_text == "None") {
            report.unusable_record(line_no, "job " + id + " (" + state + ") never ran");
            continue;
        }
        if (end_text == "Unknown") {
            report.unusable_record(line_no, "job " + id + " (" + state + ") had not ended when sacct ran");
            continue;
        }
        if (!parse_slurm_timestamp(start_text, start) || !parse_slurm_timestamp(end_text, end)) {
            report.malformed_line(line_no, "Start/End: expected YYYY-MM-DDTHH:MM:SS, got '" + start_text + "'/'" +
                                               end_text + "'");
            continue;
        }
        // A time in the repeated hour names two instants: the earlier one
        // unless that puts the job's times out of order.
        if (start < submit)
            parse_slurm_timestamp(start_text, start, RepeatedHour::kLater);
        if (end < start)
            parse_slurm_timestamp(end_text, end, RepeatedHour::kLater);
        if (start < submit || end < start) {
            report.malformed_line(line_no, "times out of order (Submit <= Start <= End expected)");
            continue;
        }
        // A job held back (a dependency, --begin, a hold) is held in the
        // replay until it became eligible: its wait counts from there, as
        // Slurm's, it is no demand before, and it keeps its submission's
        // place.  Unknown/None: eligible at submit.
        Time arrival = submit;
        if (const std::string text = field(kEligible); !text.empty() && text != "Unknown" && text != "None") {
            if (!parse_slurm_timestamp(text, arrival)) {
                report.malformed_line(line_no, "Eligible: expected YYYY-MM-DDTHH:MM:SS, got '" + text + "'");
                continue;
            }
            if (arrival < submit)
                parse_slurm_timestamp(text, arrival, RepeatedHour::kLater);
            if (arrival < submit || arrival > start) {
                report.malformed_line(line_no, "times out of order (Submit <= Eligible <= Start expected)");
                continue;
            }
        }
        if (end - start > kMaxTraceSeconds) {
            report.malformed_line(line_no, "job ran over 10 years (Start to End)");
            continue;
        }
        std::uint32_t alloc = 0, req = 0;
        if (!parse_number(std::string_view(fields[std::size_t(where[kAllocCpus])]), alloc) ||
            !parse_number(std::string_view(fields[std::size_t(where[kReqCpus])]), req)) {
            report.malformed_line(line_no, "AllocCPUS/ReqCPUS: expected non-negative integers");
            continue;
        }
        // Slurm cancels a pending job with Start = End = the cancel time
        // (job_mgr.c) and no allocation: it never ran, whatever the times say.
        if (alloc == 0 && (state.rfind("CANCELLED", 0) == 0 || start == end)) {
            report.unusable_record(line_no, "job " + id + " (" + state +
                                                ") never ran: no CPUs allocated" +
                                                (start == end ? " and Start = End" : ""));
            continue;
        }
        if (alloc == 0 && req == 0) {
            report.unusable_record(line_no, "job " + id + " has neither AllocCPUS nor ReqCPUS");
            continue;
        }
        Seconds limit = 0;
        if (!parse_slurm_duration(field(kTimelimit), limit)) {
            report.malformed_line(line_no, "Timelimit: expected [D-]H:M:S, M, M:S, D-H (at most 2982616-04:13:00) "
                                           "or UNLIMITED, got '" + field(kTimelimit) + "'");
            continue;
        }
        if (auto [first, inserted] = job_lines.emplace(numeric_id, line_no); !inserted) {
            report.malformed_line(line_no, "JobIDRaw " + id + " already used on line " + std::to_string(first->second));
            continue;
        }
        TraceJob job;
        job.id = numeric_id;
        job.submit = submit;
        if (arrival > submit)
            job.eligible = arrival;
        job.runtime = end - start;
        job.time_limit = limit;
        job.cpus = alloc ? alloc : req;
        // An empty user would read as an account row in the shares snapshot.
        job.user = field(kUser).empty() ? "unknown" : field(kUser);
        job.account = field(kAccount).empty() ? job.user : field(kAccount);
        job.partition = field(kPartition);
        job.name = field(kName);
        job.category = job.name.empty() ? job.account : job.account + "/" + job.name;
        trace.jobs.push_back(std::move(job));
    }
    // Blank lines only (a header without its newline is reported already).
    if (!have_header && report.lines > 0 && report.malformed == 0)
        report.malformed_line(report.lines, "no sacct header line found");
    report.jobs = trace.jobs.size();
    return trace;
}

} // namespace burst
