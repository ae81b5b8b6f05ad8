#include "app/control/job_explanation.hpp"

#include "common/json_fields.hpp"
#include "common/json_ref.hpp"
#include "model/hostlist.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>

namespace burst {
namespace {

const char* state_name(JobState s)
{
    switch (s) {
    case JobState::Pending: return "PENDING";
    case JobState::Running: return "RUNNING";
    case JobState::Suspended: return "SUSPENDED";
    case JobState::Completing: return "COMPLETING";
    }
    return "UNKNOWN";
}

const char* burst_name(BurstOption b)
{
    switch (b) {
    case BurstOption::Never: return "never";
    case BurstOption::Prefer: return "prefer";
    default: return "allow";
    }
}

// NaN: the link did not work it out (left out); infinite: beyond anything
// the forecast played, e.g. a local start it does not foresee (null).
void set_number(json_t* o, const char* key, double v)
{
    if (std::isfinite(v))
        json_object_set_new(o, key, json_real(v));
    else if (std::isinf(v))
        json_object_set_new(o, key, json_null());
}

double number(json_t* v) { return json_is_null(v) ? std::numeric_limits<double>::infinity() : json_real_value(v); }

std::string money(double v)
{
    if (std::isinf(v))
        return "unbounded";
    std::ostringstream s;
    // Small sums keep two significant digits: a short burst costs 0.0017.
    if (v != 0 && std::fabs(v) < 0.1)
        s << std::setprecision(2) << v;
    else
        s << std::fixed << std::setprecision(2) << v;
    return s.str();
}

std::string duration(double seconds)
{
    const long s = std::lround(std::max(0.0, seconds));
    if (s < 120)
        return std::to_string(s) + " s";
    if (s < 7200)
        return std::to_string(s / 60) + " min";
    std::ostringstream h;
    h << std::fixed << std::setprecision(1) << double(s) / 3600 << " h";
    return h.str();
}

bool mentions_job(const Action& action, JobId id)
{
    if (const auto* r = std::get_if<RouteToCloud>(&action.what))
        return r->job == id;
    if (const auto* u = std::get_if<UnrouteJob>(&action.what))
        return u->job == id;
    if (const auto* t = std::get_if<SetJobThreads>(&action.what))
        return t->job == id;
    return false;
}

// The groups whose partition the job may run in.
std::vector<const NodeGroup*> routed_groups(const Job& job, const std::vector<NodeGroup>& groups)
{
    std::vector<const NodeGroup*> out;
    for (const auto& g : groups)
        if (job.may_run_in(group_partition(g)))
            out.push_back(&g);
    return out;
}

const NodeGroup* group_of_nodes(const std::vector<std::string>& nodes, const std::vector<NodeGroup>& groups)
{
    for (const auto& g : groups)
        for (const auto& n : nodes)
            if (std::find(g.nodes.begin(), g.nodes.end(), n) != g.nodes.end())
                return &g;
    return nullptr;
}

std::string summary(const Job& job, const ExplanationInput& in, json_t* links)
{
    const auto& groups = *in.groups;
    if (job.running()) {
        const NodeGroup* g = group_of_nodes(job.nodes, groups);
        return std::string("running on ") + compress_hostlist(job.nodes) +
               (g ? " (cloud node group " + g->name + ")" : " (local nodes)");
    }
    if (job.burst == BurstOption::Never)
        return "tagged --burst=never: it runs on local nodes only";
    if (job.blocked())
        return "waiting for " + job.reason.text() + ", which no node settles: no policy bursts it until then";
    const auto routed = routed_groups(job, groups);
    // A link's verdict or action about the job, last link first: the one
    // that acted last has the last word.
    for (std::size_t i = json_array_size(links); i-- > 0;) {
        json_t* link = json_array_get(links, i);
        const std::string policy = string_field(link, "policy");
        json_t* actions = json_object_get(link, "actions");
        for (std::size_t k = 0; k < json_array_size(actions); ++k) {
            json_t* a = json_array_get(actions, k);
            if (string_field(a, "error").empty())
                return policy + ": " + string_field(a, "action") + ": " + string_field(a, "reason");
        }
        json_t* v = json_object_get(link, "verdict");
        if (!v)
            continue;
        std::string text = policy + ": " + string_field(v, "why");
        if (json_t* q = json_object_get(v, "local_start_in"))
            text += json_is_null(q) ? "; no local start foreseen" : "; expected local start in " + duration(json_real_value(q));
        json_t* wait = json_object_get(v, "waiting_cost");
        json_t* cost = json_object_get(v, "cloud_cost");
        if (wait && cost)
            text += "; waiting costs " + money(number(wait)) + ", the cloud " +
                    money(number(cost)) + " in " + string_field(v, "group");
        if (json_is_true(json_object_get(v, "burst")))
            text += "; its route did not go ahead (the budget cap, or Slurm said no: see the notes)";
        return text;
    }
    if (!routed.empty())
        return "may run in cloud node group " + routed.front()->name + " when Slurm schedules it there";
    return "no policy of the chain (" + std::to_string(in.chain.size()) +
           ") routed it to the cloud in the last cycle; see each link's notes";
}

} // namespace

std::string explain_job(JobId id, const ExplanationInput& in, json_t* out)
{
    if (!in.snapshot || !in.outcome || !in.groups)
        return "explain: burstd has not decided yet (no snapshot from the plugin so far)";
    const Job* job = nullptr;
    for (const auto& j : in.snapshot->jobs)
        if (j.id == id)
            job = &j;
    if (!job)
        return "explain: job " + std::to_string(id) +
               " is not in burstd's last snapshot (it ended, or is not exported yet)";
    json_object_set_new(out, "job", json_integer(json_int_t(id)));
    json_object_set_new(out, "state", json_string(state_name(job->state)));
    if (job->pending())
        json_object_set_new(out, "reason", json_string(job->reason.text().c_str()));
    json_object_set_new(out, "user", json_string(job->user.c_str()));
    json_object_set_new(out, "account", json_string(job->account.c_str()));
    json_object_set_new(out, "cpus", json_integer(json_int_t(job->total_cpus())));
    json_object_set_new(out, "burst", json_string(burst_name(job->burst)));
    JsonRef partitions(json_array());
    for (const auto& p : job->partitions)
        json_array_append_new(partitions.get(), json_string(p.c_str()));
    json_object_set(out, "partitions", partitions.get());
    json_object_set_new(out, "decided_at", json_real(in.outcome->time));
    json_object_set_new(out, "snapshot_time", json_real(in.snapshot->time));

    JsonRef links(json_array());
    for (const auto& policy : in.chain) {
        JsonRef link(json_object());
        json_object_set_new(link.get(), "policy", json_string(policy.c_str()));
        for (const auto& v : in.outcome->verdicts)
            if (v.policy == policy && v.verdict.job == id) {
                JsonRef verdict(json_object());
                json_object_set_new(verdict.get(), "burst", json_boolean(v.verdict.burst));
                json_object_set_new(verdict.get(), "group", json_string(v.verdict.group.c_str()));
                json_object_set_new(verdict.get(), "why", json_stringn(v.verdict.why.data(), v.verdict.why.size()));
                set_number(verdict.get(), "local_start_in", v.verdict.local_start);
                set_number(verdict.get(), "cloud_cost", v.verdict.cloud_cost);
                set_number(verdict.get(), "waiting_cost", v.verdict.waiting_cost);
                json_object_set(link.get(), "verdict", verdict.get());
            }
        JsonRef actions(json_array());
        for (const auto& a : in.outcome->actions)
            if (a.policy == policy && mentions_job(a.action, id))
                json_array_append_new(actions.get(),
                                      json_pack("{s:s, s:s, s:s}", "action", action_text(a.action).c_str(), "reason",
                                                a.action.reason.c_str(), "error", a.error.c_str()));
        json_object_set(link.get(), "actions", actions.get());
        JsonRef notes(json_array());
        for (const auto& n : in.outcome->notes)
            if (n.policy == policy)
                json_array_append_new(notes.get(), json_string(((n.budget ? "budget: " : "") + n.text).c_str()));
        json_object_set(link.get(), "notes", notes.get());
        json_array_append(links.get(), link.get());
    }
    json_object_set(out, "links", links.get());
    if (in.scaling && !job->category.empty()) {
        const ScalingFit f = in.scaling->fit(job->category);
        JsonRef threads(json_object());
        json_object_set_new(threads.get(), "category", json_string(job->category.text().c_str()));
        json_object_set_new(threads.get(), "runs", json_real(f.runs));
        json_object_set_new(threads.get(), "thread_counts", json_integer(json_int_t(f.thread_counts)));
        json_object_set_new(threads.get(), "known", json_boolean(f.known));
        json_object_set_new(threads.get(), "asked",
                            json_string(job->threads.automatic ? "auto"
                                        : job->threads.count   ? std::to_string(job->threads.count).c_str()
                                                               : ""));
        json_object_set_new(threads.get(), "cpus_per_task", json_integer(job->cpus_per_task));
        if (job->size > 0)
            json_object_set_new(threads.get(), "size", json_real(job->size));
        if (f.runs > 0 && std::isfinite(f.c_error)) {
            json_object_set_new(threads.get(), "c", json_real(f.c));
            json_object_set_new(threads.get(), "c_error", json_real(f.c_error));
            json_object_set_new(threads.get(), "single_threaded", json_real(single_threaded_time(f, job->size)));
        }
        // What each count of ThreadPolicy='s counts would take on local cores, by the fit.
        if (f.known && in.threads) {
            JsonRef expected(json_object());
            for (std::uint32_t t : in.threads->settings().counts)
                json_object_set_new(expected.get(), std::to_string(t).c_str(),
                                    json_real(single_threaded_time(f, job->size) * (f.c / t + 1 - f.c)));
            json_object_set(threads.get(), "expected", expected.get());
        }
        for (const auto& a : in.outcome->actions)
            if (std::holds_alternative<SetJobThreads>(a.action.what) && mentions_job(a.action, id))
                json_object_set_new(threads.get(), "decision",
                                    json_pack("{s:s, s:s, s:s, s:s}", "policy", a.policy.c_str(), "action",
                                              action_text(a.action).c_str(), "reason", a.action.reason.c_str(),
                                              "error", a.error.c_str()));
        json_object_set(out, "threads", threads.get());
    }
    for (const auto& a : in.outcome->actions) // the cycle's own unroutes
        if (a.policy == DecisionCycle::kCycleLink && mentions_job(a.action, id))
            json_object_set_new(out, "unrouted", json_string(a.action.reason.c_str()));

    const BudgetStanding* standing = nullptr;
    for (const auto& b : *in.budgets)
        if (b.account == job->account)
            standing = &b;
    if (standing) {
        std::ostringstream line;
        line << "Budget=" << standing->limit.account << " Amount=" << standing->limit.amount
             << " Interval=" << standing->limit.interval << "s";
        json_object_set_new(out, "budget",
                            json_pack("{s:s, s:f, s:f, s:f, s:f}", "line", line.str().c_str(), "amount",
                                      standing->limit.amount, "spent", standing->spent, "committed",
                                      standing->committed,
                                      "left", standing->limit.amount - standing->spent - standing->committed));
    }

    JsonRef groups(json_array());
    const auto routed = routed_groups(*job, *in.groups);
    for (const auto& g : *in.groups) {
        std::uint32_t up = 0, booting = 0, down = 0, free_cpus = 0;
        for (const auto& n : in.snapshot->nodes) {
            if (std::find(g.nodes.begin(), g.nodes.end(), n.name) == g.nodes.end())
                continue;
            if (n.has(kNodePoweringUp))
                ++booting;
            else if (n.has(kNodePoweredDown))
                ++down;
            else if (n.usable()) {
                ++up;
                free_cpus += n.free_cpus();
            }
        }
        json_t* o = json_pack("{s:s, s:b, s:i, s:i, s:i, s:i}", "group", g.name.c_str(), "routed",
                              int(std::find(routed.begin(), routed.end(), &g) != routed.end()), "up", int(up),
                              "booting", int(booting), "powered_down", int(down), "free_cpus", int(free_cpus));
        auto h = in.health.find(g.name);
        json_object_set_new(o, "health", json_string(h == in.health.end() ? "hiring" : h->second.mode.c_str()));
        if (h != in.health.end() && !h->second.reason.empty())
            json_object_set_new(o, "health_reason", json_string(h->second.reason.c_str()));
        if (auto l = in.hire_limits.find(g.name); l != in.hire_limits.end())
            json_object_set_new(o, "hire_limit", json_integer(l->second));
        json_array_append_new(groups.get(), o);
    }
    json_object_set(out, "groups", groups.get());
    json_object_set_new(out, "summary", json_string(summary(*job, in, links.get()).c_str()));
    return "";
}

void write_explanation_text(std::ostream& out, json_t* e)
{
    out << "job " << json_integer_value(json_object_get(e, "job")) << " (" << string_field(e, "user") << ", account "
        << string_field(e, "account") << "): " << string_field(e, "state");
    if (!string_field(e, "reason").empty())
        out << " (" << string_field(e, "reason") << ")";
    out << ", " << json_integer_value(json_object_get(e, "cpus")) << " cpus, --burst=" << string_field(e, "burst")
        << ", partitions ";
    json_t* parts = json_object_get(e, "partitions");
    for (std::size_t i = 0; i < json_array_size(parts); ++i)
        out << (i ? "," : "") << json_string_value(json_array_get(parts, i));
    out << "\n  " << string_field(e, "summary") << "\n";
    if (!string_field(e, "unrouted").empty())
        out << "  unrouted: " << string_field(e, "unrouted") << "\n";
    json_t* links = json_object_get(e, "links");
    for (std::size_t i = 0; i < json_array_size(links); ++i) {
        json_t* link = json_array_get(links, i);
        out << "  " << string_field(link, "policy") << ":";
        bool said = false;
        if (json_t* v = json_object_get(link, "verdict")) {
            out << " " << string_field(v, "why");
            if (json_t* q = json_object_get(v, "local_start_in"))
                out << (json_is_null(q) ? "; no local start foreseen" : "; local start in " + duration(json_real_value(q)));
            if (json_t* w = json_object_get(v, "waiting_cost"))
                out << "; waiting " << money(number(w));
            if (json_t* c = json_object_get(v, "cloud_cost"))
                out << "; cloud " << money(number(c)) << " (" << string_field(v, "group") << ")";
            said = true;
        }
        json_t* actions = json_object_get(link, "actions");
        for (std::size_t k = 0; k < json_array_size(actions); ++k) {
            json_t* a = json_array_get(actions, k);
            out << (said ? "\n    " : " ") << string_field(a, "action") << ": " << string_field(a, "reason");
            if (!string_field(a, "error").empty())
                out << " (failed: " << string_field(a, "error") << ")";
            said = true;
        }
        json_t* notes = json_object_get(link, "notes");
        for (std::size_t k = 0; k < json_array_size(notes); ++k) {
            out << (said ? "\n    " : " ") << json_string_value(json_array_get(notes, k));
            said = true;
        }
        if (!said)
            out << " nothing about this job";
        out << "\n";
    }
    if (json_t* t = json_object_get(e, "threads")) {
        out << "  threads: category " << string_field(t, "category") << ": ";
        std::ostringstream runs;
        runs << std::setprecision(3) << json_real_value(json_object_get(t, "runs"));
        if (json_t* c = json_object_get(t, "c")) {
            std::ostringstream fit;
            fit << std::fixed << std::setprecision(2) << json_real_value(c) << " +- "
                << json_real_value(json_object_get(t, "c_error"));
            out << "scalable share " << fit.str() << ", "
                << duration(json_real_value(json_object_get(t, "single_threaded"))) << " single-threaded, ";
        }
        out << "from " << runs.str() << " completed runs at " << json_integer_value(json_object_get(t, "thread_counts"))
            << " thread count(s)" << (json_is_true(json_object_get(t, "known")) ? " (known)" : " (not known yet)")
            << "\n";
        const std::string asked = string_field(t, "asked");
        out << "    asked " << (asked.empty() ? "nothing" : asked) << ", has "
            << json_integer_value(json_object_get(t, "cpus_per_task")) << " CPU(s) per task";
        if (json_t* size = json_object_get(t, "size"))
            out << ", size " << json_real_value(size);
        out << "\n";
        if (json_t* expected = json_object_get(t, "expected")) {
            out << "    expected run time by CPUs per task:";
            const char* count;
            json_t* seconds;
            const char* separator = " ";
            json_object_foreach(expected, count, seconds) {
                out << separator << count << ": " << duration(json_real_value(seconds));
                separator = ", ";
            }
            out << "\n";
        }
        if (json_t* d = json_object_get(t, "decision")) {
            out << "    " << string_field(d, "policy") << ": " << string_field(d, "action") << ": "
                << string_field(d, "reason");
            if (!string_field(d, "error").empty())
                out << " -- FAILED: " << string_field(d, "error");
            out << "\n";
        }
    }
    if (json_t* b = json_object_get(e, "budget"))
        out << "  budget: " << string_field(b, "line") << ": spent " << money(json_real_value(json_object_get(b, "spent")))
            << ", committed " << money(json_real_value(json_object_get(b, "committed"))) << ", left "
            << money(json_real_value(json_object_get(b, "left"))) << "\n";
    json_t* groups = json_object_get(e, "groups");
    for (std::size_t i = 0; i < json_array_size(groups); ++i) {
        json_t* g = json_array_get(groups, i);
        out << "  group " << string_field(g, "group") << ": " << string_field(g, "health");
        if (!string_field(g, "health_reason").empty())
            out << " (" << string_field(g, "health_reason") << ")";
        out << "; " << json_integer_value(json_object_get(g, "up")) << " up, "
            << json_integer_value(json_object_get(g, "booting")) << " booting, "
            << json_integer_value(json_object_get(g, "powered_down")) << " powered down, "
            << json_integer_value(json_object_get(g, "free_cpus")) << " cpus free"
            << (json_is_true(json_object_get(g, "routed")) ? "; the job may run here" : "") << "\n";
    }
}

} // namespace burst
