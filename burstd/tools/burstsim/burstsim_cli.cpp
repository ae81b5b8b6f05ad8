#include "tools/burstsim/burstsim_cli.hpp"

#include "app/config/budget_conf.hpp"
#include "app/config/config_parser.hpp"
#include "app/config/slurm_conf_timeouts.hpp"
#include "ingest/message_parser.hpp"
#include "ingest/recorded_stream.hpp"
#include "common/config_values.hpp"
#include "common/plain_number.hpp"
#include "policy/cycle/decision_cycle.hpp"
#include "policy/hiring/always/always_policy.hpp"
#include "policy/hiring/never/never_policy.hpp"
#include "policy/policy_registry.hpp"
#include "policy/site/site_view.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/priority/priority_model.hpp"
#include "sim/priority/priority_spec.hpp"
#include "sim/reference/clairvoyant_reference.hpp"
#include "sim/reference/cloud_work_bound.hpp"
#include "sim/reference/objective_bound.hpp"
#include "sim/replay/snapshot_replay.hpp"
#include "sim/report/reward_profit.hpp"
#include "sim/report/sim_metrics.hpp"
#include "sim/report/svg_plot.hpp"
#include "sim/report/workflow_metrics.hpp"
#include "sim/scenario/smowton_scenario.hpp"
#include "sim/trace/trace_interactive.hpp"
#include "sim/trace/trace_scaling.hpp"
#include "policy/threads/thread_allocator_registry.hpp"
#include "policy/warm/forecasters/forecaster_registry.hpp"
#include "sim/report/forecast_evaluation.hpp"
#include "sim/scenario/zheng_scenario.hpp"
#include "sim/trace/trace_loader.hpp"
#include "sim/workload/generated_workload.hpp"
#include "sim/workload/workflow_arrivals.hpp"
#include "sim/workload/workflow_loader.hpp"
#include "tools/burstsim/forecast_table.hpp"
#include "tools/burstsim/group_spec.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace burst {
namespace {

class UsageError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

const char* const kUsage =
    "usage: burstsim (--trace FILE [--format swf|sacct|auto] [--all-problems] [--skip-malformed]\n"
    "                | --workload gatk|blast[:key=value,...]\n"
    "                | --workflow FILE... [--workflow-rate R] [--workflow-count N]\n"
    "                [--workflow-accounts A,B,...]) [--local-cores N]\n"
    "                [--local-node-cores N] [--group 'name,cpus=N,price=P,boot=S[,max=N]'...]\n"
    "                [--policy NAME | --compare NAME,NAME,...] [--param [policy:]key=value...]\n"
    "                [--seed N] [--lambda X[,X...] [--lambda-gates]] [--cycle S] [--suspend-time S] [--boot-jitter F]\n"
    "                [--bf-max-job-test N] [--default-time S] [--tau S] [--budget X [--budget-interval S]]\n"
    "                [--priority fifo|multifactor[:Key=value,...] [--shares ACCOUNT[/USER]=N|parent,...|FILE]]\n"
    "                [--config BURSTD.CONF [--uncapped]]\n"
    "                [--tune-delay [--delay-grid S,S,...]] [--clairvoyant [--clairvoyant-iterations N]]\n"
    "                [--reward-max R] [--reward-scale S] [--local-price P] [--plot FILE.svg]\n"
    "                [--thread-policy NAME[,key=value...]] [--auto-threads SHARE]\n"
    "                [--interactive-jobs SHARE] [--interactive CORES] [--scavenge-warm-nodes S]\n"
    "                [--forecast-eval [--forecaster NAME[,key=value...]...] [--forecast-tick S]\n"
    "                 [--forecast-training S] [--bucket-order gpus,memory,cpus]]\n"
    "       burstsim --snapshots FILE --config BURSTD.CONF [--policy NAME] [--param [policy:]key=value...]\n"
    "       burstsim --scenario smowton|zheng[:key=value,...] [--seed N]\n"
    "       burstsim --list-policies\n"
    "       burstsim --help\n";

// 0, then 30 s doubling to about 5.7 days.
std::vector<double> default_delay_grid()
{
    std::vector<double> grid{0};
    for (double w = 30; w <= 30 * 16384; w *= 2)
        grid.push_back(w);
    return grid;
}

// A parameter value that reads back as exactly `v` (std::to_string's six
// decimals would give a policy swept at λ = 1e-7 a λ of 0).
std::string exact(double v)
{
    std::ostringstream s;
    s << std::setprecision(std::numeric_limits<double>::max_digits10) << v;
    return s.str();
}

enum class Bound { kInclusive, kExclusive };

double parse_double(const std::string& option, const std::string& value, double min,
                    Bound bound = Bound::kInclusive)
{
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(value.c_str(), &end);
    const bool below = bound == Bound::kInclusive ? v < min : v <= min;
    if (value.empty() || *end != '\0' || errno != 0 || !std::isfinite(v) || below)
        throw UsageError(option + " '" + value + "': expected a number " +
                         (bound == Bound::kInclusive ? ">= " : "> ") + plain_number(min));
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

// A comma-separated list of distinct, non-empty items: an empty or repeated
// item is a slip (a doubled comma, a name given twice) that would otherwise
// vanish or run twice.
std::vector<std::string> split_list(const std::string& option, const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        if (part.empty())
            throw UsageError(option + " '" + text + "': empty item");
        if (std::find(out.begin(), out.end(), part) != out.end())
            throw UsageError(option + " '" + text + "': " + part + " given twice");
        out.push_back(part);
    }
    if (!text.empty() && text.back() == ',')
        throw UsageError(option + " '" + text + "': empty item");
    return out;
}

// The numbers of such a list, each at least `min`, no two equal.
std::vector<double> number_list(const std::string& option, const std::string& text, double min)
{
    std::vector<double> out;
    for (const auto& part : split_list(option, text)) {
        const double v = parse_double(option, part, min);
        if (std::find(out.begin(), out.end(), v) != out.end())
            throw UsageError(option + " '" + text + "': " + part + " given twice");
        out.push_back(v);
    }
    return out;
}

struct Options {
    std::string trace;
    std::string workload;
    std::string scenario;
    std::string plot;
    std::string format = "auto";
    bool all_problems = false;
    bool skip_malformed = false;
    std::uint32_t local_cores = 0;
    SimConfig config;
    std::vector<std::string> policies;
    bool compare = false;
    std::vector<std::string> params;
    std::vector<std::string> given; // every option on the command line, in order
    bool was_given(std::string_view option) const
    {
        return std::find(given.begin(), given.end(), option) != given.end();
    }
    std::vector<double> lambdas{1.0};
    bool lambda_gates = false;
    double tau = 10;
    // A time limit for jobs the input gives none (0: none given).
    Seconds default_time = 0;
    double budget = 0;
    double budget_interval = 86400;
    std::string site_config; // --config: the site's burstd.conf
    std::string snapshots;   // --snapshots: the plugin's messages, as recorded
    Seconds resume_timeout = 60; // --config's slurm.conf
    // The chain of --config's Policy= lines, replayed as one row when neither
    // --policy nor --compare is given.
    std::vector<PolicySpec> chain;
    // --thread-policy, else --config's ThreadPolicy=: the cycle's thread step.
    std::optional<PolicySpec> thread_policy;
    double auto_threads = 0; // --auto-threads: share of a trace's jobs made --threads=auto
    double interactive_jobs = 0; // --interactive-jobs: share of a trace's session-shaped jobs made interactive
    bool tune_delay = false;
    bool clairvoyant = false;
    unsigned clairvoyant_iterations = 3;
    std::vector<double> delay_grid = default_delay_grid();
    std::vector<std::string> workflows;
    WorkflowArrivals arrivals;
    RewardScheme reward; // τ is set from --tau, λ per row (its run's λ)
    bool shares_given = false;
    // --forecast-eval: score forecasters on the run's bucket counts instead
    // of printing its metrics.
    bool forecast_eval = false;
    std::vector<std::string> forecasters; // empty: every registered one
    Seconds forecast_tick = 300;
    Seconds forecast_training = 7 * 86400;
    ResourceOrder bucket_order;
};

Options parse(const std::vector<std::string>& args)
{
    Options o;
    bool have_policy = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        o.given.push_back(a);
        auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size())
                throw UsageError(a + " needs a value");
            return args[++i];
        };
        if (a == "--trace")
            o.trace = value();
        else if (a == "--workload")
            o.workload = value();
        else if (a == "--scenario")
            o.scenario = value();
        else if (a == "--plot")
            o.plot = value();
        else if (a == "--workflow")
            o.workflows.push_back(value());
        else if (a == "--workflow-rate")
            o.arrivals.rate_per_hour = parse_double(a, value(), 0, Bound::kExclusive);
        else if (a == "--workflow-count")
            o.arrivals.count = std::uint32_t(parse_uint(a, value(), 1, 10000000));
        else if (a == "--workflow-accounts") {
            o.arrivals.accounts = split_list(a, value());
            if (o.arrivals.accounts.empty())
                throw UsageError("--workflow-accounts needs at least one account name");
        }
        else if (a == "--format") {
            o.format = value();
            if (o.format != "swf" && o.format != "sacct" && o.format != "auto")
                throw UsageError("--format '" + o.format + "': expected swf, sacct or auto");
        }
        else if (a == "--all-problems")
            o.all_problems = true;
        else if (a == "--skip-malformed")
            o.skip_malformed = true;
        else if (a == "--local-cores")
            o.local_cores = std::uint32_t(parse_uint(a, value(), 1, 100000000));
        else if (a == "--local-node-cores")
            o.config.local_node_cores = std::uint32_t(parse_uint(a, value(), 1, 1000000));
        else if (a == "--group") {
            try {
                GroupSpec spec = parse_group_spec(value());
                for (const auto& g : o.config.groups)
                    if (g.name == spec.group.name)
                        throw UsageError("--group: two groups named '" + g.name + "'");
                if (spec.shortage.any())
                    o.config.shortages[spec.group.name] = spec.shortage;
                if (spec.boot_jitter)
                    o.config.group_boot_jitter[spec.group.name] = *spec.boot_jitter;
                if (spec.max_time > 0)
                    o.config.group_max_time[spec.group.name] = spec.max_time;
                o.config.groups.push_back(std::move(spec.group));
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
            o.policies = split_list(a, value());
            o.compare = have_policy = true;
            if (o.policies.empty())
                throw UsageError("--compare needs at least one policy name");
        } else if (a == "--param")
            o.params.push_back(value());
        else if (a == "--thread-policy") {
            const std::vector<std::string> parts = split_list(a, value());
            PolicySpec spec{parts.front(), {}, "--thread-policy"};
            for (std::size_t k = 1; k < parts.size(); ++k) {
                const auto eq = parts[k].find('=');
                if (eq == std::string::npos || eq == 0)
                    throw UsageError("--thread-policy '" + parts[k] + "': expected key=value");
                spec.params[parts[k].substr(0, eq)] = parts[k].substr(eq + 1);
            }
            o.thread_policy = std::move(spec);
        } else if (a == "--auto-threads") {
            o.auto_threads = parse_double(a, value(), 0);
            if (o.auto_threads > 1)
                throw UsageError("--auto-threads '" + plain_number(o.auto_threads) + "': expected a share in [0, 1]");
        } else if (a == "--interactive-jobs") {
            o.interactive_jobs = parse_double(a, value(), 0);
            if (o.interactive_jobs > 1)
                throw UsageError("--interactive-jobs '" + plain_number(o.interactive_jobs) +
                                 "': expected a share in [0, 1]");
        } else if (a == "--interactive")
            o.config.interactive_cores = std::uint32_t(parse_uint(a, value(), 0, 100000000));
        else if (a == "--seed")
            o.config.seed = parse_uint(a, value(), 0, UINT64_MAX);
        else if (a == "--lambda") {
            o.lambdas = number_list(a, value(), 0);
            if (o.lambdas.empty())
                throw UsageError("--lambda needs at least one number");
        } else if (a == "--budget")
            o.budget = parse_double(a, value(), 0);
        else if (a == "--budget-interval")
            o.budget_interval = parse_double(a, value(), 1);
        else if (a == "--snapshots")
            o.snapshots = value();
        else if (a == "--config") {
            if (!o.site_config.empty())
                throw UsageError("--config: give one burstd.conf");
            o.site_config = value();
            if (o.site_config.empty())
                throw UsageError("--config needs a file name");
        } else if (a == "--uncapped")
            o.config.enforce_budgets = false;
        else if (a == "--tune-delay")
            o.tune_delay = true;
        else if (a == "--lambda-gates")
            o.lambda_gates = true;
        else if (a == "--clairvoyant")
            o.clairvoyant = true;
        else if (a == "--clairvoyant-iterations")
            o.clairvoyant_iterations = unsigned(parse_uint(a, value(), 0, 100));
        else if (a == "--delay-grid") {
            o.delay_grid = number_list(a, value(), 0);
            if (o.delay_grid.empty())
                throw UsageError("--delay-grid needs at least one delay");
        }
        else if (a == "--cycle")
            o.config.cycle = parse_double(a, value(), 1);
        else if (a == "--suspend-time")
            o.config.suspend_time = parse_double(a, value(), 0);
        else if (a == "--scavenge-warm-nodes")
            o.config.scavenger_run = parse_double(a, value(), 1);
        else if (a == "--boot-jitter") {
            o.config.boot_jitter = parse_double(a, value(), 0);
            if (o.config.boot_jitter >= 1)
                throw UsageError("--boot-jitter must be below 1");
        } else if (a == "--bf-max-job-test")
            o.config.bf_max_job_test = std::uint32_t(parse_uint(a, value(), 1, 100000000));
        else if (a == "--default-time")
            o.default_time = parse_double(a, value(), 1);
        else if (a == "--tau")
            o.tau = parse_double(a, value(), 0.001);
        else if (a == "--reward-max")
            o.reward.reward_max = parse_double(a, value(), 0);
        else if (a == "--reward-scale")
            o.reward.reward_scale = parse_double(a, value(), 0);
        else if (a == "--local-price")
            o.reward.local_price = parse_double(a, value(), 0);
        else if (a == "--forecast-eval")
            o.forecast_eval = true;
        else if (a == "--forecaster")
            o.forecasters.push_back(value());
        else if (a == "--forecast-tick")
            o.forecast_tick = parse_double(a, value(), 1);
        else if (a == "--forecast-training") {
            const std::string& v = value();
            const std::optional<double> training = parse_duration(v);
            if (!training)
                throw UsageError("--forecast-training '" + v + "': expected a duration (e.g. 86400, 1d, 2w)");
            o.forecast_training = *training;
        } else if (a == "--bucket-order") {
            try {
                o.bucket_order = ResourceOrder::parse(value());
            } catch (const ResourceOrderError& e) {
                throw UsageError(std::string("--bucket-order: ") + e.what());
            }
        } else if (a == "--priority" || a == "--shares") {
            const std::string& v = value();
            try {
                if (a == "--priority") {
                    parse_priority_spec(v, o.config.priority);
                } else {
                    o.config.priority.shares = v.find('=') != std::string::npos ? parse_shares(v) : load_shares_file(v);
                    o.shares_given = true;
                }
            } catch (const PrioritySpecError& e) {
                throw UsageError(a + ": " + e.what());
            }
        }
        else
            throw UsageError("unknown argument '" + a + "'");
    }
    if (o.shares_given && o.config.priority.type != PriorityType::Multifactor)
        throw UsageError("--shares needs --priority multifactor (FIFO has no fair-share)");
    if (const std::string problem = shares_needing_fair_tree(o.config.priority); !problem.empty())
        throw UsageError("--shares: " + problem);
    if (o.clairvoyant && o.interactive_jobs > 0)
        throw UsageError("--clairvoyant plans the queue in submission order, which interactive jobs "
                         "(--interactive-jobs) do not keep: give one or the other");
    if (!o.config.enforce_budgets && o.site_config.empty())
        throw UsageError("--uncapped reports against the Budget= lines of --config: give --config too");
    if (!o.snapshots.empty()) {
        for (const auto& option : o.given)
            if (option.rfind("--", 0) == 0 && option != "--snapshots" && option != "--config" && option != "--policy" &&
                option != "--param")
                throw UsageError("--snapshots replays recorded snapshots through the site of --config: " + option +
                                 " does not apply (give --config, and --policy or --param to change its chain)");
        if (o.site_config.empty())
            throw UsageError("--snapshots needs --config: the site's node groups and chain");
        return o;
    }
    if (!o.scenario.empty()) {
        for (const auto& option : o.given)
            if (option != "--scenario" && option != "--seed")
                throw UsageError("--scenario runs its own site, workloads and policies: " + option +
                                 " does not apply (give only --seed with it)");
        return o;
    }
    if (int(!o.trace.empty()) + int(!o.workload.empty()) + int(!o.workflows.empty()) != 1)
        throw UsageError("give one of --trace FILE, --workload NAME or --workflow FILE (one or more)");
    // An option that acts only with another would otherwise be dropped in silence.
    for (const auto& [option, needs] : {std::pair<const char*, const char*>{"--format", "--trace"},
                                        {"--all-problems", "--trace"},
                                        {"--skip-malformed", "--trace"},
                                        {"--workflow-rate", "--workflow"},
                                        {"--workflow-count", "--workflow"},
                                        {"--workflow-accounts", "--workflow"},
                                        {"--delay-grid", "--tune-delay"},
                                        {"--clairvoyant-iterations", "--clairvoyant"},
                                        {"--budget-interval", "--budget"},
                                        {"--forecaster", "--forecast-eval"},
                                        {"--forecast-tick", "--forecast-eval"},
                                        {"--forecast-training", "--forecast-eval"},
                                        {"--bucket-order", "--forecast-eval"}})
        if (o.was_given(option) && !o.was_given(needs))
            throw UsageError(std::string(option) + " applies only with " + needs);
    if (o.forecast_eval) {
        for (const char* option : {"--compare", "--tune-delay", "--clairvoyant", "--plot"})
            if (o.was_given(option))
                throw UsageError(std::string("--forecast-eval scores forecasters on one run (--policy or --config's "
                                             "chain): ") +
                                 option + " does not apply");
        if (o.config.groups.empty() && o.site_config.empty())
            throw UsageError("--forecast-eval counts buckets in the node groups: give --group or --config");
        // Never left to the default: under never the whole burstable local
        // backlog counts, under always only what has not started yet.
        if (!have_policy && o.site_config.empty())
            throw UsageError("--forecast-eval needs --policy (or --config's chain): what waits to burst, and so the "
                             "bucket counts, depends on the hiring policy");
        for (auto spec = o.forecasters.begin(); spec != o.forecasters.end(); ++spec)
            if (std::find(o.forecasters.begin(), spec, *spec) != spec)
                throw UsageError("--forecaster '" + *spec + "' given twice: each forecaster is scored once");
    }
    if (!have_policy && o.site_config.empty())
        o.policies = {"never"};
    if (o.tune_delay || o.clairvoyant)
        o.compare = true;
    return o;
}

// A misspelt prefix would silently leave its policy at the defaults.
void check_scoped_params(const Options& o)
{
    std::vector<std::string> scoped = o.policies;
    if (o.tune_delay)
        scoped.push_back("fixed-delay");
    for (const auto& p : o.params) {
        const auto colon = p.find(':'), eq = p.find('=');
        if (colon == std::string::npos || (eq != std::string::npos && eq < colon))
            continue;
        const std::string prefix = p.substr(0, colon);
        if (std::find(scoped.begin(), scoped.end(), prefix) == scoped.end()) {
            std::string known;
            for (const auto& name : scoped)
                known += (known.empty() ? "" : ", ") + name;
            throw UsageError("--param " + p + ": '" + prefix + "' is not a policy of this run (run: " + known + ")");
        }
    }
}

// The key of a "key=value" parameter as policies see it (lower case).
std::string param_key(const std::string& assignment)
{
    PolicyParams one;
    one.set(assignment);
    return one.values().begin()->first;
}

bool is_scoped(const std::string& param)
{
    const auto colon = param.find(':'), eq = param.find('=');
    return colon != std::string::npos && (eq == std::string::npos || colon < eq);
}

// "policy:key=value" goes to that policy only (and must be one it reads);
// "key=value" to every policy run that reads the key: --compare never,predictive
// --param lambda=2 tunes predictive and leaves never alone.  Adds the keys
// of `given` this policy read to `read`.
PolicyParams params_for(const std::string& policy, const std::vector<std::string>& given,
                        std::vector<std::string>* read = nullptr)
{
    PolicyParams params;
    std::vector<std::string> scoped_keys;
    for (const auto& p : given) {
        if (!is_scoped(p)) {
            params.set(p);
        } else if (p.compare(0, p.find(':'), policy) == 0 && p.find(':') == policy.size()) {
            params.set(p.substr(policy.size() + 1));
            scoped_keys.push_back(param_key(p.substr(policy.size() + 1)));
        }
    }
    std::vector<std::string> reads;
    try {
        reads = policy_reads(policy, params);
    } catch (const PolicyConfigError& e) {
        // An unscoped --param goes to every policy of the run: say whose it is.
        throw PolicyConfigError(policy + ": " + e.what());
    }
    PolicyParams kept;
    for (const auto& [key, value] : params.values()) {
        const bool is_read = std::find(reads.begin(), reads.end(), key) != reads.end();
        if (is_read || std::find(scoped_keys.begin(), scoped_keys.end(), key) != scoped_keys.end())
            kept.set(key, value);
        if (is_read && read)
            read->push_back(key);
    }
    return kept;
}

// An unscoped key that no policy of the run reads is a slip, not a no-op.
void check_unscoped_params_are_read(const Options& o)
{
    std::vector<std::string> run = o.policies;
    if (o.tune_delay)
        run.push_back("fixed-delay");
    std::vector<std::string> read;
    for (const auto& name : run)
        params_for(name, o.params, &read);
    for (const auto& p : o.params) {
        if (is_scoped(p) || std::find(read.begin(), read.end(), param_key(p)) != read.end())
            continue;
        std::string names;
        for (const auto& name : run)
            names += (names.empty() ? "" : ", ") + name;
        throw UsageError("--param " + p + ": no policy of this run has a parameter '" + param_key(p) +
                         "' (run: " + names + ")");
    }
}

std::string hours(double seconds)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(2) << seconds / 3600 << "h";
    return s.str();
}

std::string fixed(double v, int digits)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

std::uint64_t dropped_actions(const SimMetrics& m)
{
    std::uint64_t n = 0;
    for (const auto& [kind, dropped] : m.over_budget)
        n += dropped;
    return n;
}

std::size_t line_violations(const SimMetrics& m)
{
    std::size_t n = 0;
    for (const auto& line : m.budget_lines)
        n += line.violations;
    return n;
}

// As burstd.conf writes it.
std::string interval_text(Seconds s)
{
    for (const auto& [unit, suffix] : {std::pair<double, const char*>{86400, "d"}, {3600, "h"}, {60, "m"}})
        if (std::fmod(s, unit) == 0)
            return fixed(s / unit, 0) + suffix;
    return fixed(s, 0) + "s";
}

std::string budget_line_text(const BudgetLimit& l)
{
    std::ostringstream s;
    s << "Budget=" << l.account << " Amount=" << l.amount << " Interval=" << interval_text(l.interval);
    return s.str();
}

std::string account_text(const std::string& account) { return account.empty() ? "(no job)" : account; }

// Per run and budget line: spend as burstd books it, the most one account
// was booked in one interval, and the (interval, account) bookings over the
// amount; with `accounts`, one row per account the line covers.
void print_budget_lines(std::ostream& out, const std::vector<std::pair<std::string, SimMetrics>>& runs,
                        bool accounts)
{
    out << "\n" << std::left << std::setw(26) << "budget" << std::setw(42) << "line" << std::right << std::setw(10)
        << "intervals" << std::setw(12) << "spend" << std::setw(14) << "max/interval" << std::setw(6) << "viol"
        << "\n";
    for (const auto& [label, m] : runs) {
        for (const auto& line : m.budget_lines) {
            out << std::left << std::setw(26) << label << std::setw(42) << budget_line_text(line.limit) << std::right
                << std::setw(10) << line.intervals << std::setw(12) << fixed(line.spend, 2) << std::setw(14)
                << fixed(line.max_spend, 2) << std::setw(6) << line.violations << "\n";
            if (accounts)
                for (const auto& [account, a] : line.accounts)
                    out << std::left << std::setw(26) << "" << std::setw(42) << ("  account " + account_text(account))
                        << std::right << std::setw(10) << "" << std::setw(12) << fixed(a.spend, 2) << std::setw(14)
                        << fixed(a.max_spend, 2) << std::setw(6) << a.violations << "\n";
        }
        if (!m.over_budget.empty()) {
            out << std::left << std::setw(26) << label << "dropped by the cap (over_budget):";
            for (const auto& [kind, dropped] : m.over_budget)
                out << " " << kind << " " << dropped;
            out << "\n";
        }
    }
}

// One line of the table: `lambda_column` is the index of the only λ the run
// was tuned for (its J at other λ would compare a policy tuned for something
// else), or -1 when the run does not depend on λ.
// Wide enough for "clairvoyant(lambda=0.125)[boot-window]"; a longer label
// still gets a space before the numbers.
constexpr int kLabelWidth = 44;

void print_label(std::ostream& out, const std::string& label)
{
    out << std::left << std::setw(kLabelWidth) << label << (label.size() >= std::size_t(kLabelWidth) ? " " : "")
        << std::right;
}

void print_row(std::ostream& out, const std::string& label, const SimMetrics& m, const Options& o,
               int lambda_column, const WorkflowMetrics& wf)
{
    print_label(out, label);
    out << std::setw(7) << m.jobs << std::setw(7) << m.cloud_jobs << std::setw(11) << fixed(m.cloud_cost, 2)
        << std::setw(10) << hours(m.mean_wait) << std::setw(10) << hours(m.median_wait) << std::setw(10)
        << hours(m.p95_wait) << std::setw(8) << fixed(m.mean_bounded_slowdown, 2) << std::setw(11)
        << hours(m.makespan) << std::setw(11) << fixed(m.waste_core_seconds / 3600, 1) << std::setw(11) << fixed(m.shortage_core_seconds / 3600, 1)
        << std::setw(7) << fixed(m.a_under, 3) << std::setw(7) << fixed(m.a_over, 3) << std::setw(6)
        << fixed(m.t_under, 2) << std::setw(6) << fixed(m.t_over, 2);
    if (o.budget > 0)
        out << std::setw(6) << m.budget_violations << std::setw(10) << fixed(m.max_interval_spend, 2);
    if (!o.config.budgets.empty())
        out << std::setw(8) << dropped_actions(m) << std::setw(7) << line_violations(m);
    if (!o.workflows.empty())
        out << std::setw(6) << wf.workflows << std::setw(8) << fixed(wf.mean_slowdown, 2);
    out << std::setw(14) << fixed(m.profit_time, 2) << std::setw(14) << fixed(m.profit_throughput, 2);
    for (std::size_t k = 0; k < o.lambdas.size(); ++k)
        out << std::setw(14)
            << (lambda_column < 0 || std::size_t(lambda_column) == k ? fixed(objective_at(m, o.lambdas[k]), 2) : "-");
    out << "\n";
}

void print_header(std::ostream& out, const Options& o)
{
    print_label(out, "policy");
    out << std::setw(7) << "jobs" << std::setw(7) << "cloud" << std::setw(11) << "cost" << std::setw(10)
        << "mean_wait" << std::setw(10) << "med_wait" << std::setw(10) << "p95_wait" << std::setw(8) << "bsld"
        << std::setw(11) << "makespan" << std::setw(11) << "waste_ch" << std::setw(11) << "short_ch" << std::setw(7) << "a_U"
        << std::setw(7) << "a_O" << std::setw(6) << "t_U" << std::setw(6) << "t_O";
    if (o.budget > 0)
        out << std::setw(6) << "viol" << std::setw(10) << "max_spend";
    if (!o.config.budgets.empty())
        out << std::setw(8) << "capped" << std::setw(7) << "b_viol";
    if (!o.workflows.empty())
        out << std::setw(6) << "wfs" << std::setw(8) << "wf_sld";
    out << std::setw(14) << "profit_time" << std::setw(14) << "profit_thru";
    for (double l : o.lambdas)
        out << std::setw(14) << ("J@" + fixed(l, l < 0.1 ? 3 : 2));
    out << "\n";
}

// The λ a policy was tuned for: swept or given with --param (already
// validated by the policy); none for a run that does not depend on λ.
std::optional<double> tuned_lambda(const PolicyParams& params)
{
    if (auto it = params.values().find("lambda"); it != params.values().end())
        return std::strtod(it->second.c_str(), nullptr);
    return std::nullopt;
}

// The λ a single run's summary states: the one the policy was tuned for,
// else the --lambda values its J is shown at.
std::string run_lambda_text(const PolicyParams& params, const std::vector<double>& lambdas)
{
    if (const auto tuned = tuned_lambda(params))
        return plain_number(*tuned);
    std::string text;
    for (double l : lambdas)
        text += (text.empty() ? "" : ", ") + plain_number(l);
    return text;
}

std::string lambda_label(const std::string& name, double lambda)
{
    std::ostringstream s;
    s << name << "(lambda=" << lambda << ")";
    return s.str();
}

// A printed row with what the ratios need.
struct RatioRow {
    std::string label;
    int lambda_index;
    SimMetrics metrics;
    CloudWorkBound bound;
};

// Per row and λ: J, J over the clairvoyant reference's J, cloud core-hours,
// the lower bound on cloud core-hours at the row's achieved waits, their
// ratio, J_lb = λ × waiting core-hours + the bound's cloud cost (no
// schedule whose jobs all start no later than this row's costs less), and J
// over the bound on J of every schedule (`bounds`, per λ; none: "-").  Then
// that bound itself, one J-bound row per λ.
void print_ratios(std::ostream& out, const Options& o, const std::vector<RatioRow>& rows,
                  const std::vector<SimMetrics>& reference, const std::vector<std::optional<double>>& bounds)
{
    out << "\n" << std::left << std::setw(50) << "ratios" << std::right << std::setw(9) << "lambda" << std::setw(14)
        << "J" << std::setw(9) << "J/clv" << std::setw(12) << "cloud_ch" << std::setw(12) << "bound_ch"
        << std::setw(10) << "cloud/lb" << std::setw(14) << "J_lb" << std::setw(9) << "J/bound" << "\n";
    for (const auto& r : rows)
        for (std::size_t k = 0; k < o.lambdas.size(); ++k) {
            if (r.lambda_index >= 0 && std::size_t(r.lambda_index) != k)
                continue;
            const double lambda = o.lambdas[k];
            const double j = objective_at(r.metrics, lambda);
            const double ref = objective_at(reference[k], lambda);
            const double cloud = r.metrics.cloud_core_seconds / 3600, bound = r.bound.cloud_core_seconds / 3600;
            out << std::left << std::setw(50) << r.label << std::right << std::setw(9) << fixed(lambda, lambda < 0.1 ? 4 : 3)
                << std::setw(14) << fixed(j, 2) << std::setw(9) << (ref > 0 ? fixed(j / ref, 3) : "-") << std::setw(12)
                << fixed(cloud, 1) << std::setw(12) << fixed(bound, 1) << std::setw(10)
                << (bound > 0 ? fixed(cloud / bound, 2) : "-") << std::setw(14)
                << fixed(lambda * r.metrics.waiting_core_hours + r.bound.cloud_cost, 2) << std::setw(9)
                << (bounds[k] && *bounds[k] > 0 ? fixed(j / *bounds[k], 3) : "-") << "\n";
        }
    for (std::size_t k = 0; k < o.lambdas.size(); ++k) {
        if (!bounds[k])
            continue;
        const double ref = objective_at(reference[k], o.lambdas[k]);
        out << std::left << std::setw(50) << "J-bound" << std::right << std::setw(9)
            << fixed(o.lambdas[k], o.lambdas[k] < 0.1 ? 4 : 3) << std::setw(14) << fixed(*bounds[k], 2)
            << std::setw(9) << (ref > 0 ? fixed(*bounds[k] / ref, 3) : "-") << std::setw(12) << "-"
            << std::setw(12) << "-" << std::setw(10) << "-" << std::setw(14) << "-" << std::setw(9) << "-" << "\n";
    }
}

// --scenario NAME[:keys]: a paper's experiment, printed as one table.
int run_scenario(const Options& o, std::ostream& out, std::ostream& err)
{
    const auto colon = o.scenario.find(':');
    const std::string name = o.scenario.substr(0, colon);
    const std::string keys = colon == std::string::npos ? "" : o.scenario.substr(colon + 1);
    try {
        if (name == "smowton") {
            const SmowtonOptions options = parse_smowton_options(keys, o.config.seed);
            print_smowton(out, options, run_smowton(options));
        } else if (name == "zheng") {
            const ZhengOptions options = parse_zheng_options(keys, o.config.seed);
            print_zheng(out, options, run_zheng(options));
        } else {
            err << "burstsim: unknown scenario '" << name << "' (known: smowton, zheng)\n";
            return 2;
        }
    } catch (const WorkloadSpecError& e) {
        err << "burstsim: " << e.what() << "\n";
        return 2;
    } catch (const PolicyConfigError& e) {
        err << "burstsim: " << e.what() << "\n";
        return 2;
    }
    return 0;
}

// --config FILE: the site's burstd.conf, read by burstd's own parser: its
// node groups, chain, budgets, CycleInterval and ObjectiveLambda, and its
// slurm.conf's SuspendTime per group's partition; a command-line option
// overrides the value it sets.  What the file says that burstsim cannot
// replay is named in a warning.  Returns an exit status, 0 to go on.
int apply_site_config(Options& o, std::ostream& err)
{
    const ConfigParseResult loaded = load_config(o.site_config);
    if (!loaded.ok()) {
        err << "burstsim: --config: " << o.site_config << " is not a valid burstd.conf:\n";
        for (const auto& e : loaded.errors)
            err << e << "\n";
        return 2;
    }
    const BurstdConfig& site = loaded.config;
    const auto warn = [&](const std::string& where, const std::string& what) {
        err << "burstsim: warning: " << where << ": " << what << "\n";
    };
    // The file's groups in its order; a --group of the same name takes its
    // place, other --groups follow.
    std::vector<NodeGroup> groups;
    for (std::size_t i = 0; i < site.node_groups.size(); ++i) {
        const NodeGroup& g = site.node_groups[i];
        const std::string& origin = site.node_group_origins[i];
        auto cli = std::find_if(o.config.groups.begin(), o.config.groups.end(),
                                [&](const NodeGroup& c) { return c.name == g.name; });
        if (cli != o.config.groups.end()) {
            groups.push_back(std::move(*cli));
            o.config.groups.erase(cli);
            continue;
        }
        if (g.zones.size() > 1 || g.instance_types.size() > 1)
            warn(origin, "NodeGroup=" + g.name +
                             ": its zones and fallback instance types are replayed as one pool whose launches "
                             "succeed (a --group " + g.name + ",...,stockout= of the same name replays shortages)");
        if (g.spot)
            warn(origin, "NodeGroup=" + g.name + ": Spot=yes: no interruptions are drawn (a --group " + g.name +
                             ",...,spot=RATE of the same name draws RATE per instance-hour)");
        groups.push_back(g);
    }
    for (auto& g : o.config.groups)
        groups.push_back(std::move(g));
    o.config.groups = std::move(groups);
    o.config.cluster = site.cluster_name;
    o.config.budgets = budget_limits(site.budgets);
    if (!o.config.enforce_budgets && o.config.budgets.empty()) {
        err << "burstsim: --uncapped: " << o.site_config << " has no Budget= line to report against\n";
        return 2;
    }
    if (!o.was_given("--cycle"))
        o.config.cycle = site.cycle_interval;
    if (!o.was_given("--lambda") && site.objective_lambda)
        o.lambdas = {*site.objective_lambda};
    if (site.thread_policy && !o.was_given("--thread-policy"))
        o.thread_policy = site.thread_policy;
    if (!site.interactive.empty() && !o.was_given("--interactive")) {
        std::uint32_t cores = 0, partitions = 0;
        for (const auto& reserve : site.interactive) {
            // burstd keeps no hold where no local node is (it says so).
            if (std::any_of(site.node_groups.begin(), site.node_groups.end(),
                            [&](const NodeGroup& g) { return group_partition(g) == reserve.partition; })) {
                warn(o.site_config, "Interactive=" + reserve.partition + ":" + std::to_string(reserve.cores) +
                                        ": a node group's partition, where burstd keeps no hold");
                continue;
            }
            cores += reserve.cores;
            ++partitions;
        }
        o.config.interactive_cores = cores;
        if (partitions > 1)
            warn(o.site_config, "Interactive=: burstsim's local cores are one pool, which keeps the " +
                                    std::to_string(cores) + " cores of every partition named");
    }
    if (site.early_launch == 0)
        warn(o.site_config, "EarlyLaunch=0: burstsim boots a routed job's nodes at once, as burstd does with "
                            "EarlyLaunch above 0");
    const SlurmConfTimeouts slurm = read_slurm_conf_timeouts(site.slurm_conf);
    if (!slurm.max_time_error.empty())
        warn(o.site_config, "SlurmConf: " + slurm.max_time_error + "; that partition is replayed without a MaxTime");
    // A --group of the same name with max_time= takes its place.
    for (const auto& g : o.config.groups)
        if (auto max_time = slurm.partition_max_time.find(group_partition(g));
            max_time != slurm.partition_max_time.end() && max_time->second > 0)
            o.config.group_max_time.emplace(g.name, max_time->second);
    if (!o.was_given("--suspend-time")) {
        if (!slurm.error.empty()) {
            warn(o.site_config, "SlurmConf: " + slurm.error + "; idle nodes are suspended after " +
                                    plain_number(o.config.suspend_time) + " s (--suspend-time)");
        } else {
            o.resume_timeout = slurm.resume_timeout;
            for (const auto& g : o.config.groups) {
                const std::optional<Seconds> suspend = slurm.suspend_time_of(group_partition(g));
                o.config.group_suspend_time[g.name] = suspend ? *suspend : std::numeric_limits<Seconds>::infinity();
            }
        }
    }
    if (o.policies.empty()) {
        if (site.policies.empty()) {
            err << "burstsim: --config: " << o.site_config
                << " has no Policy= line: give --policy or --compare\n";
            return 2;
        }
        o.chain = site.policies;
        for (const auto& link : o.chain)
            o.policies.push_back(link.name);
    }
    return 0;
}

// Interactive jobs' time to start against the batch jobs' waits, and what
// the holds kept idle; empty when the run has neither.
std::string interactive_text(const SimMetrics& m, const SimConfig& site)
{
    if (m.interactive_jobs == 0 && site.interactive_cores == 0)
        return {};
    return "interactive jobs " + std::to_string(m.interactive_jobs) + ": time to start median " +
           fixed(m.median_interactive_start, 0) + " s, p95 " + fixed(m.p95_interactive_start, 0) +
           " s; batch jobs' wait mean " + hours(m.mean_batch_wait) + ", median " + hours(m.median_batch_wait) +
           "; Interactive= holds " + std::to_string(site.interactive_cores) + " core(s), kept " +
           fixed(m.held_core_hours, 1) + " core-hours";
}

// What scavenger work did on the nodes the warm pool held; empty without
// --scavenge-warm-nodes.
std::string scavenger_text(const SimMetrics& m, const SimConfig& site)
{
    if (site.scavenger_run <= 0)
        return {};
    return "scavenger work on warm nodes (runs of " + fixed(site.scavenger_run, 0) + " s): held " +
           fixed(m.warm_held_core_hours, 1) + " core-hours, " + fixed(m.scavenger_done_core_hours, 1) +
           " core-hours done, " + fixed(m.scavenger_lost_core_hours, 1) +
           " core-hours cut short; cloud nodes idle " + fixed(m.waste_idle_core_seconds / 3600, 1) +
           " core-hours";
}

// The row name of a chain: its links' names joined by '+'.
std::string chain_label(const std::vector<PolicySpec>& chain)
{
    std::string label;
    for (const auto& link : chain)
        label += (label.empty() ? "" : "+") + link.name;
    return label;
}

// --snapshots FILE: the plugin's messages as recorded (one JSON message a
// line, doc/protocol.md) replayed through the site's chain, one cycle per
// snapshot; prints every action with its reason.
int replay_recorded_snapshots(const Options& o, std::ostream& out, std::ostream& err)
{
    std::ifstream in(o.snapshots);
    if (!in) {
        err << "burstsim: --snapshots: cannot read " << o.snapshots << ": " << std::strerror(errno) << "\n";
        return 1;
    }
    std::vector<RecordedMessage> messages;
    RecordedStream recorded;
    std::size_t line_number = 0, other_cluster = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_number;
        if (line.empty())
            continue;
        ParsedMessage parsed = parse_message(line);
        if (!parsed.message) {
            err << "burstsim: " << o.snapshots << ":" << line_number << ": " << parsed.error << "\n";
            return 1;
        }
        if (parsed.message->cluster != o.config.cluster) {
            ++other_cluster;
            continue;
        }
        if (auto* e = std::get_if<JobEnd>(&parsed.message->body))
            messages.emplace_back(std::move(*e));
        else if (const Snapshot* state = recorded.feed(*parsed.message))
            messages.emplace_back(*state);
        else if (!recorded.refused().empty())
            err << "burstsim: warning: " << o.snapshots << ":" << line_number << ": delta not applied: "
                << recorded.refused() << "; no cycle until the next whole snapshot, as burstd\n";
    }
    if (other_cluster)
        err << "burstsim: warning: " << o.snapshots << ": " << other_cluster << " message(s) of a cluster other than "
            << o.config.cluster << " (ClusterName) left out, as burstd leaves them\n";
    ReplaySite site;
    site.groups = o.config.groups;
    site.budgets = o.config.enforce_budgets ? o.config.budgets : std::vector<BudgetLimit>{};
    for (const auto& g : site.groups) {
        const Seconds suspend = suspend_time_of(o.config, g);
        site.suspend_times[g.name] = std::isinf(suspend) ? std::nullopt : std::optional<Seconds>(suspend);
    }
    site.resume_timeout = o.resume_timeout;
    site.cycle_interval = o.config.cycle;
    std::vector<std::string> errors;
    std::vector<PolicySpec> chain = o.chain;
    if (chain.empty())
        chain.push_back(PolicySpec{o.policies.front(), {}, "--policy"});
    for (auto& link : chain) {
        const PolicyParams overrides = params_for(link.name, o.params);
        for (const auto& [key, value] : overrides.values())
            link.params[key] = value;
    }
    DecisionCycle cycle(make_policy_chain(chain, errors));
    if (!errors.empty()) {
        err << "burstsim: " << joined(errors) << "\n";
        return 2;
    }
    std::size_t snapshots = 0, actions = 0;
    for (const auto& c : replay_snapshots(messages, site, cycle)) {
        ++snapshots;
        for (const auto& a : c.outcome.actions) {
            ++actions;
            out << std::fixed << std::setprecision(0) << c.time << " seq " << c.seq << " " << a.policy << ": "
                << action_text(a.action) << ": " << a.action.reason << "\n";
        }
        for (const auto& note : c.outcome.notes)
            if (note.budget)
                out << std::fixed << std::setprecision(0) << c.time << " seq " << c.seq << " " << note.policy
                    << ": budget: " << note.text << "\n";
    }
    out << snapshots << " snapshot(s) replayed through " << chain_label(chain) << ", "
        << messages.size() - snapshots << " job end(s); " << actions << " action(s)\n";
    return 0;
}

} // namespace

int burstsim_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    Options o;
    // One run per (policy, λ it is tuned for); λ index -1 = does not depend on λ.
    // Its profit is at `lambda`: the λ it was tuned for, else the first --lambda.
    struct Run {
        std::string name;
        int lambda_index;
        PolicyParams params;
        double lambda;
        std::vector<PolicySpec> chain; // --config's chain; empty = the policy `name` with `params`
    };
    std::vector<Run> runs;
    if (std::find(args.begin(), args.end(), "--help") != args.end()) {
        out << kUsage;
        return 0;
    }
    if (std::find(args.begin(), args.end(), "--list-policies") != args.end()) {
        out << policy_listing() << forecaster_listing();
        return 0;
    }
    try {
        o = parse(args);
        if (!o.scenario.empty())
            return run_scenario(o, out, err);
        if (!o.site_config.empty())
            if (const int status = apply_site_config(o, err))
                return status;
        check_scoped_params(o);
        if (!o.snapshots.empty())
            return replay_recorded_snapshots(o, out, err);
        check_unscoped_params_are_read(o);
        if (o.thread_policy) {
            std::vector<std::string> errors;
            make_thread_stage(*o.thread_policy, errors); // validates it up front
            if (!errors.empty())
                throw PolicyConfigError(joined(errors));
        }
        if (!o.chain.empty()) {
            // The --params a link reads override its line's.
            for (auto& link : o.chain) {
                const PolicyParams overrides = params_for(link.name, o.params);
                for (const auto& [key, value] : overrides.values())
                    link.params[key] = value;
            }
            std::vector<std::string> errors;
            make_policy_chain(o.chain, errors); // validates every link up front
            if (!errors.empty())
                throw PolicyConfigError(joined(errors));
            runs.push_back(Run{chain_label(o.chain), -1, PolicyParams{}, o.lambdas.front(), o.chain});
        }
        for (const auto& name : o.chain.empty() ? o.policies : std::vector<std::string>{}) {
            PolicyParams params = params_for(name, o.params);
            make_policy(name, params); // validates the name and parameters up front
            // Policies whose λ is an optional gate run as in their papers
            // unless --lambda-gates asks for the gate.
            const bool swept = policy_has_parameter(name, "lambda") && (o.lambda_gates || !policy_lambda_is_gate(name));
            if (swept && !params.values().count("lambda")) {
                for (std::size_t k = 0; k < o.lambdas.size(); ++k) {
                    PolicyParams with = params;
                    with.set("lambda", exact(o.lambdas[k]));
                    runs.push_back(Run{name, int(k), with, o.lambdas[k], {}});
                }
            } else {
                runs.push_back(Run{name, -1, params, tuned_lambda(params).value_or(o.lambdas.front()), {}});
            }
        }
        if (o.forecast_eval) {
            if (runs.size() != 1)
                throw UsageError("--forecast-eval scores forecasters on one run: give one --lambda (" +
                                 std::to_string(runs.size()) + " runs asked for)");
            if (o.forecasters.empty())
                o.forecasters = forecaster_names();
            for (const auto& spec : o.forecasters)
                make_forecaster(spec, o.forecast_tick); // validates it before the replay
        }
        if (o.tune_delay) {
            PolicyParams probe = params_for("fixed-delay", o.params);
            if (probe.values().count("delay"))
                throw UsageError("--tune-delay chooses fixed-delay's delay itself; do not give it with --param");
        }
    } catch (const std::invalid_argument& e) {
        err << "burstsim: " << e.what() << "\n" << kUsage;
        return 2;
    } catch (const PolicyConfigError& e) {
        err << "burstsim: " << e.what() << "\n";
        return 2;
    }
    if (o.config.groups.empty() &&
        std::any_of(o.policies.begin(), o.policies.end(), [](const std::string& p) { return p != NeverPolicy::kName; }))
        err << "burstsim: warning: no --group: hiring policies have no cloud to hire from and replay as never\n";
    // Found out before a long run, not after it.
    std::ofstream plot_file;
    if (!o.plot.empty()) {
        plot_file.open(o.plot);
        if (!plot_file) {
            err << "burstsim: cannot write " << o.plot << ": " << std::strerror(errno) << "\n";
            return 1;
        }
    }
    Trace trace;
    try {
        if (!o.workload.empty()) {
            trace = generate_workload(o.workload, o.config.seed);
        } else if (o.workflows.empty()) {
            trace = load_trace(o.trace, o.format, o.all_problems ? SIZE_MAX : TraceReport::kKeptProblems,
                               o.skip_malformed);
        } else {
            std::vector<Workflow> workflows;
            for (const auto& path : o.workflows)
                workflows.push_back(load_workflow(path));
            o.arrivals.seed = o.config.seed;
            trace = workflow_trace(workflows, o.arrivals);
        }
    } catch (const TraceError& e) {
        err << "burstsim: " << e.what() << "\n";
        return 1;
    } catch (const WorkflowError& e) {
        err << "burstsim: " << e.what() << "\n";
        return 1;
    } catch (const WorkloadSpecError& e) {
        err << "burstsim: " << e.what() << "\n";
        return 2;
    }
    if (o.workflows.empty()) {
        err << trace.report.summary() << "\n";
        if (trace.jobs.empty()) {
            err << "burstsim: " << (o.trace.empty() ? o.workload : o.trace) << ": no job to replay\n";
            return 1;
        }
    } else
        err << "workflow arrivals: " << (o.arrivals.count ? o.arrivals.count : o.workflows.size())
            << " workflows drawn from " << o.workflows.size() << " file(s), " << trace.jobs.size() << " jobs\n";
    if (o.default_time > 0)
        err << "default time limit " << plain_number(o.default_time) << " s given to "
            << give_default_time(trace.jobs, o.default_time) << " job(s) without one\n";
    if (o.auto_threads > 0) {
        const TraceScalingReport given = give_trace_scaling(trace.jobs, o.auto_threads, o.config.seed);
        err << "auto threads: " << given.auto_jobs << " job(s) of " << given.categories
            << " categories made --threads=auto, each category's c drawn from Beta(2, 2) and taught to the "
               "thread policy\n";
    }
    if (o.interactive_jobs > 0) {
        const TraceInteractiveReport given = give_interactive(trace.jobs, o.interactive_jobs);
        err << "interactive jobs: " << given.interactive << " of the " << given.candidates
            << " job(s) shaped like a session (at most " << kInteractiveMaxCpus << " CPUs, "
            << plain_number(kInteractiveMaxRuntime / 3600) << " h, no parents) made interactive\n";
    }
    if (o.thread_policy && std::none_of(trace.jobs.begin(), trace.jobs.end(), [](const TraceJob& j) {
            return j.scaling && j.scaling->automatic;
        }))
        err << "burstsim: warning: " << o.thread_policy->origin << ": thread policy " << o.thread_policy->name
            << ": no job of the trace asks for --threads=auto, so every job runs with the CPUs it asked for "
               "(--auto-threads SHARE makes some)\n";
    o.config.local_cores = o.local_cores ? o.local_cores : std::uint32_t(trace.report.max_procs);
    if (o.config.local_cores == 0) {
        err << "burstsim: "
            << (o.workflows.empty() ? (o.trace.empty() ? o.workload : o.trace) + " states no MaxProcs"
                                    : std::string("workflows"))
            << "; give --local-cores\n";
        return 2;
    }
    if (o.config.interactive_cores >= o.config.local_cores) {
        err << "burstsim: " << (o.was_given("--interactive") ? "--interactive " : "--config's Interactive= ")
            << o.config.interactive_cores << ": holds must leave some of the " << o.config.local_cores
            << " local cores to batch work\n";
        return 2;
    }
    if (o.config.interactive_cores > 0 &&
        std::none_of(trace.jobs.begin(), trace.jobs.end(), [](const TraceJob& j) { return j.interactive; }))
        err << "burstsim: warning: Interactive= holds " << o.config.interactive_cores
            << " core(s) and no job of the trace is interactive: the holds only keep cores idle "
               "(--interactive-jobs SHARE makes some)\n";
    auto wf = [&](const SimResult& result) {
        return o.workflows.empty() ? WorkflowMetrics{} : workflow_metrics(trace.jobs, result, o.tau);
    };
    o.config.record_timeline = !o.plot.empty();
    std::vector<PlotPanel> panels;
    Time origin = 0;
    o.reward.tau = o.tau;
    // A row's metrics at its λ: the profit's penalty (and its default
    // R_scale) is the λ the row's policy was tuned for, and its R_scale and
    // local price the policy's reward_scale and local_price where it has
    // them, so that predictive's gate and the metric weigh the same reward;
    // J at other λ comes from objective_at.
    auto metrics_of = [&](const SimResult& result, double lambda, const PolicyParams& params = PolicyParams{}) {
        SimMetrics m = compute_metrics(result, lambda, o.tau, o.budget, o.budget_interval);
        RewardScheme scheme = o.reward;
        scheme.lambda = lambda;
        if (const auto given = params.values().find("reward_scale"); given != params.values().end())
            scheme.reward_scale = std::strtod(given->second.c_str(), nullptr);
        if (const auto given = params.values().find("local_price"); given != params.values().end())
            scheme.local_price = std::strtod(given->second.c_str(), nullptr);
        const RewardProfit profit = reward_profit(trace.jobs, result, scheme);
        m.profit_time = profit.time;
        m.profit_throughput = profit.throughput;
        return m;
    };
    // With `buckets`, the run's bucket counts are left there.
    auto replay = [&](const Run& run, BucketSeries* buckets = nullptr) {
        std::vector<std::string> errors; // none: validated before the trace was read
        PolicyChain chain;
        if (!run.chain.empty())
            chain = make_policy_chain(run.chain, errors);
        else
            chain.push_back(make_policy(run.name, run.params));
        DecisionCycle cycle(std::move(chain), o.thread_policy ? make_thread_stage(*o.thread_policy, errors) : nullptr);
        if (o.auto_threads > 0)
            teach_trace_scaling(cycle.scaling(), trace.jobs);
        if (buckets)
            cycle.count_buckets(BucketSeries(o.bucket_order, o.forecast_tick));
        SimResult result = simulate(o.config, trace.jobs, cycle);
        if (buckets)
            *buckets = std::move(*cycle.buckets());
        return result;
    };
    // What the trace lost to the site's shape: the same in every run.
    std::string dropped;
    auto note_dropped = [&](const SimResult& result) {
        if (dropped.empty())
            dropped = "jobs not replayed (wider than " + std::to_string(o.config.local_cores) + " local cores) " +
                      std::to_string(result.jobs_too_wide) + "; runtimes cut at their limit " +
                      std::to_string(result.runtimes_capped) + "\n";
    };
    // --compare: each run's per-account cost, printed under the table.
    std::ostringstream account_costs;
    auto note_account_costs = [&](const std::string& label, const SimMetrics& m) {
        std::string line;
        for (const auto& [account, cost] : m.account_cost)
            if (cost > 0)
                line += (line.empty() ? "" : ", ") + (account.empty() ? "(boot/idle/billing)" : account) + " " +
                        fixed(cost, 2);
        if (!line.empty())
            account_costs << "cost by account, " << label << ": " << line << "\n";
    };

    std::vector<RatioRow> rows;
    std::vector<SimMetrics> reference(o.lambdas.size());
    std::vector<std::pair<std::string, SimMetrics>> budget_rows;
    auto row = [&](const std::string& label, const SimMetrics& m, int lambda_index, const WorkflowMetrics& w) {
        print_row(out, label, m, o, lambda_index, w);
        if (!o.config.budgets.empty())
            budget_rows.emplace_back(label, m);
    };
    auto record = [&](const std::string& label, int lambda_index, const SimMetrics& m, const SimResult& result) {
        row(label, m, lambda_index, wf(result));
        note_dropped(result);
        note_account_costs(label, m);
        if (o.compare && result.cloud_runs_cut > 0)
            account_costs << "cloud runs cut at their limit on slower nodes, " << label << ": "
                          << result.cloud_runs_cut << "\n";
        if (const std::string interactive = interactive_text(m, o.config); o.compare && !interactive.empty())
            account_costs << label << ": " << interactive << "\n";
        if (const std::string scavenging = scavenger_text(m, o.config); o.compare && !scavenging.empty())
            account_costs << label << ": " << scavenging << "\n";
        if (o.clairvoyant)
            rows.push_back(RatioRow{label, lambda_index, m, cloud_work_bound(o.config, result)});
    };

    // The clairvoyant reference also takes always's run and, per λ, the best
    // fixed delay's and those of every other compared policy but never (its
    // candidates 4): taking only the best policy's, the reference rose
    // whenever a policy improved enough to displace another whose burst set
    // replayed better.  Runs are shared, not copied: a run without a λ of
    // its own serves every λ, and a trace's runs are large.
    struct KeptRun {
        std::string name;
        std::shared_ptr<const SimResult> run;
    };
    std::shared_ptr<const SimResult> always_run;
    std::vector<std::vector<KeptRun>> policy_runs(o.lambdas.size());

    if (o.forecast_eval) {
        try {
            BucketSeries buckets(o.bucket_order, o.forecast_tick);
            replay(runs.front(), &buckets);
            const std::vector<GroupForecastScores> scores =
                evaluate_forecasters(buckets, o.forecasters, o.forecast_training);
            out << "forecast evaluation: " << runs.front().name << " run; bucket order " << o.bucket_order.text()
                << "; tick " << plain_number(o.forecast_tick) << " s; scored after "
                << plain_number(o.forecast_training) << " s of training; lead = measured boot time\n";
            print_forecast_table(out, scores);
        } catch (const SimConfigError& e) {
            err << "burstsim: " << e.what() << "\n";
            return 1;
        } catch (const ForecastEvaluationError& e) {
            err << "burstsim: " << e.what() << "\n";
            return 1;
        }
        return 0;
    }
    print_header(out, o);
    try {
        for (const auto& run : runs) {
            const auto kept = std::make_shared<SimResult>(replay(run));
            SimResult& result = *kept;
            const SimMetrics m = metrics_of(result, run.lambda, run.params);
            if (o.clairvoyant && run.name == AlwaysPolicy::kName && !always_run)
                always_run = kept;
            if (o.clairvoyant && run.name != NeverPolicy::kName && run.name != AlwaysPolicy::kName)
                for (std::size_t k = 0; k < o.lambdas.size(); ++k)
                    if (run.lambda_index < 0 || std::size_t(run.lambda_index) == k)
                        policy_runs[k].push_back(KeptRun{run.name, kept});
            const std::string label =
                run.lambda_index < 0 ? run.name : lambda_label(run.name, o.lambdas[std::size_t(run.lambda_index)]);
            record(label, run.lambda_index, m, result);
            origin = result.first_submit;
            // The plot takes the timeline; the reference reads a kept run's jobs only.
            panels.push_back(PlotPanel{label, std::move(result.timeline)});
            if (o.compare)
                continue;
            out << "\nlambda " << run_lambda_text(run.params, o.lambdas)
                << " per waiting core-hour; waiting core-hours " << m.waiting_core_hours
                << "; median wait " << hours(m.median_wait) << "; cloud core-hours " << m.cloud_core_seconds / 3600
                << "\njobs that ran in the cloud " << m.cloud_jobs << ": wait median " << fixed(m.median_cloud_wait, 0)
                << " s, p95 " << fixed(m.p95_cloud_wait, 0) << " s"
                << "\ninstances launched " << result.instances_launched << ", instance-hours "
                << result.instance_seconds / 3600 << "; decisions " << result.decisions << ", actions applied "
                << result.actions_applied << ", rejected " << result.actions_rejected << ", hire shortfall "
                << result.hire_shortfall << ", thread counts set " << result.threads_set << " (at submission "
                << result.threads_advised << ")"
                << "\nwaste core-hours " << fixed(m.waste_core_seconds / 3600, 1) << ": boot "
                << fixed(m.waste_boot_core_seconds / 3600, 1) << ", idle " << fixed(m.waste_idle_core_seconds / 3600, 1)
                << " (until power-down " << fixed(m.waste_idle_tail_core_seconds / 3600, 1)
                << "), free cores of busy nodes " << fixed(m.waste_partial_core_seconds / 3600, 1)
                << "\nelasticity samples " << result.provisioning.samples << " (and "
                << result.provisioning.beyond_capacity
                << " with demand beyond every core, left out of a_U, a_O, t_U, t_O)\n"
                << dropped;
            if (const std::string interactive = interactive_text(m, o.config); !interactive.empty())
                out << interactive << "\n";
            if (const std::string scavenging = scavenger_text(m, o.config); !scavenging.empty())
                out << scavenging << "\n";
            if (result.cloud_runs_cut > 0)
                out << "cloud runs cut at their limit on slower nodes " << result.cloud_runs_cut
                    << " (Slurm ends them unfinished)\n";
            if (m.interruptions > 0)
                out << "spot interruptions " << m.interruptions << ", jobs requeued " << result.requeued_jobs
                    << ", work lost " << fixed(m.lost_core_seconds / 3600, 2) << " core-hours ("
                    << fixed(m.lost_core_seconds, 0) << " core-s)\n";
            for (std::size_t g = 0; g < result.group_backoff.size(); ++g) {
                const GroupBackoff& b = result.group_backoff[g];
                if (b.capacity_failures > 0 || b.refused_launches > 0)
                    out << "node group " << result.group_names[g] << ": launches failed for capacity "
                        << b.capacity_failures << ", refused while backing off " << b.refused_launches
                        << ", probes " << b.probes << "; breaker opened " << b.breaker_opened << " times, backed off "
                        << fixed(b.backed_off, 0) << " s\n";
            }
            if (result.launch_requeues > 0)
                out << "jobs requeued by failed or refused launches " << result.launch_requeues << "\n";
            if (o.budget > 0)
                out << "budget " << o.budget << " per " << o.budget_interval << " s exceeded in "
                    << m.budget_violations << " of " << m.budget_intervals << " intervals; most spent in one "
                    << m.max_interval_spend << "\n";
            if (!o.config.budgets.empty()) {
                print_budget_lines(out, {{label, m}}, true);
                out << "budget cap notes " << result.budget_notes << (result.budget_notes ? ", first:" : "") << "\n";
                for (const auto& note : result.first_budget_notes)
                    out << "  " << note << "\n";
            }
            if (!o.workflows.empty()) {
                const WorkflowMetrics w = wf(result);
                out << "workflows " << w.workflows << ": mean response " << hours(w.mean_response)
                    << ", slowdown mean " << w.mean_slowdown << " median " << w.median_slowdown << " p95 "
                    << w.p95_slowdown << "\n";
            }
            for (const auto& [account, cost] : m.account_cost)
                if (cost > 0)
                    out << "cost " << (account.empty() ? "(boot/idle/billing)" : account) << " " << cost << "\n";
        }
        // fixed-delay does not depend on λ: one replay per delay serves every
        // λ.  Per λ, the best delay's grid index, metrics at that λ, workflow
        // metrics and, for the reference, its lower bound and run.
        struct BestDelay {
            std::size_t index = 0;
            SimMetrics metrics;
            WorkflowMetrics wf;
            CloudWorkBound bound;
            std::shared_ptr<const SimResult> run;
        };
        std::vector<BestDelay> best_delay(o.tune_delay ? o.lambdas.size() : 0);
        for (std::size_t i = 0; o.tune_delay && i < o.delay_grid.size(); ++i) {
            PolicyParams params = params_for("fixed-delay", o.params);
            params.set("delay", fixed(o.delay_grid[i], 0));
            const auto result = std::make_shared<const SimResult>(replay(Run{"fixed-delay", -1, params, 0, {}}));
            const SimMetrics m = metrics_of(*result, o.lambdas.front());
            const CloudWorkBound bound = o.clairvoyant ? cloud_work_bound(o.config, *result) : CloudWorkBound{};
            const WorkflowMetrics workflows = wf(*result);
            for (std::size_t k = 0; k < o.lambdas.size(); ++k)
                if (i == 0 || objective_at(m, o.lambdas[k]) < objective_at(best_delay[k].metrics, o.lambdas[k]))
                    best_delay[k] = BestDelay{i, k == 0 ? m : metrics_of(*result, o.lambdas[k]), workflows, bound,
                                              o.clairvoyant ? result : nullptr};
        }
        for (std::size_t k = 0; k < best_delay.size(); ++k) {
            const BestDelay& best = best_delay[k];
            const std::string label =
                "best-delay(lambda=" + plain_number(o.lambdas[k]) + ",W=" + fixed(o.delay_grid[best.index], 0) + "s)";
            row(label, best.metrics, int(k), best.wf);
            note_account_costs(label, best.metrics);
            if (o.clairvoyant)
                rows.push_back(RatioRow{label, int(k), best.metrics, best.bound});
        }
        if (o.clairvoyant) {
            auto never = make_policy("never", PolicyParams{});
            const SimResult no_burst = simulate(o.config, trace.jobs, *never);
            for (std::size_t k = 0; k < o.lambdas.size(); ++k) {
                std::vector<Baseline> baselines;
                if (always_run)
                    baselines.push_back(Baseline{"always", *always_run});
                if (o.tune_delay)
                    baselines.push_back(Baseline{"best-delay", *best_delay[k].run});
                for (const auto& policy : policy_runs[k])
                    baselines.push_back(Baseline{policy.name, *policy.run});
                ClairvoyantRun ref = clairvoyant_reference(o.config, trace.jobs, no_burst, o.lambdas[k],
                                                           o.clairvoyant_iterations, baselines, o.tau);
                reference[k] = ref.metrics;
                const SimMetrics m = metrics_of(ref.result, o.lambdas[k]);
                record(lambda_label("clairvoyant", o.lambdas[k]) + "[" + ref.candidate + "]", int(k), m, ref.result);
            }
            std::vector<std::optional<double>> bounds(o.lambdas.size());
            for (std::size_t k = 0; k < o.lambdas.size(); ++k)
                bounds[k] = objective_bound(o.config, trace.jobs, o.lambdas[k],
                                            objective_at(reference[k], o.lambdas[k]));
            print_ratios(out, o, rows, reference, bounds);
        }
        if (o.compare)
            out << "\n" << dropped << account_costs.str();
    } catch (const SimConfigError& e) {
        err << "burstsim: " << e.what() << "\n";
        return 1;
    } catch (const PolicyConfigError& e) {
        err << "burstsim: " << e.what() << "\n";
        return 2;
    }
    if (o.compare && !budget_rows.empty())
        print_budget_lines(out, budget_rows, false);
    if (!o.plot.empty()) {
        const std::string source = !o.trace.empty() ? o.trace : !o.workload.empty() ? o.workload : "workflows";
        plot_file << render_plot_svg(source.substr(source.find_last_of('/') + 1) + ": demand, supply and cloud nodes",
                                     origin, panels);
        if (!plot_file.flush()) {
            err << "burstsim: cannot write " << o.plot << "\n";
            return 1;
        }
    }
    return 0;
}

} // namespace burst
