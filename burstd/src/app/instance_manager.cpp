#include "app/instance_manager.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <set>

namespace burst {

namespace {

// Decrements the busy count however the work item ends.
class BusyScope {
public:
    explicit BusyScope(std::atomic<std::size_t>& busy) : busy_(busy) {}
    ~BusyScope() { --busy_; }
    BusyScope(const BusyScope&) = delete;
    BusyScope& operator=(const BusyScope&) = delete;

private:
    std::atomic<std::size_t>& busy_;
};

std::vector<LedgerRecord> open_for(Ledger& ledger, const std::string& node)
{
    std::vector<LedgerRecord> open;
    for (auto& r : ledger.for_node(node))
        if (r.open())
            open.push_back(std::move(r));
    return open;
}

} // namespace

InstanceManager::InstanceManager(std::map<std::string, std::unique_ptr<Provider>> providers, Ledger& ledger,
                                 SlurmActuator& actuator, const Clock& clock, Logger& log,
                                 InstanceManagerSettings settings)
    : providers_(std::move(providers)), ledger_(ledger), actuator_(actuator), clock_(clock), log_(log),
      settings_(std::move(settings)), pool_(settings_.workers ? settings_.workers : 1)
{
    for (const auto& g : settings_.groups)
        if (!provider(g.provider))
            throw std::invalid_argument("node group " + g.name + ": provider " + g.provider + " was not built");
}

InstanceManager::~InstanceManager() { pool_.join(); }

Provider* InstanceManager::provider(const std::string& name) const
{
    auto it = providers_.find(name);
    return it == providers_.end() ? nullptr : it->second.get();
}

const NodeGroup* InstanceManager::group_of(const std::string& node) const
{
    for (const auto& g : settings_.groups)
        if (std::find(g.nodes.begin(), g.nodes.end(), node) != g.nodes.end())
            return &g;
    return nullptr;
}

std::mutex& InstanceManager::node_mutex(const std::string& node)
{
    std::lock_guard<std::mutex> lock(node_mutexes_guard_);
    auto& m = node_mutexes_[node];
    if (!m)
        m = std::make_unique<std::mutex>();
    return *m;
}

void InstanceManager::request(PowerRequestKind kind, const std::vector<std::string>& nodes)
{
    for (const auto& node : nodes) {
        ++busy_;
        boost::asio::post(pool_, [this, kind, node] {
            BusyScope scope(busy_);
            std::lock_guard<std::mutex> lock(node_mutex(node));
            try {
                if (kind == PowerRequestKind::Resume)
                    resume_one(node);
                else
                    suspend_one(node, kind == PowerRequestKind::ResumeFail);
            } catch (const std::exception& e) {
                // The ledger itself failed: reconcile repairs what it can later.
                log_.error("node " + node + ": " + e.what());
            }
        });
    }
}

void InstanceManager::force_down(const std::string& node, const std::string& reason)
{
    if (auto err = actuator_.power({node}, PowerAction::DownForce, reason))
        log_.error("node " + node + ": cannot force it down: " + err.message);
}

void InstanceManager::resume_one(const std::string& node)
{
    const NodeGroup* group = group_of(node);
    if (!group) {
        log_.error("resume " + node + ": belongs to no node group");
        return;
    }
    Provider* p = provider(group->provider);
    // An open record means an earlier request (perhaps before a crash) already
    // holds a token: launching with that same token cannot start a second one.
    std::vector<LedgerRecord> open = open_for(ledger_, node);
    LedgerRecord record;
    bool reused = false;
    for (const auto& r : open)
        if (r.state != InstanceState::Terminating) {
            record = r;
            reused = true;
        }
    if (!reused) {
        if (!open.empty()) {
            log_.info("resume " + node + ": finishing the termination of its previous instance first");
            suspend_one(node, false);
        }
        LaunchIntent intent{node, group->name, group->provider,
                            group->instance_types.empty() ? std::string() : group->instance_types.front(),
                            group->spot};
        record = ledger_.record_launch_intent(intent, clock_.now());
    }
    LaunchRequest req;
    req.node = node;
    req.instance_type = record.instance_type;
    req.idempotency_token = record.token;
    req.tags = settings_.owner;
    req.tags.node = node;
    req.spot = record.spot;
    std::vector<LaunchResult> results = p->launch({req});
    if (results.size() != 1 || results.front().error || results.front().provider_id.empty()) {
        ProviderError err = results.size() == 1 && results.front().error
                                ? results.front().error
                                : ProviderError{ProviderErrorKind::Invalid, "no result", 0};
        if (settings_.outcomes)
            settings_.outcomes->launch(group->name, err);
        std::string why = std::string(to_string(err.kind)) + ": " + err.message;
        log_.error("launch " + node + " via " + group->provider + " failed (" + why + ")");
        ledger_.mark_failed(record.token, why, clock_.now());
        force_down(node, "launch failed: " + why);
        return;
    }
    const LaunchResult& launched = results.front();
    if (settings_.outcomes)
        settings_.outcomes->launch(group->name, {});
    if (record.state == InstanceState::Requested || record.state == InstanceState::Launching)
        ledger_.mark_launched(record.token, launched.provider_id, launched.address, clock_.now());
    log_.info("launched " + node + " as " + launched.provider_id + " via " + group->provider +
              (reused ? " (existing token " + record.token + ")" : "") +
              (launched.address.empty() ? "" : " at " + launched.address));
    if (!launched.address.empty()) {
        if (auto err = actuator_.set_node_address(node, launched.address, "", "instance " + launched.provider_id))
            log_.error("node " + node + ": " + err.message);
    }
}

void InstanceManager::suspend_one(const std::string& node, bool after_failure)
{
    const NodeGroup* group = group_of(node);
    if (!group) {
        log_.error("suspend " + node + ": belongs to no node group");
        return;
    }
    Provider* p = provider(group->provider);
    std::string reason = after_failure ? "Slurm gave up resuming the node" : "Slurm powered the node down";
    std::vector<LedgerRecord> open = open_for(ledger_, node);
    for (const auto& r : open)
        if (r.state != InstanceState::Terminating)
            ledger_.record_terminate_intent(r.token, reason, clock_.now());
    // The provider's own listing also finds an instance whose launch answer a
    // crash lost (its record has no provider id yet).
    std::set<std::string> ids;
    for (const auto& r : open)
        if (!r.provider_id.empty())
            ids.insert(r.provider_id);
    ListResult listed = p->list(settings_.owner);
    if (listed.error)
        log_.error("suspend " + node + ": listing " + group->provider + " failed (" +
                   std::string(to_string(listed.error.kind)) + ": " + listed.error.message +
                   "); terminating the recorded instances only");
    for (const auto& inst : listed.instances)
        if (inst.node == node && !inst.gone)
            ids.insert(inst.provider_id);
    std::vector<std::string> to_terminate(ids.begin(), ids.end());
    std::map<std::string, ProviderError> errors;
    if (!to_terminate.empty())
        errors = p->terminate(to_terminate);
    if (settings_.outcomes)
        for (const auto& id : to_terminate) {
            auto e = errors.find(id);
            settings_.outcomes->terminate(group->name, e == errors.end() ? ProviderError{} : e->second);
        }
    for (const auto& [id, err] : errors)
        log_.error("terminate " + id + " (" + node + ") failed (" + std::string(to_string(err.kind)) + ": " +
                   err.message + "); reconcile retries it");
    if (errors.empty() && !listed.error)
        for (const auto& r : open)
            ledger_.mark_terminated(r.token, clock_.now());
    std::string ids_text;
    for (const auto& id : to_terminate)
        ids_text += (ids_text.empty() ? "" : ",") + id;
    if (after_failure)
        log_.error("resume of " + node + " failed in Slurm; terminated " + (ids_text.empty() ? "nothing" : ids_text));
    else
        log_.info("retired " + node + ": terminated " + (ids_text.empty() ? "nothing (no instance)" : ids_text));
}

void InstanceManager::observe_nodes(const std::vector<Node>& nodes)
{
    for (const auto& n : nodes) {
        if (!n.cloud() || !n.usable())
            continue;
        for (const auto& r : ledger_.for_node(n.name))
            if (r.state == InstanceState::Launching) {
                ledger_.mark_running(r.token, clock_.now());
                log_.info("node " + n.name + " is up in Slurm: instance " + r.provider_id + " running");
            }
    }
}

void InstanceManager::reconcile(std::vector<Node> nodes, bool wait)
{
    if (reconciling_.exchange(true))
        return;
    if (wait) {
        reconcile_now(nodes);
        reconciling_ = false;
        return;
    }
    ++busy_;
    boost::asio::post(pool_, [this, nodes = std::move(nodes)] {
        BusyScope scope(busy_);
        try {
            reconcile_now(nodes);
        } catch (const std::exception& e) {
            log_.error("reconcile failed: " + std::string(e.what()));
        }
        reconciling_ = false;
    });
}

void InstanceManager::reconcile_now(const std::vector<Node>& nodes)
{
    // Hold every node's lock so no resume or suspend runs between the
    // listings and the repairs that are based on them.
    std::vector<std::unique_lock<std::mutex>> locks;
    for (const auto& g : settings_.groups)
        for (const auto& n : g.nodes)
            locks.emplace_back(node_mutex(n));
    ReconcileInput input;
    input.records = ledger_.all();
    for (const auto& [name, p] : providers_) {
        ListResult listed = p->list(settings_.owner);
        if (listed.error)
            log_.error("reconcile: listing " + name + " failed (" + std::string(to_string(listed.error.kind)) +
                       ": " + listed.error.message + "); its records are left as they are");
        input.listings.push_back(ProviderListing{name, std::move(listed.instances), !listed.error});
    }
    input.nodes = nodes;
    input.now = clock_.now();
    input.resume_timeout = settings_.resume_timeout;
    input.launch_grace = settings_.launch_grace;
    std::vector<RepairAction> actions = ::burst::reconcile(input);
    for (const auto& a : actions) {
        if (settings_.outcomes)
            settings_.outcomes->repair(std::string(to_string(a.kind)));
        log_.info("reconcile: " + std::string(to_string(a.kind)) + " " + a.node +
                  (a.provider_id.empty() ? "" : " " + a.provider_id) + ": " + a.reason);
        try {
            apply(a);
        } catch (const std::exception& e) {
            log_.error("reconcile: " + std::string(to_string(a.kind)) + " " + a.node + " failed: " + e.what());
        }
    }
    log_.verbose("reconcile: " + std::to_string(actions.size()) + " repair(s)");

    // Slurm still waits for nodes whose resume a crash interrupted (or that
    // burstctl could not deliver): launch them again.  An open record's token
    // makes this idempotent when the first launch did get through.
    std::set<std::string> listed_nodes, powered_down;
    bool complete = true;
    for (const auto& l : input.listings) {
        complete = complete && l.complete;
        for (const auto& i : l.instances)
            if (!i.gone)
                listed_nodes.insert(i.node);
    }
    for (const auto& a : actions)
        if (a.kind == RepairKind::PowerDownNode || a.kind == RepairKind::TerminateInstance)
            powered_down.insert(a.node);
    std::vector<std::string> resume;
    for (const auto& n : nodes)
        if (complete && n.has(kNodePoweringUp) && group_of(n.name) && !listed_nodes.count(n.name) &&
            !powered_down.count(n.name))
            resume.push_back(n.name);
    if (!resume.empty()) {
        log_.info("reconcile: Slurm is resuming " + std::to_string(resume.size()) +
                  " node(s) with no instance behind them; launching them");
        request(PowerRequestKind::Resume, resume);
    }
}

void InstanceManager::apply(const RepairAction& a)
{
    Time now = clock_.now();
    switch (a.kind) {
    case RepairKind::AdoptInstance:
        ledger_.mark_launched(a.token, a.provider_id, a.address, now);
        return;
    case RepairKind::MarkFailed:
        ledger_.mark_failed(a.token, a.reason, now);
        return;
    case RepairKind::MarkTerminated:
        ledger_.mark_terminated(a.token, now);
        return;
    case RepairKind::TerminateInstance: {
        if (!a.token.empty())
            ledger_.record_terminate_intent(a.token, a.reason, now);
        Provider* p = provider(a.provider);
        if (!p) {
            log_.error("reconcile: instance " + a.provider_id + " belongs to unknown provider " + a.provider);
            return;
        }
        auto errors = p->terminate({a.provider_id});
        if (!errors.empty()) {
            const ProviderError& e = errors.begin()->second;
            log_.error("reconcile: terminate " + a.provider_id + " failed (" + std::string(to_string(e.kind)) +
                       ": " + e.message + ")");
            return;
        }
        if (!a.token.empty())
            ledger_.mark_terminated(a.token, now);
        return;
    }
    case RepairKind::PowerDownNode:
        force_down(a.node, a.reason);
        return;
    }
}

} // namespace burst
