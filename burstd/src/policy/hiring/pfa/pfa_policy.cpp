#include "policy/hiring/pfa/pfa_policy.hpp"

#include "policy/cost/billing_boundary.hpp"
#include "policy/site/group_choice.hpp"
#include "policy/site/node_instances.hpp"
#include "policy/reason_text.hpp"
#include "policy/hiring/pfa/resource_profile.hpp"
#include "policy/site/site_view.hpp"
#include "policy/hiring/pfa/token_waves.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <unordered_map>

namespace burst {
namespace {

// "name=value" per group, as the notes word them.
void append_counts(std::string& s, const std::vector<std::uint32_t>& n, const std::vector<std::string>& names)
{
    for (std::size_t i = 0; i < n.size(); ++i) {
        if (i)
            s += ' ';
        s += names[i];
        s += '=';
        s += std::to_string(n[i]);
    }
}

// The cores of a local node that serve the site's demand: all of a usable
// one's, and those Slurm counts allocated on one it drained or lost under
// its jobs (the running ones count in the demand).
std::uint64_t serving_cores(const Node& node)
{
    return node.usable() ? node.cpus : std::min(node.alloc_cpus, node.cpus);
}

} // namespace

PfaPolicy::PfaPolicy(PolicyParams& params)
    : budget_(params.get_double("budget", 100, 0, 1e12)),
      interval_(params.get_duration("interval", 3600, 1, 366 * 86400.0)),
      per_account_(params.get_choice("scope", "site", {"site", "account"}) == "account"),
      split_([&] {
          const std::string s = params.get_choice("split", "fairshare", {"fairshare", "shares", "equal"});
          return s == "fairshare" ? BudgetSplit::FairShare : s == "shares" ? BudgetSplit::Shares : BudgetSplit::Equal;
      }()),
      smoothing_(params.get_choice("smoothing", "ma", {"ma", "ewma"}) == "ma" ? Smoothing::MovingAverage
                                                                                : Smoothing::Ewma),
      depth_(params.get_uint("depth", 10, 0, 100000)),
      alpha_(params.get_double("alpha", 0.7, 0, 0.999999)),
      release_window_(params.get_duration("release_window", 60, 0, 366 * 86400.0)),
      expander_(make_expander(params.get_choice("expander", "least-waste", expander_names()))),
      gate_(params.get_double("lambda", HUGE_VAL, 0, 1e9))
{
    params.given_only_with("split", !per_account_, "scope=site");
    params.given_only_with("depth", smoothing_ == Smoothing::MovingAverage, "smoothing=ma");
    params.given_only_with("alpha", smoothing_ == Smoothing::Ewma, "smoothing=ewma");
}

void PfaPolicy::observe(const JobEnd& end)
{
    if (!gate_.off())
        waits_.observe(end);
    // burstsim names the group; burstd's job_end events carry the nodes.
    std::string group = end.node_group;
    if (group.empty() && !end.nodes.empty()) {
        auto it = group_of_node_.find(end.nodes.front());
        if (it != group_of_node_.end())
            group = it->second;
    }
    if (!group.empty())
        completed_[group] += double(end.cpus);
}

void PfaPolicy::follow_groups(const ClusterState& state)
{
    const bool same_groups = std::equal(group_names_.begin(), group_names_.end(), state.groups.begin(),
                                        state.groups.end(),
                                        [](const std::string& name, const NodeGroup& g) { return name == g.name; });
    if (same_groups)
        return;
    // New or reordered groups (a reload): old throughputs no longer line up.
    group_names_.clear();
    for (const auto& g : state.groups)
        group_names_.push_back(g.name);
    profile_.emplace(state.groups.size(), smoothing_, depth_, alpha_);
    started_ = false;
    group_of_node_.clear();
    for (const auto& g : state.groups)
        for (const auto& n : g.nodes)
            group_of_node_.emplace(n, g.name);
}

bool PfaPolicy::quiet(const ClusterState& state)
{
    if (!gate_.off())
        return false;
    for (const auto& inst : state.instances)
        if (inst.open())
            return false;
    const std::vector<int>& group_of = group_index_.of(state);
    std::uint64_t local_cpus = 0;
    for (std::size_t i = 0; i < state.snapshot.nodes.size(); ++i) {
        const Node& node = state.snapshot.nodes[i];
        if (group_of[i] >= 0) {
            // On as SiteView counts it: booting, or up.
            if (!node.has(kNodePoweredDown) && !node.has(kNodePoweringDown) &&
                (node.has(kNodePoweringUp) || node.usable()))
                return false;
        } else if (!node.cloud()) {
            local_cpus += serving_cores(node);
        }
    }
    std::uint64_t running_cpus = 0;
    for (const Job& job : state.snapshot.jobs) {
        if (job.pending() && (!job.blocked() || job.awaiting_dependency()))
            return false;
        if (job.running())
            running_cpus += job.total_cpus();
    }
    return running_cpus <= local_cpus;
}

void PfaPolicy::close_interval(const std::vector<double>& on_cores)
{
    // Eq. 5 over the interval (the mean of its two ends' powered-on cores).
    std::vector<double> tau(group_names_.size(), 0.0);
    for (std::size_t g = 0; g < group_names_.size(); ++g) {
        const double on = (last_on_cores_[g] + on_cores[g]) / 2;
        if (auto c = completed_.find(group_names_[g]); c != completed_.end() && on > 0)
            tau[g] = c->second / on;
    }
    profile_->record(tau);
    completed_.clear();
}

Decision PfaPolicy::decide(const ClusterState& state, const Clock& clock)
{
    Decision d;
    const Time now = d.time = clock.now();
    if (state.groups.empty()) {
        d.notes.push_back("pfa: no node groups");
        return d;
    }
    const std::size_t G = state.groups.size();
    follow_groups(state);
    if (quiet(state)) {
        // What the steps below would come to, without their bookkeeping:
        // the demand of jobs running locally is met by local cores, so no
        // account's profile wants a cloud core; nothing is on to release or
        // to route to.  The interval still closes.
        quiet_on_cores_.assign(G, 0.0);
        if (started_)
            close_interval(quiet_on_cores_);
        started_ = true;
        last_on_cores_ = quiet_on_cores_;
        idle_since_.clear();
        return d;
    }
    SiteView& view = site_.build(state);
    for (auto& note : view.needs_notes())
        d.notes.push_back(std::move(note));
    if (!gate_.off())
        gate_.observe(state);

    // What is powered on (and billed) per group: Slurm's view, or burstd's
    // ledger when it knows of launches Slurm does not show yet.
    std::vector<std::uint32_t> on(G, 0);
    std::vector<std::uint32_t> ledger(G, 0);
    for (const auto& inst : state.instances) {
        if (!inst.open())
            continue;
        for (std::size_t g = 0; g < G; ++g)
            if (state.groups[g].name == inst.node_group)
                ++ledger[g];
    }
    std::vector<double> on_cores(G);
    for (std::size_t g = 0; g < G; ++g) {
        on[g] = std::max(view.groups[g].up_nodes + view.groups[g].booting_nodes, ledger[g]);
        on_cores[g] = double(on[g]) * state.groups[g].cpus;
    }
    if (started_)
        close_interval(on_cores);
    started_ = true;
    last_on_cores_ = on_cores;

    // S3: demand per account from token propagation.
    // A job already running is demand wherever it runs; a waiting one only
    // where some group's partition takes its time limit.
    const auto waves = token_waves(state.snapshot, [&view](const Job& job) {
        return view.served_somewhere(job.needs) && (job.running() || view.within_some_max_time(job.time_limit));
    });
    // The accounts with demand, in name order, and their waves; what is
    // worked out per account below is at the same index.
    std::vector<const std::string*> accounts;
    std::vector<const std::vector<double>*> account_waves;
    for (const auto& [account, w] : waves)
        if (std::accumulate(w.begin(), w.end(), 0.0) > 0) {
            accounts.push_back(&account);
            account_waves.push_back(&w);
        }
    std::vector<double> budgets(accounts.size(), budget_);
    double total_budget = 0;
    if (per_account_) {
        total_budget = budget_ * double(accounts.size());
    } else {
        std::vector<std::string> names;
        for (const std::string* a : accounts)
            names.push_back(*a);
        std::map<std::string, double> split = split_budget(budget_, names, state.snapshot.shares, split_);
        for (std::size_t a = 0; a < accounts.size(); ++a)
            budgets[a] = split[*accounts[a]];
        total_budget = budget_;
    }
    std::vector<ProfileGroup> types(G);
    for (std::size_t g = 0; g < G; ++g)
        types[g] = ProfileGroup{state.groups[g].price_per_hour * interval_ / 3600, state.groups[g].cpus,
                                state.groups[g].capacity()};
    // Groups whose nodes lack what some waiting burstable job asks of a
    // node (a GPU, a feature) hire for no more than the cores of those they
    // could run, and the profile leaves out a group that could run none of
    // them and that no routed job waits for either.
    std::vector<std::uint64_t> served_cores(G, 0);
    std::vector<char> serves_all(G, 1);
    bool waiting_jobs = false;
    for (std::size_t i = 0; i < view.pending.size(); ++i) {
        if (view.pending_group[i] >= 0 || view.pending_burst[i] == BurstOption::Never)
            continue;
        waiting_jobs = true;
        for (std::size_t g = 0; g < G; ++g) {
            if (view.serves(i, view.groups[g]))
                served_cores[g] += view.pending_cpus[i];
            else
                serves_all[g] = 0;
        }
    }
    for (std::size_t g = 0; g < G && waiting_jobs; ++g)
        if (served_cores[g] == 0 && view.groups[g].routed_pending_cpus == 0)
            types[g].capacity = 0;
    const ThroughputProfile& prof = *profile_;
    std::vector<double> sigma(accounts.size());
    double sigma_total = 0;
    for (std::size_t a = 0; a < accounts.size(); ++a) {
        const auto& w = *account_waves[a];
        const double depth = prof.lookup_depth();
        sigma[a] = prof.demand(visited_cores(w, depth), widest_wave(w, depth));
        sigma_total += sigma[a];
    }
    // S2 and S4 per account; local cores serve each account in proportion
    // to its demand.
    std::uint64_t local_cores = 0;
    for (std::size_t i = 0; i < state.snapshot.nodes.size(); ++i)
        if (view.node_group[i] < 0 && !state.snapshot.nodes[i].cloud())
            local_cores += serving_cores(state.snapshot.nodes[i]);
    std::vector<std::uint32_t> target(G, 0);
    std::string ratios; // every account's note words the same ratios
    for (std::size_t g = 0; g < G && !accounts.empty() && notes_read(); ++g) {
        if (g)
            ratios += ' ';
        ratios += group_names_[g];
        ratios += '=';
        ratios += money(prof.ratios()[g]);
    }
    for (std::size_t a = 0; a < accounts.size(); ++a) {
        const double local = sigma_total > 0 ? double(local_cores) * sigma[a] / sigma_total : 0;
        const double cloud = std::max(0.0, sigma[a] - local);
        const auto base = budget_profile(budgets[a], prof.ratios(), types);
        const auto mu = fit_to_demand(base, cloud, budgets[a], types);
        for (std::size_t g = 0; g < G; ++g)
            target[g] += mu[g];
        if (!notes_read())
            continue;
        std::string note;
        note.reserve(96 + ratios.size() + 2 * G * (group_names_.front().size() + 8));
        note += "pfa: account ";
        note += *accounts[a];
        note += " budget ";
        note += money(budgets[a]);
        note += " ratios ";
        note += ratios;
        note += " profile ";
        append_counts(note, base, group_names_);
        note += " demand ";
        note += money(cloud);
        note += " cloud cores → ";
        append_counts(note, mu, group_names_);
        d.notes.push_back(std::move(note));
    }
    for (std::size_t g = 0; g < G; ++g)
        target[g] = std::min(target[g], state.groups[g].capacity());

    // S5 under the hard cap: the hourly rate of every instance billed now
    // stays within the budget's rate, so no interval can cost more than
    // budget.  A node powered down within its billed period (SuspendTime,
    // a release) still costs to its end: a replacement hired meanwhile is
    // billed alongside it.
    const double rate_cap = total_budget * 3600 / interval_;
    double rate = 0;
    for (std::size_t g = 0; g < G; ++g)
        rate += double(on[g]) * state.groups[g].price_per_hour;
    for (const auto& span : state.ended_but_billed)
        if (const NodeGroup* group = state.group(span.node_group))
            rate += group->price_per_hour;
    std::vector<std::size_t> order(G);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return state.groups[a].price_per_hour < state.groups[b].price_per_hour;
    });
    // The gate weighs the waiting jobs that the free cloud cores up or
    // booting cannot take already (they take them in priority order, as the
    // routing below does), and each hire takes the next of them.
    std::vector<std::size_t> uncovered; // into view.pending
    std::vector<WaitingJob> waiting;    // the gate's view of them
    std::size_t next_uncovered = 0;
    if (!gate_.off()) {
        waits_.begin(view, now);
        std::uint64_t spare = 0;
        for (const auto& g : view.groups) {
            const std::uint64_t ready = g.free_up_cpus + g.free_booting_cpus;
            spare += ready > g.routed_pending_cpus ? ready - g.routed_pending_cpus : 0;
        }
        std::uint64_t local_free = view.local_free_cpus;
        for (std::size_t i = 0; i < view.pending.size(); ++i) {
            const std::uint64_t cpus = view.pending_cpus[i];
            const BurstOption burst = view.pending_burst[i];
            if (view.pending_group[i] >= 0 || burst == BurstOption::Never)
                continue;
            if (burst != BurstOption::Prefer && cpus <= local_free) {
                local_free -= cpus;
                continue;
            }
            if (uncovered.empty() && cpus <= spare)
                spare -= cpus;
            else
                uncovered.push_back(i);
        }
        waiting = waits_.waiting(view, now, uncovered, [&](std::uint64_t cores, Seconds runtime) {
            Seconds furthest = 0;
            for (const auto& group : state.groups)
                furthest = std::max(furthest, gate_.horizon(group, cores, runtime));
            return furthest;
        });
    }
    std::vector<std::uint32_t> hired(G, 0);
    for (std::size_t g : order) {
        const NodeGroup& group = state.groups[g];
        std::uint32_t want = target[g] > on[g] ? target[g] - on[g] : 0;
        if (!serves_all[g]) {
            const std::uint64_t per_node = state.groups[g].cpus ? state.groups[g].cpus : 1;
            want = std::uint32_t(std::min<std::uint64_t>(want, (served_cores[g] + per_node - 1) / per_node));
        }
        std::uint32_t n = std::min(want, view.groups[g].hireable_nodes);
        if (group.price_per_hour > 0) {
            const double room = std::floor((rate_cap - rate) / group.price_per_hour + 1e-9);
            n = std::min<std::uint32_t>(n, room > 0 ? std::uint32_t(std::min(room, 1e9)) : 0);
        }
        if (n < want)
            d.notes.push_back("pfa: " + group.name + " short of " + std::to_string(want - n) +
                              " node(s): budget cap " + money(total_budget) + " per " +
                              std::to_string(std::int64_t(interval_)) + " s or group capacity");
        if (n > 0 && !gate_.off()) {
            const std::uint32_t worth = gate_.worth(
                group, n, std::vector<WaitingJob>(waiting.begin() + std::ptrdiff_t(next_uncovered), waiting.end()));
            if (worth < n)
                d.notes.push_back("pfa: " + std::to_string(n - worth) + " of " + std::to_string(n) + " " +
                                  group.name + " node(s) cost more than their jobs' expected local wait at lambda " +
                                  std::to_string(gate_.lambda()));
            n = worth;
            for (std::uint64_t cores = std::uint64_t(n) * group.cpus;
                 next_uncovered < uncovered.size() && view.pending_cpus[uncovered[next_uncovered]] <= cores;
                 ++next_uncovered)
                cores -= view.pending_cpus[uncovered[next_uncovered]];
        }
        if (n == 0)
            continue;
        hired[g] = n;
        rate += double(n) * group.price_per_hour;
        d.add(HireNodes{group.name, n}, "pfa profile wants " + std::to_string(target[g]) + " node(s), " +
                                            std::to_string(on[g]) + " on");
    }

    // S6: idle nodes beyond the target, nearest their billing boundary
    // first, then idle the longest.
    std::unordered_map<std::string, Time> idle_since;
    for (const auto& group : view.groups)
        for (const auto& node : group.idle_nodes) {
            auto seen = idle_since_.find(node);
            idle_since.emplace(node, seen != idle_since_.end() ? seen->second : now);
        }
    idle_since_ = std::move(idle_since);
    std::vector<std::uint64_t> released_cpus(G, 0);
    NodeInstances instances(state.instances);
    for (std::size_t g = 0; g < G; ++g) {
        if (on[g] <= target[g])
            continue;
        const NodeGroup& group = state.groups[g];
        struct IdleNode {
            Seconds to_boundary;
            Time idle_since;
            const std::string* name;
        };
        std::vector<IdleNode> idle;
        for (const auto& node : view.groups[g].idle_nodes)
            idle.push_back({to_billing_boundary(group, instances.uptime(node, now)), idle_since_.at(node), &node});
        std::sort(idle.begin(), idle.end(), [](const IdleNode& a, const IdleNode& b) {
            if (a.to_boundary != b.to_boundary)
                return a.to_boundary < b.to_boundary;
            return a.idle_since != b.idle_since ? a.idle_since < b.idle_since : *a.name < *b.name;
        });
        ReleaseNodes release;
        for (const auto& node : idle) {
            if (release.nodes.size() >= on[g] - target[g] || node.to_boundary > release_window_)
                break;
            release.nodes.push_back(*node.name);
            released_cpus[g] += group.cpus;
        }
        if (!release.nodes.empty()) {
            const std::size_t n = release.nodes.size();
            d.add(std::move(release), "pfa profile wants " + std::to_string(target[g]) + " node(s), " +
                                          std::to_string(on[g]) + " on; releasing " + std::to_string(n) +
                                          " idle nearest their billing boundary, then idle longest");
        }
    }

    // Route waiting jobs into cores that are on or hired: Slurm then never
    // resumes a node the cap did not allow.
    std::vector<GroupView> room = view.groups;
    for (std::size_t g = 0; g < G; ++g) {
        GroupView& r = room[g];
        const std::uint64_t free = r.free_up_cpus + r.free_booting_cpus + std::uint64_t(hired[g]) * state.groups[g].cpus;
        const std::uint64_t taken = r.routed_pending_cpus + released_cpus[g];
        // free_capacity() counts hireable nodes; none may be resumed here.
        r.hireable_nodes = 0;
        r.free_up_cpus = free > taken ? free - taken : 0;
        r.free_booting_cpus = 0;
        r.routed_pending_cpus = 0;
    }
    std::uint64_t local_free = view.local_free_cpus;
    std::vector<ExpansionOption> options;
    for (std::size_t i = 0; i < view.pending.size(); ++i) {
        if (view.pending_group[i] >= 0)
            continue;
        const std::uint64_t cpus = view.pending_cpus[i];
        const BurstOption burst = view.pending_burst[i];
        if (burst != BurstOption::Prefer && cpus <= local_free) {
            local_free -= cpus;
            continue;
        }
        if (burst == BurstOption::Never)
            continue;
        GroupView* chosen = choose_group(
            *expander_, room, cpus,
            [&view, cpus, i](const GroupView& r) { return r.free_up_cpus >= cpus && view.serves(i, r); },
            options);
        if (!chosen)
            continue;
        chosen->free_up_cpus -= cpus;
        d.add(RouteToCloud{view.pending[i]->id, chosen->group->name},
              "pfa: cores of the budgeted profile are free");
    }
    return d;
}

} // namespace burst
