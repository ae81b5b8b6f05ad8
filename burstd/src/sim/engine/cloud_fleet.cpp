#include "sim/engine/cloud_fleet.hpp"

#include "policy/cost/billing_boundary.hpp"
#include "sim/unit_draw.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace burst {
namespace {

// Whether `node` is one of the nodes named "<group>-<i>" that `group`,
// which names none, may have.
bool named_like_one_of(const std::string& node, const NodeGroup& group)
{
    const std::string prefix = group.name + "-";
    if (node.size() <= prefix.size() || node.compare(0, prefix.size(), prefix) != 0 || node[prefix.size()] == '0')
        return false;
    const std::string digits = node.substr(prefix.size());
    if (digits.size() > 10 || digits.find_first_not_of("0123456789") != std::string::npos)
        return false;
    return std::stoull(digits) <= simulated_node_count(group);
}

} // namespace

CloudFleet::CloudFleet(const SimConfig& site, std::uint32_t jobs, Time origin, const Clock& clock,
                       EventQueue& events, SimSnapshot& snapshot)
    : site_(site), clock_(clock), events_(events), snapshot_(snapshot), rng_(site.seed),
      interruption_rng_(site.seed ^ 0x5eed5907ULL), jobs_(jobs)
{
    group_nodes_.resize(site_.groups.size());
    boots_.resize(site_.groups.size());
    warm_.assign(site_.groups.size(), 0);
    // Checked here, not as nodes are first powered up: a replay stops at
    // its start, not half-way through.
    std::unordered_set<std::string> named;
    for (const auto& group : site_.groups)
        for (const auto& name : group.nodes)
            if (!named.insert(name).second)
                throw SimConfigError("node " + name + " is in more than one node group");
    for (const auto& group : site_.groups)
        if (group.nodes.empty())
            for (const auto& name : named)
                if (named_like_one_of(name, group))
                    throw SimConfigError("node " + name + " is in more than one node group");
    launches_.emplace(site_.groups, site_.shortages, site_.seed, origin);
}

std::uint32_t CloudFleet::never_used(std::uint32_t g) const
{
    return snapshot_.state().groups[g].unlisted_nodes;
}

std::uint32_t CloudFleet::list_node(std::uint32_t g)
{
    const NodeGroup& group = site_.groups[g];
    const std::size_t i = group_nodes_[g].size();
    std::string name = group.nodes.empty() ? group.name + "-" + std::to_string(i + 1) : group.nodes[i];
    CloudNode node;
    node.group = g;
    node.cpus = group.cpus;
    node.view = snapshot_.list_cloud_node(g, name);
    const auto n = std::uint32_t(nodes_.size());
    node_by_name_.emplace(std::move(name), n);
    group_nodes_[g].push_back(n);
    nodes_.push_back(std::move(node));
    sync_node(n);
    return n;
}

bool CloudFleet::booting(std::uint32_t n, std::uint64_t life) const
{
    return nodes_[n].life == life && nodes_[n].power == Power::Booting;
}

bool CloudFleet::powered_on(std::uint32_t n, std::uint64_t life) const
{
    return nodes_[n].life == life && nodes_[n].power != Power::Down;
}

std::uint64_t CloudFleet::room(std::uint32_t g) const
{
    std::uint64_t room = std::uint64_t(never_used(g)) * site_.groups[g].cpus;
    for (auto n : group_nodes_[g]) {
        const CloudNode& node = nodes_[n];
        if (!node.draining)
            room += node.cpus - node.alloc;
    }
    return room;
}

bool CloudFleet::allocate(std::uint32_t j, std::uint32_t g, std::uint32_t cpus)
{
    if (room(g) < cpus)
        return false;
    JobNodes& job = jobs_[j];
    std::uint32_t need = cpus;
    auto take_cores = [&](std::uint32_t n) {
        CloudNode& node = nodes_[n];
        if (node.power == Power::Down)
            power_up(n);
        end_idle(n, false);
        const std::uint32_t take = std::min(need, node.cpus - node.alloc);
        node.alloc += take;
        ++node.idle_epoch;
        need -= take;
        job.nodes.emplace_back(n, take);
        if (node.power == Power::Booting) {
            node.configuring.push_back(j);
            ++job.booting;
        }
        sync_node(n);
    };
    // Like Slurm: nodes already up first, then booting ones, then resume
    // more, those used before first.
    for (Power pass : {Power::Up, Power::Booting, Power::Down})
        for (auto n : group_nodes_[g]) {
            if (need == 0)
                break;
            const CloudNode& node = nodes_[n];
            if (node.power == pass && !node.draining && node.alloc < node.cpus)
                take_cores(n);
        }
    while (need > 0)
        take_cores(list_node(g));
    return true;
}

bool CloudFleet::holds(std::uint32_t j, std::uint32_t n) const
{
    const Allocation& a = jobs_[j].nodes;
    return std::any_of(a.begin(), a.end(), [&](const auto& node) { return node.first == n; });
}

void CloudFleet::release(std::uint32_t j, std::uint32_t lost)
{
    JobNodes& job = jobs_[j];
    for (const auto& [m, cores] : job.nodes) {
        CloudNode& node = nodes_[m];
        node.alloc -= cores;
        node.configuring.erase(std::remove(node.configuring.begin(), node.configuring.end(), j),
                               node.configuring.end());
        sync_node(m);
        if (m != lost && node.alloc == 0 && node.power == Power::Up)
            node_idle(m);
    }
    job.nodes.clear();
    job.booting = 0;
}

Seconds CloudFleet::sample_boot(const NodeGroup& g)
{
    return g.boot_time * (1 + boot_jitter_of(site_, g) * (2 * unit_draw(rng_) - 1));
}

double CloudFleet::bill(const NodeGroup& g, Seconds up) const
{
    return billed_seconds(g, up) * g.price_per_hour / 3600;
}

void CloudFleet::power_up(std::uint32_t n)
{
    CloudNode& node = nodes_[n];
    const Time now = clock_.now();
    node.power = Power::Booting;
    up_cores_ += node.cpus;
    ++up_nodes_;
    node.launched = now;
    node.ready = 0;
    show_change(Shown::PoweredUp, n);
    node.draining = false;
    ++node.idle_epoch;
    ++node.life;
    // Slurm has allocated the node already when burstd's launch fails: the
    // failure lands right after, as a node that goes down.
    node.launch = launches_->launch(node.group, now);
    if (node.launch != LaunchOutcome::Launched) {
        events_.push(now, EventKind::LaunchFailed, n, node.life);
        sync_node(n);
        return;
    }
    ++instances_launched_;
    unbooked_spend_ = true;
    const NodeGroup& g = site_.groups[node.group];
    events_.push(now + sample_boot(g), EventKind::NodeReady, n, node.life);
    if (g.spot && g.interruptions_per_hour > 0) {
        // Poisson process: exponential time to the interruption of this life.
        events_.push(now - std::log1p(-unit_draw(interruption_rng_)) * 3600 / g.interruptions_per_hour,
                     EventKind::Interruption, n, node.life);
    }
    sync_node(n);
}

void CloudFleet::take_back(std::uint32_t n)
{
    nodes_[n].configuring.clear();
    power_down(n);
}

// burstd sets a node whose launch failed or was refused DOWN; a launch that
// never started costs nothing.
void CloudFleet::launch_failed(std::uint32_t n)
{
    nodes_[n].configuring.clear();
    retire(n);
}

void CloudFleet::end_idle(std::uint32_t n, bool powering_down)
{
    CloudNode& node = nodes_[n];
    if (node.idle_since < 0)
        return;
    const double idle = double(node.cpus) * (clock_.now() - node.idle_since);
    idle_core_seconds_ += idle;
    if (powering_down)
        idle_before_down_core_seconds_ += idle;
    node.idle_since = -1;
    stop_scavenging(n, clock_.now());
}

void CloudFleet::start_scavenging(std::uint32_t n)
{
    CloudNode& node = nodes_[n];
    if (site_.scavenger_run > 0 && node.scavenging_since < 0)
        node.scavenging_since = clock_.now();
}

void CloudFleet::stop_scavenging(std::uint32_t n, Time at)
{
    CloudNode& node = nodes_[n];
    if (node.scavenging_since < 0)
        return;
    // burstd pins the first job a cycle after the placeholder took the
    // node, and the next about two cycles after a run ends (a new
    // placeholder, then its pin).
    warm_held_core_seconds_ += double(node.cpus) * (at - node.scavenging_since);
    const Seconds run = site_.scavenger_run, gap = 2 * site_.cycle;
    const Seconds t = at - node.scavenging_since - site_.cycle;
    if (t > 0) {
        const double periods = std::floor(t / (run + gap));
        const Seconds rest = t - periods * (run + gap);
        const double done = periods * run + (rest >= run ? run : 0);
        scavenger_done_core_seconds_ += double(node.cpus) * done;
        scavenger_lost_core_seconds_ += double(node.cpus) * (rest < run ? rest : 0);
    }
    node.scavenging_since = -1;
}

void CloudFleet::power_down(std::uint32_t n)
{
    end_idle(n, true);
    CloudNode& node = nodes_[n];
    const Time now = clock_.now();
    const Seconds up = now - node.launched;
    closed_cost_ += bill(site_.groups[node.group], up);
    instance_seconds_ += up;
    const NodeGroup& group = site_.groups[node.group];
    const Time billed_to = billed_until(group, node.launched, now);
    instances_.push_back(InstanceSpan{int(node.group), node.cpus, group.price_per_hour, node.launched, now,
                                      node.power == Power::Up ? node.ready : now, billed_to});
    const BilledSpan span{name(n), group.name, node.launched, now};
    if (!site_.budgets.empty())
        closed_spans_.push_back(ClosedSpan{span, billed_to});
    snapshot_.instance_ended(span);
    retire(n);
}

void CloudFleet::retire(std::uint32_t n)
{
    CloudNode& node = nodes_[n];
    node.power = Power::Down;
    show_change(Shown::WentDown, n);
    up_cores_ -= node.cpus;
    --up_nodes_;
    node.draining = false;
    ++node.idle_epoch;
    sync_node(n);
    changed_ = true;
}

std::vector<std::uint32_t> CloudFleet::node_ready(std::uint32_t n)
{
    CloudNode& node = nodes_[n];
    node.power = Power::Up;
    node.ready = clock_.now();
    show_change(Shown::CameUp, n);
    launches_->registered(node.group, node.ready);
    std::deque<NodeBoot>& boots = boots_[node.group];
    boots.push_back(NodeBoot{site_.groups[node.group].name, node.launched, node.ready});
    if (boots.size() > kRecentBoots)
        boots.pop_front();
    boots_changed_ = true;
    std::vector<std::uint32_t> started;
    for (auto j : node.configuring)
        if (--jobs_[j].booting == 0)
            started.push_back(j);
    node.configuring.clear();
    sync_node(n);
    // Jobs waiting for the node hold cores on it: a node that comes up idle
    // starts none of them.
    if (node.alloc == 0)
        node_idle(n);
    changed_ = true;
    return started;
}

void CloudFleet::node_idle(std::uint32_t n)
{
    CloudNode& node = nodes_[n];
    node.idle_since = clock_.now();
    if (node.draining) {
        power_down(n);
        return;
    }
    // Within what the pool keeps, a placeholder takes the node at once, and
    // scavenger work takes the placeholder's place.
    if (powered_on_in(node.group) <= warm_[node.group])
        start_scavenging(n);
    const Seconds suspend = suspend_time_of(site_, site_.groups[node.group]);
    ++node.idle_epoch;
    if (!std::isinf(suspend)) // else Slurm never suspends it
        events_.push(clock_.now() + suspend, EventKind::SuspendCheck, n, node.idle_epoch);
}

std::uint32_t CloudFleet::powered_on_in(std::uint32_t g) const
{
    std::uint32_t in_use = 0;
    for (auto m : group_nodes_[g])
        in_use += nodes_[m].power != Power::Down;
    return in_use;
}

void CloudFleet::suspend_check(std::uint32_t n, std::uint64_t token, bool workload_lasts)
{
    const CloudNode& node = nodes_[n];
    if (node.power != Power::Up || node.alloc != 0 || node.idle_epoch != token)
        return;
    // A placeholder holds the node warm while the workload lasts.
    if (workload_lasts && powered_on_in(node.group) <= warm_[node.group]) {
        start_scavenging(n);
        events_.push(clock_.now() + std::max<Seconds>(suspend_time_of(site_, site_.groups[node.group]), 1),
                     EventKind::SuspendCheck, n, token);
    } else {
        power_down(n);
    }
}

std::uint32_t CloudFleet::hire(std::uint32_t g, std::uint32_t count)
{
    std::uint32_t left = count;
    for (auto n : group_nodes_[g])
        if (left > 0 && nodes_[n].power == Power::Down) {
            power_up(n);
            --left;
        }
    for (; left > 0 && never_used(g) > 0; --left)
        power_up(list_node(g));
    return left;
}

bool CloudFleet::drain(const std::string& name)
{
    auto it = node_by_name_.find(name);
    if (it == node_by_name_.end() || nodes_[it->second].power == Power::Down)
        return false;
    CloudNode& node = nodes_[it->second];
    node.draining = true;
    sync_node(it->second);
    if (node.power == Power::Up && node.alloc == 0)
        power_down(it->second);
    return true;
}

bool CloudFleet::keep_warm(std::uint32_t g, std::uint32_t count)
{
    bool changed = warm_[g] != count;
    warm_[g] = count;
    std::uint32_t in_use = powered_on_in(g);
    // Fewer wanted: burstd requeues the scavenger work on the nodes let go
    // (and powers them down; here they idle on to their SuspendTime, as a
    // placeholder's node does), the latest started first.
    if (in_use > count) {
        std::vector<std::uint32_t> scavenging;
        for (auto n : group_nodes_[g])
            if (nodes_[n].scavenging_since >= 0)
                scavenging.push_back(n);
        std::sort(scavenging.begin(), scavenging.end(), [&](std::uint32_t a, std::uint32_t b) {
            return nodes_[a].scavenging_since > nodes_[b].scavenging_since;
        });
        for (std::size_t i = 0; i < scavenging.size() && i < in_use - count; ++i)
            stop_scavenging(scavenging[i], clock_.now());
    }
    for (auto n : group_nodes_[g])
        if (in_use < count && nodes_[n].power == Power::Down) {
            power_up(n);
            ++in_use;
            changed = true;
        }
    for (; in_use < count && never_used(g) > 0; ++in_use) {
        power_up(list_node(g));
        changed = true;
    }
    return changed;
}

double CloudFleet::charge(std::uint32_t g, double core_seconds) const
{
    return core_seconds * site_.groups[g].price_per_cpu_second();
}

std::vector<BilledSpan> CloudFleet::billed_spans(Time now, Time earliest)
{
    // A span billed to its end before every tracked interval began counts in
    // none (spans are kept in power-down order, so one billed longer may
    // keep a few more until it goes).
    while (!closed_spans_.empty() && closed_spans_.front().billed_until <= earliest)
        closed_spans_.pop_front();
    std::vector<BilledSpan> spans;
    spans.reserve(closed_spans_.size());
    for (const auto& closed : closed_spans_)
        spans.push_back(closed.span);
    for (std::uint32_t n = 0; n < nodes_.size(); ++n)
        if (nodes_[n].power != Power::Down)
            spans.push_back(BilledSpan{name(n), site_.groups[nodes_[n].group].name, nodes_[n].launched, std::nullopt});
    unbooked_spend_ = up_nodes_ > 0 || std::any_of(closed_spans_.begin(), closed_spans_.end(),
                                                   [&](const ClosedSpan& s) { return s.billed_until > now; });
    return spans;
}

void CloudFleet::show()
{
    // The snapshot's state keeps the boots shown last: most cycles, none
    // came up since.
    if (!boots_changed_)
        return;
    ClusterState& state = snapshot_.state();
    state.boots.clear();
    for (const auto& group : boots_)
        state.boots.insert(state.boots.end(), group.begin(), group.end());
    boots_changed_ = false;
}

void CloudFleet::begin_decision()
{
    deciding_ = true;
}

void CloudFleet::end_decision()
{
    deciding_ = false;
    for (const auto& [change, n] : deferred_)
        show_change(change, n);
    deferred_.clear();
}

void CloudFleet::show_change(Shown change, std::uint32_t n)
{
    if (deciding_) {
        deferred_.emplace_back(change, n);
        return;
    }
    auto& instances = snapshot_.state().instances;
    const std::size_t at = std::size_t(std::lower_bound(shown_.begin(), shown_.end(), n) - shown_.begin());
    const bool shown = at < shown_.size() && shown_[at] == n;
    const CloudNode& node = nodes_[n];
    switch (change) {
    case Shown::PoweredUp: {
        if (shown)
            return;
        const NodeGroup& g = site_.groups[node.group];
        Instance inst;
        inst.node = name(n);
        inst.node_group = g.name;
        inst.provider_id = "sim-" + inst.node;
        inst.instance_type = g.instance_types.empty() ? g.name : g.instance_types.front();
        inst.state = InstanceState::Launching;
        inst.requested_at = node.launched;
        inst.launched_at = node.launched;
        inst.spot = g.spot;
        instances.insert(instances.begin() + std::ptrdiff_t(at), std::move(inst));
        shown_.insert(shown_.begin() + std::ptrdiff_t(at), n);
        break;
    }
    case Shown::CameUp:
        if (shown) {
            instances[at].state = InstanceState::Running;
            instances[at].running_since = node.ready;
        }
        break;
    case Shown::WentDown:
        if (shown) {
            instances.erase(instances.begin() + std::ptrdiff_t(at));
            shown_.erase(shown_.begin() + std::ptrdiff_t(at));
        }
        break;
    }
}

bool CloudFleet::take_changes()
{
    const bool changed = changed_;
    changed_ = false;
    return changed;
}

void CloudFleet::report(SimResult& result, Time end)
{
    for (std::uint32_t n = 0; n < nodes_.size(); ++n)
        stop_scavenging(n, end);
    result.cloud_cost = closed_cost_;
    result.instance_seconds = instance_seconds_;
    result.instances_launched = instances_launched_;
    result.idle_core_seconds = idle_core_seconds_;
    result.idle_before_down_core_seconds = idle_before_down_core_seconds_;
    result.warm_held_core_seconds = warm_held_core_seconds_;
    result.scavenger_done_core_seconds = scavenger_done_core_seconds_;
    result.scavenger_lost_core_seconds = scavenger_lost_core_seconds_;
    result.instances = std::move(instances_);
    result.group_backoff = launches_->backoff(end);
}

void CloudFleet::sync_node(std::uint32_t n)
{
    const CloudNode& node = nodes_[n];
    Node& view = snapshot_.node(node.view);
    view.alloc_cpus = node.alloc;
    view.base = node.alloc == 0 ? NodeBaseState::Idle
                                : (node.alloc < node.cpus ? NodeBaseState::Mixed : NodeBaseState::Allocated);
    view.flags = kNodeCloud;
    if (node.power == Power::Down)
        view.flags |= kNodePoweredDown;
    else if (node.power == Power::Booting)
        view.flags |= kNodePoweringUp;
    if (node.draining)
        view.flags |= kNodeDrain;
}

} // namespace burst
