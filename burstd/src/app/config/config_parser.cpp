#include "app/config/config_parser.hpp"

#include "app/config/config_line_lexer.hpp"
#include "common/config_values.hpp"
#include "model/hostlist.hpp"
#include "model/gres.hpp"
#include "policy/warm/warm_pool_policy.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <sys/un.h>

namespace burst {
namespace {

const std::vector<std::string> kGlobalKeys = {
    "ClusterName", "SocketPath", "ControlSocket", "StateDir",  "LedgerPath", "LogLevel",
    "MetricsPort", "CycleInterval", "BurstdId",   "SlurmConf", "SlurmUser", "EarlyLaunch",
    "ReconcileEvery", "ObjectiveLambda", "PlaceholderQOS", "ScavengerQOS", "PartialJobLaunch",
    "Interactive", "InteractiveQOS", "InteractiveHoldQOS", "ScavengeWarmNodes",
};
const std::vector<std::string> kSectionKeys = {"Provider", "NodeGroup", "Policy", "ThreadPolicy", "Budget"};
const std::vector<std::string> kProviderTypes = {"local", "aws", "gcp", "azure", "openstack"};
const std::vector<std::string> kNodeGroupKeys = {
    "Provider", "Nodes", "Partition", "InstanceTypes", "Zones", "Cpus",  "MemoryMB", "Gres",
    "PricePerHour", "Billing", "MinBilled", "BootTime", "MaxCount", "Speed", "Spot",
    "CapacityErrors", "CoolDown", "MaxCoolDown", "QuotaCoolDown", "BootFailures",
};
const std::vector<std::string> kBudgetKeys = {"Amount", "Interval"};

std::string in_quotes(const std::string& s) { return "\"" + s + "\""; }

bool valid_name(const std::string& s)
{
    if (s.empty())
        return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
            return false;
    return true;
}

// The pairs of one line after its leading section key, looked up by
// case-insensitive key; every lookup and every leftover is reported against
// the section's "file:line: Section=name: " prefix.
class SectionReader {
public:
    SectionReader(const ConfigLine& line, std::string prefix, std::vector<std::string>& errors)
        : prefix_(std::move(prefix)), errors_(errors)
    {
        for (std::size_t i = 1; i < line.pairs.size(); ++i) {
            const auto& p = line.pairs[i];
            if (!values_.emplace(p.key, p.value).second)
                error(p.key + ": given twice");
        }
    }

    void error(const std::string& message) { errors_.push_back(prefix_ + message); }
    void expected(const std::string& key, const std::string& what, const std::string& got)
    {
        error(key + ": expected " + what + ", got " + in_quotes(got));
    }

    std::optional<std::string> take(const std::string& key)
    {
        auto it = values_.find(key);
        if (it == values_.end())
            return std::nullopt;
        std::string v = it->second;
        values_.erase(it);
        return v;
    }
    std::optional<std::string> require(const std::string& key)
    {
        auto v = take(key);
        if (!v)
            error(key + "= is required");
        return v;
    }

    template <class Parse>
    void take_into(const std::string& key, const std::string& what, Parse parse)
    {
        if (auto v = take(key))
            if (!parse(*v))
                expected(key, what, *v);
    }

    void reject_leftovers(const std::vector<std::string>& known)
    {
        for (const auto& [key, value] : values_) {
            std::string hint = closest_match(key, known);
            error("unknown key " + key + (hint.empty() ? "" : " (did you mean " + hint + "?)") +
                  "; known keys: " + joined(known));
        }
        values_.clear();
    }
    ParamMap rest()
    {
        ParamMap out = std::move(values_);
        values_.clear();
        return out;
    }

private:
    std::string prefix_;
    std::vector<std::string>& errors_;
    ParamMap values_;
};

class ConfigParser {
public:
    explicit ConfigParser(std::string file) : file_(std::move(file)) {}

    ConfigParseResult run(std::string_view text)
    {
        LexedConfig lexed = lex_config(text, file_);
        errors_ = std::move(lexed.errors);
        for (const auto& line : lexed.lines)
            parse_line(line);
        finish();
        ConfigParseResult result;
        result.config = std::move(config_);
        result.errors = std::move(errors_);
        return result;
    }

private:
    std::string where(std::size_t line) const { return file_ + ":" + std::to_string(line); }

    void parse_line(const ConfigLine& line)
    {
        const std::string& first = line.pairs.front().key;
        if (iequals(first, "Provider"))
            parse_provider(line);
        else if (iequals(first, "NodeGroup"))
            parse_node_group(line);
        else if (iequals(first, "Policy"))
            parse_policy(line);
        else if (iequals(first, "ThreadPolicy"))
            parse_thread_policy(line);
        else if (iequals(first, "Budget"))
            parse_budget(line);
        else
            for (const auto& pair : line.pairs)
                parse_global(line.number, pair);
    }

    void parse_global(std::size_t number, const ConfigPair& pair)
    {
        std::string prefix = where(number) + ": ";
        std::string canonical;
        for (const auto& k : kGlobalKeys)
            if (iequals(k, pair.key))
                canonical = k;
        if (canonical.empty()) {
            bool section = false;
            for (const auto& k : kSectionKeys)
                section = section || iequals(k, pair.key);
            if (section) {
                errors_.push_back(prefix + pair.key + "= must be the first key on its line");
                return;
            }
            std::vector<std::string> known = kGlobalKeys;
            known.insert(known.end(), kSectionKeys.begin(), kSectionKeys.end());
            std::string hint = closest_match(pair.key, known);
            errors_.push_back(prefix + "unknown key " + pair.key +
                              (hint.empty() ? "" : " (did you mean " + hint + "?)"));
            return;
        }
        auto seen = global_lines_.emplace(canonical, number);
        if (!seen.second) {
            errors_.push_back(prefix + canonical + ": already set at " + where(seen.first->second));
            return;
        }
        const std::string& v = pair.value;
        auto expected = [&](const std::string& what) {
            errors_.push_back(prefix + canonical + ": expected " + what + ", got " + in_quotes(v));
        };
        auto path = [&](std::string& into, bool socket) {
            if (v.empty() || v[0] != '/')
                expected("an absolute path");
            else if (socket && v.size() >= sizeof(sockaddr_un{}.sun_path))
                expected("a path shorter than " + std::to_string(sizeof(sockaddr_un{}.sun_path)) +
                         " bytes (UNIX socket limit)");
            else
                into = v;
        };
        if (canonical == "ClusterName") {
            if (!valid_name(v))
                expected("a cluster name (letters, digits, '-', '_', '.')");
            config_.cluster_name = v;
        } else if (canonical == "SocketPath") {
            path(config_.socket_path, true);
        } else if (canonical == "ControlSocket") {
            path(config_.control_socket, true);
        } else if (canonical == "StateDir") {
            path(config_.state_dir, false);
        } else if (canonical == "LedgerPath") {
            path(config_.ledger_path, false);
        } else if (canonical == "SlurmConf") {
            path(config_.slurm_conf, false);
        } else if (canonical == "LogLevel") {
            if (auto l = parse_log_level(v))
                config_.log_level = *l;
            else
                expected("one of error, info, verbose, debug");
        } else if (canonical == "MetricsPort") {
            if (auto p = parse_unsigned(v, 65535))
                config_.metrics_port = std::uint16_t(*p);
            else
                expected("a port number 0-65535 (0 disables metrics)");
        } else if (canonical == "CycleInterval") {
            auto d = parse_duration(v);
            if (d && *d >= 1)
                config_.cycle_interval = *d;
            else
                expected("a duration of at least 1 second (e.g. 30, 30s, 2m)");
        } else if (canonical == "ReconcileEvery") {
            if (auto n = parse_unsigned(v, 1000000); n && *n >= 1)
                config_.reconcile_every = std::uint32_t(*n);
            else
                expected("a number of cycles, at least 1");
        } else if (canonical == "EarlyLaunch") {
            auto d = parse_duration(v);
            if (d && *d >= 0)
                config_.early_launch = *d;
            else
                expected("a duration (e.g. 10, 10s; 0 leaves every launch to ResumeProgram)");
        } else if (canonical == "ObjectiveLambda") {
            if (auto l = parse_non_negative_number(v))
                config_.objective_lambda = *l;
            else
                expected("a non-negative number (money per core-hour of waiting)");
        } else if (canonical == "BurstdId") {
            if (!valid_name(v))
                expected("an identifier (letters, digits, '-', '_', '.')");
            config_.burstd_id = v;
        } else if (canonical == "SlurmUser") {
            if (!valid_name(v))
                expected("a user name");
            config_.slurm_user = v;
        } else if (canonical == "PartialJobLaunch") {
            if (auto what = parse_partial_job_launch(v))
                config_.partial_job_launch = *what;
            else
                expected("requeue or hold");
        } else if (canonical == "ScavengeWarmNodes") {
            if (auto b = parse_bool(v))
                config_.scavenge_warm_nodes = *b;
            else
                expected("yes or no");
        } else if (canonical == "PlaceholderQOS" || canonical == "ScavengerQOS" ||
                   canonical == "InteractiveQOS" || canonical == "InteractiveHoldQOS") {
            std::string& qos = canonical == "PlaceholderQOS"   ? config_.standby_qos.placeholder
                               : canonical == "ScavengerQOS"   ? config_.standby_qos.scavenger
                               : canonical == "InteractiveQOS" ? config_.interactive_qos
                                                               : config_.standby_qos.interactive_hold;
            if (!valid_name(v))
                expected("a QOS name (letters, digits, '-', '_', '.')");
            else
                qos = v;
        } else if (canonical == "Interactive") {
            parse_interactive(v, expected);
        }
    }

    // PARTITION:CORES[,PARTITION:CORES...], each partition once.
    template <class Expected>
    void parse_interactive(const std::string& v, const Expected& expected)
    {
        std::vector<InteractiveReserve> reserves;
        std::size_t start = 0;
        while (start <= v.size()) {
            const std::size_t end = std::min(v.find(',', start), v.size());
            const std::string entry = v.substr(start, end - start);
            const std::size_t colon = entry.find(':');
            const std::string partition = entry.substr(0, colon);
            const auto cores = colon == std::string::npos ? std::nullopt
                                                          : parse_unsigned(entry.substr(colon + 1), 1000000);
            if (!valid_name(partition) || !cores || *cores == 0) {
                expected("PARTITION:CORES[,PARTITION:CORES...] with at least one core each (e.g. debug:4)");
                return;
            }
            for (const auto& r : reserves)
                if (r.partition == partition) {
                    expected("each partition once (" + partition + " twice)");
                    return;
                }
            reserves.push_back(InteractiveReserve{partition, std::uint32_t(*cores)});
            start = end + 1;
        }
        config_.interactive = std::move(reserves);
    }

    // Checks the section's own name; returns the "file:line: Section=name: " prefix.
    std::string section_prefix(const ConfigLine& line, const char* section, bool allow_star = false)
    {
        const std::string& name = line.pairs.front().value;
        std::string prefix = where(line.number) + ": " + section + "=" + name + ": ";
        if (!(valid_name(name) || (allow_star && name == "*")))
            errors_.push_back(where(line.number) + ": " + section + ": expected a name (letters, digits, '-', '_', '.')" +
                              (allow_star ? " or \"*\"" : "") + ", got " + in_quotes(name));
        return prefix;
    }

    void check_unique(std::map<std::string, std::size_t>& seen, const ConfigLine& line, const char* section)
    {
        const std::string& name = line.pairs.front().value;
        auto it = seen.emplace(name, line.number);
        if (!it.second)
            errors_.push_back(where(line.number) + ": " + section + "=" + name + ": already defined at " +
                              where(it.first->second));
    }

    void parse_provider(const ConfigLine& line)
    {
        std::string prefix = section_prefix(line, "Provider");
        check_unique(provider_lines_, line, "Provider");
        SectionReader r(line, prefix, errors_);
        ProviderConfig p;
        p.name = line.pairs.front().value;
        p.origin = where(line.number);
        if (auto type = r.require("Type")) {
            for (const auto& t : kProviderTypes)
                if (iequals(t, *type))
                    p.type = t;
            if (p.type.empty())
                r.expected("Type", "one of " + joined(kProviderTypes), *type);
        }
        r.take_into("CredentialsFile", "an absolute path", [&](const std::string& v) {
            p.credentials_file = v;
            return !v.empty() && v[0] == '/';
        });
        if (auto region = r.take("Region"))
            p.region = *region;
        r.take_into("LaunchAttempts", "an integer from 1 to 20 (calls in all, the first included)",
                    [&](const std::string& v) {
                        auto n = parse_unsigned(v, 20);
                        if (n && *n >= 1)
                            p.retry.attempts = std::uint32_t(*n);
                        return n && *n >= 1;
                    });
        auto positive_duration = [](Seconds& into) {
            return [&into](const std::string& v) {
                auto d = parse_duration(v);
                if (d && *d > 0)
                    into = *d;
                return d && *d > 0;
            };
        };
        r.take_into("RetryBaseDelay", "a positive duration (e.g. 1, 1s, 2s)",
                    positive_duration(p.retry.base_delay));
        r.take_into("RetryMaxDelay", "a positive duration (e.g. 60, 1m)", positive_duration(p.retry.max_delay));
        if (p.retry.max_delay < p.retry.base_delay)
            r.error("RetryMaxDelay: expected at least RetryBaseDelay (" + std::to_string(int(p.retry.base_delay)) +
                    " s), got " + std::to_string(int(p.retry.max_delay)) + " s");
        p.params = r.rest();
        config_.providers.push_back(std::move(p));
    }

    void parse_node_group(const ConfigLine& line)
    {
        std::string prefix = section_prefix(line, "NodeGroup");
        check_unique(group_lines_, line, "NodeGroup");
        SectionReader r(line, prefix, errors_);
        NodeGroup g;
        g.name = line.pairs.front().value;
        if (auto provider = r.require("Provider"))
            g.provider = *provider;
        if (auto nodes = r.require("Nodes")) {
            try {
                g.nodes = expand_hostlist(*nodes);
                if (g.nodes.empty())
                    r.expected("Nodes", "a non-empty hostlist", *nodes);
            } catch (const HostlistError& e) {
                r.error(std::string("Nodes: expected a hostlist like c[1-16]: ") + e.what());
            }
        }
        if (auto partition = r.require("Partition")) {
            if (valid_name(*partition))
                g.partition = *partition;
            else
                r.expected("Partition", "a partition name", *partition);
        }
        r.take_into("InstanceTypes", "a comma-separated list of instance types", [&](const std::string& v) {
            auto l = parse_list(v);
            if (l)
                g.instance_types = *l;
            return l.has_value();
        });
        r.take_into("Zones", "a comma-separated list of zones", [&](const std::string& v) {
            auto l = parse_list(v);
            if (l)
                g.zones = *l;
            return l.has_value();
        });
        if (auto cpus = r.require("Cpus")) {
            auto c = parse_unsigned(*cpus, 1u << 20);
            if (c && *c > 0)
                g.cpus = std::uint32_t(*c);
            else
                r.expected("Cpus", "a positive integer", *cpus);
        }
        r.take_into("MemoryMB", "a non-negative integer (MiB)", [&](const std::string& v) {
            auto m = parse_unsigned(v, std::uint64_t(1) << 40);
            if (m)
                g.memory_mb = *m;
            return m.has_value();
        });
        r.take_into("Gres", "generic resources as slurm.conf writes them (e.g. gpu:a100:4,mps:400)",
                    [&](const std::string& v) {
                        try {
                            parse_node_gres(v);
                        } catch (const std::invalid_argument&) {
                            return false;
                        }
                        g.gres = v;
                        return true;
                    });
        if (auto price = r.require("PricePerHour")) {
            if (auto p = parse_non_negative_number(*price))
                g.price_per_hour = *p;
            else
                r.expected("PricePerHour", "a non-negative number", *price);
        }
        r.take_into("Billing", "per-second or per-hour", [&](const std::string& v) {
            if (iequals(v, "per-second"))
                g.billing = Billing::PerSecond;
            else if (iequals(v, "per-hour"))
                g.billing = Billing::PerHour;
            else
                return false;
            return true;
        });
        auto duration_into = [&](Seconds& into) {
            return [&into](const std::string& v) {
                auto d = parse_duration(v);
                if (d)
                    into = *d;
                return d.has_value();
            };
        };
        r.take_into("MinBilled", "a duration (e.g. 60, 60s, 1m)", duration_into(g.min_billed));
        r.take_into("BootTime", "a duration (e.g. 90, 90s, 2m)", duration_into(g.boot_time));
        r.take_into("MaxCount", "a non-negative integer", [&](const std::string& v) {
            auto m = parse_unsigned(v, 1u << 20);
            if (m)
                g.max_count = std::uint32_t(*m);
            return m.has_value();
        });
        r.take_into("Speed", "a positive number", [&](const std::string& v) {
            auto s = parse_non_negative_number(v);
            if (s && *s > 0)
                g.speed = *s;
            return s && *s > 0;
        });
        r.take_into("Spot", "yes or no", [&](const std::string& v) {
            auto b = parse_bool(v);
            if (b)
                g.spot = *b;
            return b.has_value();
        });
        r.take_into("CapacityErrors", "a positive integer", [&](const std::string& v) {
            auto n = parse_unsigned(v, 1000);
            if (n && *n >= 1)
                g.recovery.capacity_errors = std::uint32_t(*n);
            return n && *n >= 1;
        });
        r.take_into("BootFailures", "a positive integer", [&](const std::string& v) {
            auto n = parse_unsigned(v, 1000);
            if (n && *n >= 1)
                g.recovery.boot_failures = std::uint32_t(*n);
            return n && *n >= 1;
        });
        auto cool_down_into = [&](Seconds& into) {
            return [&into](const std::string& v) {
                auto d = parse_duration(v);
                if (d && *d >= 1)
                    into = *d;
                return d && *d >= 1;
            };
        };
        r.take_into("CoolDown", "a duration of at least 1 second (e.g. 60, 1m)", cool_down_into(g.recovery.cool_down));
        r.take_into("MaxCoolDown", "a duration of at least 1 second (e.g. 30m)",
                    cool_down_into(g.recovery.max_cool_down));
        r.take_into("QuotaCoolDown", "a duration of at least 1 second (e.g. 1h)",
                    cool_down_into(g.recovery.quota_cool_down));
        if (g.recovery.max_cool_down < g.recovery.cool_down)
            r.error("MaxCoolDown: expected at least CoolDown (" + std::to_string(int(g.recovery.cool_down)) +
                    " s), got " + std::to_string(int(g.recovery.max_cool_down)) + " s");
        r.reject_leftovers(kNodeGroupKeys);
        if (g.max_count > g.nodes.size() && !g.nodes.empty())
            r.error("MaxCount: expected at most the " + std::to_string(g.nodes.size()) + " nodes listed, got " +
                    in_quotes(std::to_string(g.max_count)));
        config_.node_groups.push_back(std::move(g));
        config_.node_group_origins.push_back(where(line.number));
    }

    void parse_policy(const ConfigLine& line)
    {
        std::string prefix = section_prefix(line, "Policy");
        check_unique(policy_lines_, line, "Policy");
        SectionReader r(line, prefix, errors_);
        PolicySpec p;
        p.name = line.pairs.front().value;
        p.params = r.rest();
        p.origin = where(line.number);
        config_.policies.push_back(std::move(p));
    }

    void parse_thread_policy(const ConfigLine& line)
    {
        std::string prefix = section_prefix(line, "ThreadPolicy");
        if (config_.thread_policy)
            errors_.push_back(prefix + "a second ThreadPolicy line (the first is at " + config_.thread_policy->origin +
                              "): a site has one thread policy");
        SectionReader r(line, prefix, errors_);
        PolicySpec p;
        p.name = line.pairs.front().value;
        p.params = r.rest();
        p.origin = where(line.number);
        if (!config_.thread_policy)
            config_.thread_policy = std::move(p);
    }

    void parse_budget(const ConfigLine& line)
    {
        std::string prefix = section_prefix(line, "Budget", true);
        check_unique(budget_lines_, line, "Budget");
        SectionReader r(line, prefix, errors_);
        BudgetConfig b;
        b.account = line.pairs.front().value;
        b.origin = where(line.number);
        if (auto amount = r.require("Amount")) {
            if (auto a = parse_non_negative_number(*amount))
                b.amount = *a;
            else
                r.expected("Amount", "a non-negative number", *amount);
        }
        if (auto interval = r.require("Interval")) {
            auto d = parse_duration(*interval);
            if (d && *d >= 60)
                b.interval = *d;
            else
                r.expected("Interval", "a duration of at least a minute (e.g. day, week, 30d, 12h)", *interval);
        }
        r.reject_leftovers(kBudgetKeys);
        config_.budgets.push_back(std::move(b));
    }

    // Checks that need the whole file: references between sections, overlaps, defaults.
    void finish()
    {
        if (config_.cluster_name.empty() && !global_lines_.count("ClusterName"))
            errors_.push_back(file_ + ": ClusterName= is required (it must match slurm.conf's ClusterName)");
        if (config_.burstd_id.empty())
            config_.burstd_id = config_.cluster_name;
        if (config_.ledger_path.empty())
            config_.ledger_path = config_.state_dir + "/ledger.sqlite";
        if (config_.socket_path == config_.control_socket)
            errors_.push_back(file_ + ": SocketPath and ControlSocket: expected two different paths, got " +
                              in_quotes(config_.socket_path) + " for both");
        const StandbyQos& standby = config_.standby_qos;
        const std::pair<const char*, const std::string*> qos_keys[] = {
            {"PlaceholderQOS", &standby.placeholder},
            {"ScavengerQOS", &standby.scavenger},
            {"InteractiveHoldQOS", &standby.interactive_hold},
            {"InteractiveQOS", &config_.interactive_qos}};
        for (std::size_t i = 0; i < std::size(qos_keys); ++i)
            for (std::size_t j = i + 1; j < std::size(qos_keys); ++j)
                if (!qos_keys[i].second->empty() && *qos_keys[i].second == *qos_keys[j].second)
                    errors_.push_back(file_ + ": " + qos_keys[i].first + " and " + qos_keys[j].first +
                                      ": expected two different QOS, got " + in_quotes(*qos_keys[i].second) +
                                      " for both");
        if (!config_.interactive.empty() && (standby.interactive_hold.empty() || config_.interactive_qos.empty()))
            errors_.push_back(where(global_lines_.at("Interactive")) +
                              ": Interactive= keeps cores with hold jobs that only interactive jobs preempt: "
                              "InteractiveHoldQOS= and InteractiveQOS= are required");
        if (config_.scavenge_warm_nodes && (standby.scavenger.empty() || standby.placeholder.empty()))
            errors_.push_back(where(global_lines_.at("ScavengeWarmNodes")) +
                              ": ScavengeWarmNodes=yes puts scavenger jobs on the nodes placeholders hold: "
                              "ScavengerQOS= and PlaceholderQOS= are required");
        for (const auto& policy : config_.policies)
            if (policy.name == WarmPoolPolicy::kName && standby.placeholder.empty())
                errors_.push_back(policy.origin + ": Policy=warm holds warm nodes with placeholder jobs: "
                                  "PlaceholderQOS= is required (a QOS that every real job may preempt)");

        std::vector<std::string> provider_names;
        for (const auto& p : config_.providers)
            provider_names.push_back(p.name);
        std::map<std::string, std::size_t> owner; // node -> group index
        for (std::size_t i = 0; i < config_.node_groups.size(); ++i) {
            const NodeGroup& g = config_.node_groups[i];
            std::string prefix = config_.node_group_origins[i] + ": NodeGroup=" + g.name + ": ";
            const ProviderConfig* provider = g.provider.empty() ? nullptr : config_.provider(g.provider);
            if (!g.provider.empty() && !provider) {
                std::string hint = closest_match(g.provider, provider_names);
                errors_.push_back(prefix + "Provider: expected the name of a Provider= line, got " + in_quotes(g.provider) +
                                  (hint.empty() ? "" : " (did you mean " + hint + "?)") +
                                  (provider_names.empty() ? "; no Provider= line is defined"
                                                          : "; defined: " + joined(provider_names)));
            }
            // A local provider runs a process or container per node; only clouds sell instance types.
            if (g.instance_types.empty() && provider && !provider->type.empty() && provider->type != "local")
                errors_.push_back(prefix + "InstanceTypes= is required for a " + provider->type + " provider");
            // AWS places instances in its subnets' zones within one CreateFleet; local has none.
            if (!g.zones.empty() && provider && (provider->type == "local" || provider->type == "aws"))
                errors_.push_back(prefix + "Zones= is not for a " + provider->type + " provider" +
                                  (provider->type == "aws" ? " (its SubnetIds= choose the Availability Zones)" : ""));
            std::map<std::size_t, std::vector<std::string>> shared;
            for (const auto& n : g.nodes) {
                auto it = owner.emplace(n, i);
                if (!it.second && it.first->second != i)
                    shared[it.first->second].push_back(n);
                else if (!it.second)
                    shared[i].push_back(n);
            }
            for (const auto& [other, nodes] : shared) {
                if (other == i)
                    errors_.push_back(prefix + "Nodes: lists " + compress_hostlist(nodes) + " more than once");
                else
                    errors_.push_back(prefix + "Nodes: " + compress_hostlist(nodes) + " also belong to NodeGroup=" +
                                      config_.node_groups[other].name + " (" + config_.node_group_origins[other] + ")");
            }
        }
    }

    std::string file_;
    BurstdConfig config_;
    std::vector<std::string> errors_;
    std::map<std::string, std::size_t> global_lines_;
    std::map<std::string, std::size_t> provider_lines_, group_lines_, policy_lines_, budget_lines_;
};

} // namespace

ConfigParseResult parse_config(std::string_view text, const std::string& file)
{
    return ConfigParser(file).run(text);
}

ConfigParseResult load_config(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        ConfigParseResult result;
        result.errors.push_back(path + ": is a directory, not a configuration file");
        return result;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ConfigParseResult result;
        result.errors.push_back(path + ": cannot read: " + std::strerror(errno));
        return result;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parse_config(text.str(), path);
}

} // namespace burst
