#include "sim/burstsim_cli.hpp"

#include "policy/policy_factory.hpp"
#include "sim/group_spec.hpp"
#include "sim/sim_metrics.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_loader.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace burst {
namespace {

class UsageError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

const char* const kUsage =
    "usage: burstsim --trace FILE [--format swf|sacct|auto] [--local-cores N]\n"
    "                [--local-node-cores N] [--group 'name,cpus=N,price=P,boot=S,max=N'...]\n"
    "                (--policy NAME | --compare NAME,NAME,...) [--param [policy:]key=value...]\n"
    "                [--seed N] [--lambda X] [--cycle S] [--suspend-time S] [--boot-jitter F]\n"
    "                [--bf-max-job-test N] [--tau S]\n";

double parse_double(const std::string& option, const std::string& value, double min)
{
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || errno != 0 || !std::isfinite(v) || v < min)
        throw UsageError(option + " '" + value + "': expected a number >= " + std::to_string(min));
    return v;
}

std::uint64_t parse_uint(const std::string& option, const std::string& value, std::uint64_t min, std::uint64_t max)
{
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(value.c_str(), &end, 10);
    if (value.empty() || value[0] == '-' || *end != '\0' || errno != 0 || v < min || v > max)
        throw UsageError(option + " '" + value + "': expected an integer in [" + std::to_string(min) + ", " +
                         std::to_string(max) + "]");
    return v;
}

std::vector<std::string> split_commas(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, ','))
        if (!part.empty())
            out.push_back(part);
    return out;
}

struct Options {
    std::string trace;
    std::string format = "auto";
    std::uint32_t local_cores = 0;
    SimConfig config;
    std::vector<std::string> policies;
    bool compare = false;
    std::vector<std::string> params;
    double lambda = 1.0;
    double tau = 10;
};

Options parse(const std::vector<std::string>& args)
{
    Options o;
    bool have_policy = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size())
                throw UsageError(a + " needs a value");
            return args[++i];
        };
        if (a == "--trace")
            o.trace = value();
        else if (a == "--format")
            o.format = value();
        else if (a == "--local-cores")
            o.local_cores = std::uint32_t(parse_uint(a, value(), 1, 100000000));
        else if (a == "--local-node-cores")
            o.config.local_node_cores = std::uint32_t(parse_uint(a, value(), 1, 1000000));
        else if (a == "--group") {
            try {
                o.config.groups.push_back(parse_group_spec(value()));
            } catch (const GroupSpecError& e) {
                throw UsageError(std::string("--group: ") + e.what());
            }
        } else if (a == "--policy") {
            if (have_policy)
                throw UsageError("give one of --policy or --compare, once");
            o.policies = {value()};
            have_policy = true;
        } else if (a == "--compare") {
            if (have_policy)
                throw UsageError("give one of --policy or --compare, once");
            o.policies = split_commas(value());
            o.compare = have_policy = true;
            if (o.policies.empty())
                throw UsageError("--compare needs at least one policy name");
        } else if (a == "--param")
            o.params.push_back(value());
        else if (a == "--seed")
            o.config.seed = parse_uint(a, value(), 0, UINT64_MAX);
        else if (a == "--lambda")
            o.lambda = parse_double(a, value(), 0);
        else if (a == "--cycle")
            o.config.cycle = parse_double(a, value(), 1);
        else if (a == "--suspend-time")
            o.config.suspend_time = parse_double(a, value(), 0);
        else if (a == "--boot-jitter") {
            o.config.boot_jitter = parse_double(a, value(), 0);
            if (o.config.boot_jitter >= 1)
                throw UsageError("--boot-jitter must be below 1");
        } else if (a == "--bf-max-job-test")
            o.config.bf_max_job_test = std::uint32_t(parse_uint(a, value(), 1, 100000000));
        else if (a == "--tau")
            o.tau = parse_double(a, value(), 0.001);
        else
            throw UsageError("unknown argument '" + a + "'");
    }
    if (o.trace.empty())
        throw UsageError("--trace FILE is required");
    if (!have_policy)
        o.policies = {"never"};
    return o;
}

// "key=value" goes to every policy run, "policy:key=value" to that one only.
PolicyParams params_for(const std::string& policy, const std::vector<std::string>& given)
{
    PolicyParams params;
    for (const auto& p : given) {
        auto colon = p.find(':');
        auto eq = p.find('=');
        if (colon != std::string::npos && (eq == std::string::npos || colon < eq)) {
            if (p.compare(0, colon, policy) == 0 && colon == policy.size())
                params.set(p.substr(colon + 1));
        } else {
            params.set(p);
        }
    }
    return params;
}

std::string hours(double seconds)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(2) << seconds / 3600 << "h";
    return s.str();
}

} // namespace

int burstsim_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    Options o;
    std::vector<std::unique_ptr<Policy>> policies;
    try {
        o = parse(args);
        for (const auto& name : o.policies)
            policies.push_back(make_policy(name, params_for(name, o.params)));
    } catch (const std::invalid_argument& e) {
        err << "burstsim: " << e.what() << "\n" << kUsage;
        return 2;
    } catch (const PolicyConfigError& e) {
        err << "burstsim: " << e.what() << "\n";
        return 2;
    }
    Trace trace;
    try {
        trace = load_trace(o.trace, o.format);
    } catch (const TraceError& e) {
        err << "burstsim: " << e.what() << "\n";
        return 1;
    }
    err << trace.report.summary() << "\n";
    o.config.local_cores = o.local_cores ? o.local_cores : std::uint32_t(trace.report.max_procs);
    if (o.config.local_cores == 0) {
        err << "burstsim: " << o.trace << " states no MaxProcs; give --local-cores\n";
        return 2;
    }

    out << std::left << std::setw(12) << "policy" << std::right << std::setw(8) << "jobs" << std::setw(8) << "cloud"
        << std::setw(12) << "cost" << std::setw(11) << "mean_wait" << std::setw(11) << "p95_wait" << std::setw(9)
        << "bsld" << std::setw(11) << "makespan" << std::setw(14) << "J" << "\n";
    for (auto& policy : policies) {
        SimResult result;
        try {
            result = simulate(o.config, trace.jobs, *policy);
        } catch (const SimConfigError& e) {
            err << "burstsim: " << e.what() << "\n";
            return 1;
        }
        const SimMetrics m = compute_metrics(result, o.lambda, o.tau);
        out << std::left << std::setw(12) << policy->name() << std::right << std::setw(8) << m.jobs << std::setw(8)
            << m.cloud_jobs << std::setw(12) << std::fixed << std::setprecision(2) << m.cloud_cost << std::setw(11)
            << hours(m.mean_wait) << std::setw(11) << hours(m.p95_wait) << std::setw(9) << m.mean_bounded_slowdown
            << std::setw(11) << hours(m.makespan) << std::setw(14) << m.objective << "\n";
        if (!o.compare) {
            out << "\nlambda " << o.lambda << " per waiting core-hour; waiting core-hours " << m.waiting_core_hours
                << "; median wait " << hours(m.median_wait) << "; cloud core-hours " << m.cloud_core_seconds / 3600
                << "\ninstances launched " << result.instances_launched << ", instance-hours "
                << result.instance_seconds / 3600 << "; decisions " << result.decisions << ", actions applied "
                << result.actions_applied << ", rejected " << result.actions_rejected << ", hire shortfall "
                << result.hire_shortfall << ", thread actions ignored " << result.thread_actions_ignored
                << "\njobs not replayed (wider than " << o.config.local_cores << " local cores) "
                << result.jobs_too_wide << "; runtimes cut at their limit " << result.runtimes_capped << "\n";
            for (const auto& [account, cost] : m.account_cost)
                if (cost > 0)
                    out << "cost " << (account.empty() ? "(boot/idle/billing)" : account) << " " << cost << "\n";
        }
    }
    return 0;
}

} // namespace burst
