#include "app/instances/instance_manager.hpp"
#include "app/config/node_group_zones.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
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

std::string secs(Seconds s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f s", s);
    return buf;
}

std::string describe(const ProviderError& err) { return std::string(to_string(err.kind)) + ": " + err.message; }

// " as TYPE in ZONE", leaving out what the provider chooses itself.
std::string describe_placement(const Placement& p)
{
    return (p.instance_type.empty() ? "" : " as " + p.instance_type) + (p.zone.empty() ? "" : " in " + p.zone);
}

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
      settings_(std::move(settings)), seeded_random_(std::random_device{}()),
      sleeper_(settings_.sleeper ? *settings_.sleeper : thread_sleeper_),
      random_(settings_.random ? *settings_.random : seeded_random_),
      health_(settings_.groups, settings_.resume_timeout + settings_.launch_grace, log),
      pool_(settings_.workers ? settings_.workers : 1)
{
    for (const auto& g : settings_.groups) {
        const Provider* p = provider(g.provider);
        if (!p)
            throw std::invalid_argument("node group " + g.name + ": provider " + g.provider + " was not built");
        const std::vector<std::string> outside = zones_outside_provider(g, *p);
        if (!outside.empty())
            throw std::invalid_argument("node group " + g.name + ": " + outside.front());
    }
    for (const auto& b : ledger_.breakers()) {
        GroupHealthView saved;
        auto state = breaker_state_from(b.state);
        auto cause = breaker_cause_from(b.cause);
        if (!state || !cause) {
            log_.error("ledger " + ledger_.path() + ": node group " + b.node_group + ": unknown breaker state '" +
                       b.state + "' or cause '" + b.cause + "'; ignored");
            continue;
        }
        saved.state = *state;
        saved.cause = *cause;
        saved.reason = b.reason;
        saved.open_until = b.open_until;
        saved.cool_down = b.cool_down;
        saved.opened = std::uint64_t(b.opened);
        saved.probes = std::uint64_t(b.probes);
        if (!health_.restore(b.node_group, saved, clock_.now()))
            ledger_.save_breaker(BreakerRecord{b.node_group, "closed", "", "", 0, 0, 0, 0}); // group gone
    }
    health_.set_observer([this](const std::string& group, const GroupHealthView& v) {
        try {
            ledger_.save_breaker(BreakerRecord{group, std::string(to_string(v.state)), std::string(to_string(v.cause)),
                                               v.reason, v.open_until, v.cool_down, std::int64_t(v.opened),
                                               std::int64_t(v.probes)});
        } catch (const std::exception& e) {
            log_.error("node group " + group + ": cannot keep its breaker state: " + e.what());
        }
    });
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

std::vector<JobId> InstanceManager::resume_jobs(const std::string& node, bool forget)
{
    std::lock_guard<std::mutex> lock(resume_jobs_guard_);
    auto it = resume_jobs_.find(node);
    if (it == resume_jobs_.end())
        return {};
    std::vector<JobId> jobs = it->second;
    if (forget)
        resume_jobs_.erase(it);
    return jobs;
}

void InstanceManager::remember_resume_jobs(JobId job, const std::vector<std::string>& nodes)
{
    std::lock_guard<std::mutex> lock(resume_jobs_guard_);
    for (const auto& node : nodes) {
        std::vector<JobId>& for_node = resume_jobs_[node];
        if (std::find(for_node.begin(), for_node.end(), job) == for_node.end())
            for_node.push_back(job);
    }
}

void InstanceManager::set_scavenger_qos(const std::string& qos)
{
    std::lock_guard<std::mutex> lock(scavenger_guard_);
    scavenger_qos_ = qos;
}

void InstanceManager::set_job_qos_lookup(std::function<std::string(JobId)> job_qos)
{
    std::lock_guard<std::mutex> lock(scavenger_guard_);
    job_qos_ = std::move(job_qos);
}

bool InstanceManager::resumed_for_scavengers_only(const std::string& node)
{
    std::string qos;
    std::function<std::string(JobId)> job_qos;
    {
        std::lock_guard<std::mutex> lock(scavenger_guard_);
        qos = scavenger_qos_;
        job_qos = job_qos_;
    }
    const std::vector<JobId> jobs = resume_jobs(node, false);
    // A node no job is listed for (an early launch, a manual power up) is launched.
    return !qos.empty() && job_qos && !jobs.empty() &&
           std::all_of(jobs.begin(), jobs.end(), [&](JobId job) { return job_qos(job) == qos; });
}

void InstanceManager::remember_jobs_of(const std::vector<std::string>& nodes,
                                       const std::map<JobId, std::vector<std::string>>& jobs)
{
    std::lock_guard<std::mutex> lock(resume_jobs_guard_);
    for (const auto& node : nodes) {
        std::vector<JobId>& for_node = resume_jobs_[node];
        for_node.clear();
        for (const auto& [id, job_nodes] : jobs)
            if (std::find(job_nodes.begin(), job_nodes.end(), node) != job_nodes.end())
                for_node.push_back(id);
    }
}

void InstanceManager::request(PowerRequestKind kind, const std::vector<std::string>& nodes,
                              const std::map<JobId, std::vector<std::string>>& jobs)
{
    if (kind == PowerRequestKind::Resume && !jobs.empty())
        remember_jobs_of(nodes, jobs);
    for (const auto& node : nodes) {
        ++busy_;
        boost::asio::post(pool_, [this, kind, node] {
            BusyScope scope(busy_);
            std::lock_guard<std::mutex> lock(node_mutex(node));
            try {
                if (kind == PowerRequestKind::Resume && resumed_for_scavengers_only(node)) {
                    const std::string reason = "resumed only for scavenger jobs (ScavengerQOS), which never cost money";
                    log_.info("node " + node + ": no instance launched: " + reason);
                    force_down(node, reason);
                } else if (kind == PowerRequestKind::Resume) {
                    resume_one(node);
                } else {
                    suspend_one(node, kind == PowerRequestKind::ResumeFail);
                }
            } catch (const std::exception& e) {
                // The ledger itself failed: reconcile repairs what it can later.
                log_.error("node " + node + ": " + e.what());
            }
        });
    }
}

void InstanceManager::force_down(const std::string& node, const std::string& reason)
{
    std::vector<JobId> released;
    if (auto err = actuator_.hand_back_node(node, reason, resume_jobs(node, true), released))
        log_.error("node " + node + ": cannot force it down: " + err.message);
    std::string ids;
    for (JobId id : released)
        ids += (ids.empty() ? "" : ",") + std::to_string(id);
    if (!ids.empty())
        log_.info("node " + node + " handed back to Slurm: job(s) " + ids + " requeued and free to start again now");
}

LaunchResult InstanceManager::launch_with_retries(Provider& p, const std::string& provider_name,
                                                  const LaunchRequest& req)
{
    auto it = settings_.retry.find(provider_name);
    RetryBackoff backoff(it == settings_.retry.end() ? RetrySettings{} : it->second, random_);
    for (std::uint32_t attempt = 1;; ++attempt) {
        std::vector<LaunchResult> results = p.launch({req});
        LaunchResult r = results.size() == 1 ? results.front() : LaunchResult{};
        if (results.size() != 1)
            r.error = {ProviderErrorKind::Invalid, "the provider answered " + std::to_string(results.size()) +
                                                       " results for one request", 0};
        else if (!r.error && r.provider_id.empty())
            r.error = {ProviderErrorKind::Invalid, "the provider answered no instance id", 0};
        r.node = req.node;
        if (!r.error || !backoff.should_retry(r.error, attempt))
            return r;
        const Seconds wait = backoff.delay(attempt, r.error.retry_after);
        log_.info("launch " + req.node + " via " + provider_name + ": " + describe(r.error) + "; retry " +
                  std::to_string(attempt) + " in " + secs(wait) +
                  (r.error.retry_after > 0 ? " (provider asked for " + secs(r.error.retry_after) + ")" : ""));
        sleeper_.sleep(wait);
    }
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
    // A repeated token repeats a launch that was admitted already.
    Admission admission;
    if (!reused) {
        admission = health_.admit(group->name, clock_.now());
        if (admission.refused()) {
            log_.error("resume " + node + ": node group " + group->name + " is not launching (" + admission.reason +
                       "); powering the node down so Slurm requeues its job elsewhere");
            force_down(node, "node group " + group->name + " is backing off");
            return;
        }
        if (!open.empty()) {
            log_.info("resume " + node + ": finishing the termination of its previous instance first");
            suspend_one(node, false);
        }
    }
    // Placements (instance type x zone) to try, in order (PlacementBackoff);
    // a reused record's own placement first, the ones before it in the
    // order were tried already.
    std::vector<Placement> places = placements_.order(
        group->name, PlacementBackoff::candidates(group->instance_types, group->zones.empty() ? p->zones() : group->zones),
        clock_.now());
    if (reused) {
        const Placement own{record.instance_type, record.zone};
        auto at = std::find(places.begin(), places.end(), own);
        places.erase(places.begin(), at == places.end() ? places.end() : at + 1);
        places.insert(places.begin(), own);
    }
    ProviderError last;
    for (std::size_t i = 0; i < places.size(); ++i) {
        if (i > 0 || !reused)
            record = ledger_.record_launch_intent(LaunchIntent{node, group->name, group->provider,
                                                               places[i].instance_type, group->spot, places[i].zone},
                                                  clock_.now());
        LaunchRequest req;
        req.node = node;
        req.instance_type = record.instance_type;
        req.zone = record.zone;
        req.idempotency_token = record.token;
        req.tags = settings_.owner;
        req.tags.node = node;
        req.spot = record.spot;
        LaunchResult launched = launch_with_retries(*p, group->provider, req);
        if (settings_.outcomes)
            settings_.outcomes->launch(group->name, launched.error);
        if (!launched.error) {
            if (record.state == InstanceState::Requested || record.state == InstanceState::Launching)
                ledger_.mark_launched(record.token, launched.provider_id, launched.address, clock_.now());
            health_.launched(group->name, clock_.now(), admission.probe());
            placements_.launched(group->name, places[i]);
            log_.info("launched " + node + " as " + launched.provider_id + " via " + group->provider +
                      (record.instance_type.empty() ? "" : " (" + record.instance_type + ")") +
                      (record.zone.empty() ? "" : " in " + record.zone) +
                      (reused && i == 0 ? " (existing token " + record.token + ")" : "") +
                      (launched.address.empty() ? "" : " at " + launched.address));
            if (auto err = actuator_.set_node_instance(
                    NodeInstance{node, launched.address, "", launched.provider_id, record.instance_type},
                    "instance " + launched.provider_id))
                log_.error("node " + node + ": " + err.message);
            return;
        }
        last = launched.error;
        ledger_.mark_failed(record.token, describe(last), clock_.now());
        // Only a shortage is specific to the type and zone; quota, credentials
        // and exhausted retries would fail the next placement the same way.
        if (last.kind != ProviderErrorKind::Capacity)
            break;
        placements_.short_of_capacity(group->name, places[i], group->recovery, clock_.now());
        if (i + 1 == places.size())
            break;
        log_.info("launch " + node + describe_placement(places[i]) + " via " + group->provider + ": " +
                  describe(last) + "; trying" + describe_placement(places[i + 1]));
    }
    log_.error("launch " + node + " via " + group->provider + " failed (" + describe(last) + ")");
    health_.launch_failed(group->name, last, clock_.now(), admission.probe());
    force_down(node, "launch failed: " + describe(last));
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
    // Launched but never seen up in Slurm: the instance did not boot into a node.
    if (after_failure && std::any_of(open.begin(), open.end(), [](const LedgerRecord& r) {
            return r.state == InstanceState::Launching;
        }))
        health_.boot_failed(group->name, node + " did not register within ResumeTimeout", clock_.now());
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
                health_.registered(r.node_group, clock_.now());
                resume_jobs(n.name, true);
                log_.info("node " + n.name + " is up in Slurm: instance " + r.provider_id + " running");
                // slurmd's registration set InstanceId/InstanceType to its own
                // --instance-id/--instance-type, empty unless its image passes
                // them, over what the launch told Slurm (23.11+).
                if (auto err = actuator_.set_node_instance(NodeInstance{n.name, "", "", r.provider_id, r.instance_type},
                                                           "instance " + r.provider_id + " registered"))
                    log_.error("node " + n.name + ": " + err.message);
            }
    }
}

void InstanceManager::reconcile(std::vector<Node> nodes, bool wait)
{
    newly_lost(nodes); // this reconcile judges them
    if (!wait) {
        queue_reconcile(std::move(nodes), {});
        return;
    }
    if (reconciling_.exchange(true))
        return;
    reconcile_now(nodes);
    reconciling_ = false;
}

bool InstanceManager::queue_reconcile(std::vector<Node> nodes, std::set<std::string> only)
{
    if (reconciling_.exchange(true))
        return false;
    ++busy_;
    boost::asio::post(pool_, [this, nodes = std::move(nodes), only = std::move(only)] {
        BusyScope scope(busy_);
        try {
            reconcile_now(nodes, only);
        } catch (const std::exception& e) {
            log_.error("reconcile failed: " + std::string(e.what()));
        }
        reconciling_ = false;
    });
    return true;
}

std::map<std::string, LedgerRecord> InstanceManager::newly_lost(const std::vector<Node>& nodes)
{
    std::map<std::string, const Node*> lost_nodes;
    for (const auto& n : nodes)
        if (n.cloud() && (n.has(kNodeNotResponding) || n.has(kNodeFail) || n.base == NodeBaseState::Down) &&
            !(n.flags & (kNodePoweredDown | kNodePoweringDown | kNodePoweringUp)))
            lost_nodes.emplace(n.name, &n);
    std::map<std::string, LedgerRecord> fresh;
    std::set<std::string> open;
    std::lock_guard<std::mutex> lock(lost_guard_);
    for (auto& r : ledger_.open_records()) {
        open.insert(r.token);
        if (r.state == InstanceState::Running && lost_nodes.count(r.node) && lost_reported_.insert(r.token).second)
            fresh.emplace(r.token, std::move(r));
    }
    for (auto it = lost_reported_.begin(); it != lost_reported_.end();)
        it = open.count(*it) ? std::next(it) : lost_reported_.erase(it);
    return fresh;
}

bool InstanceManager::reconcile_lost_contact(const std::vector<Node>& nodes)
{
    std::map<std::string, LedgerRecord> lost = newly_lost(nodes);
    if (lost.empty())
        return false;
    std::set<std::string> only;
    std::string what;
    for (const auto& [token, r] : lost) {
        only.insert(r.provider);
        what += (what.empty() ? "" : ", ") + r.node + " (" + r.provider_id + ")";
    }
    if (!queue_reconcile(nodes, only)) {
        // A reconcile is running on an older snapshot: ask again next cycle.
        std::lock_guard<std::mutex> lock(lost_guard_);
        for (const auto& [token, r] : lost)
            lost_reported_.erase(token);
        return false;
    }
    log_.info("reconcile now: Slurm lost contact with " + what + "; listing its provider for a reclaim");
    return true;
}

void InstanceManager::reconcile_now(const std::vector<Node>& nodes, const std::set<std::string>& only)
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
        if (!only.empty() && !only.count(name))
            continue;
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
        if (a.boot_failure)
            if (const NodeGroup* g = group_of(a.node))
                health_.boot_failed(g->name, a.reason, clock_.now());
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
        if (complete && n.has(kNodePoweringUp) && group_of(n.name) &&
            (only.empty() || only.count(group_of(n.name)->provider)) && !listed_nodes.count(n.name) &&
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
