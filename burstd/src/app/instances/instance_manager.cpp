#include "app/instances/instance_manager.hpp"
#include "app/config/node_group_zones.hpp"
#include "model/hostlist.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <cstdio>
#include <future>
#include <random>
#include <set>
#include <tuple>

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

// Slurm's own hostlist form, short however many nodes a batch carries.
std::string describe_nodes(const std::vector<std::string>& nodes) { return compress_hostlist(nodes); }

} // namespace

InstanceManager::InstanceManager(std::map<std::string, std::unique_ptr<Provider>> providers, Ledger& ledger,
                                 SlurmActuator& actuator, const Clock& clock, Logger& log,
                                 InstanceManagerSettings settings)
    : providers_(std::move(providers)), ledger_(ledger), actuator_(actuator), clock_(clock), log_(log),
      settings_(std::move(settings)), seeded_random_(std::random_device{}()),
      sleeper_(settings_.sleeper ? *settings_.sleeper : thread_sleeper_),
      random_(settings_.random ? *settings_.random : seeded_random_),
      health_(settings_.groups, settings_.resume_timeout + settings_.launch_grace, log),
      partial_job_(settings_.partial_job), pool_(settings_.workers ? settings_.workers : 1)
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
    if (kind == PowerRequestKind::Resume) {
        if (!jobs.empty())
            remember_jobs_of(nodes, jobs);
        for (auto& unit : resume_units(nodes, jobs)) {
            // The unit's own jobs of several nodes resumed now (each job is in
            // one unit as a whole); a node of the job that is up already is no
            // part of what must launch together.
            std::map<JobId, std::vector<std::string>> unit_jobs;
            for (const auto& [job, job_nodes] : jobs) {
                std::vector<std::string> resumed;
                for (const auto& n : job_nodes)
                    if (std::find(unit.begin(), unit.end(), n) != unit.end())
                        resumed.push_back(n);
                if (resumed.size() > 1)
                    unit_jobs.emplace(job, std::move(resumed));
            }
            ++busy_;
            boost::asio::post(pool_, [this, unit = std::move(unit), unit_jobs = std::move(unit_jobs)] {
                BusyScope scope(busy_);
                try {
                    resume_unit(unit, unit_jobs);
                } catch (const std::exception& e) {
                    // The ledger itself failed: reconcile repairs what it can later.
                    log_.error("resume " + describe_nodes(unit) + ": " + e.what());
                }
            });
        }
        return;
    }
    for (auto& unit : suspend_units(nodes)) {
        ++busy_;
        boost::asio::post(pool_, [this, kind, unit = std::move(unit)] {
            BusyScope scope(busy_);
            std::vector<std::unique_lock<std::mutex>> locks = lock_nodes(unit);
            try {
                suspend_nodes(unit, kind == PowerRequestKind::ResumeFail);
            } catch (const std::exception& e) {
                // The ledger itself failed: reconcile repairs what it can later.
                log_.error("suspend " + describe_nodes(unit) + ": " + e.what());
            }
        });
    }
}

std::vector<std::vector<std::string>> InstanceManager::suspend_units(const std::vector<std::string>& nodes) const
{
    // One provider's nodes list it once and terminate in one call: a
    // provider that batches launches (its terminate batches too, or runs
    // one at a time anyway) takes them as one unit; another in up to
    // `workers` units, which run side by side.  Nodes of no group alone.
    std::map<std::string, std::vector<std::vector<std::string>>> by_provider;
    std::vector<std::vector<std::string>> units;
    std::map<std::string, std::size_t> seen; // provider -> its nodes so far
    std::set<std::string> once;
    for (const auto& n : nodes) {
        if (!once.insert(n).second)
            continue; // named twice
        const NodeGroup* g = group_of(n);
        const Provider* p = g ? provider(g->provider) : nullptr;
        if (!p) {
            units.push_back({n});
            continue;
        }
        auto& of_provider = by_provider[g->provider];
        const std::size_t ways = p->launch_batch_limit() > 1 ? 1 : std::max<std::size_t>(1, settings_.workers);
        const std::size_t at = seen[g->provider]++ % ways;
        if (at == of_provider.size())
            of_provider.emplace_back();
        of_provider[at].push_back(n);
    }
    for (auto& [name, of_provider] : by_provider)
        for (auto& unit : of_provider)
            units.push_back(std::move(unit));
    return units;
}

std::vector<std::vector<std::string>> InstanceManager::resume_units(
    const std::vector<std::string>& nodes, const std::map<JobId, std::vector<std::string>>& jobs) const
{
    // Union-find over the request's nodes.
    std::map<std::string, std::string> parent;
    for (const auto& n : nodes)
        parent.emplace(n, n);
    std::function<std::string(const std::string&)> root = [&](const std::string& n) {
        std::string& up = parent[n];
        if (up != n)
            up = root(up);
        return up;
    };
    auto join = [&](const std::string& a, const std::string& b) {
        if (parent.count(a) && parent.count(b))
            parent[root(a)] = root(b);
    };
    std::map<std::string, std::string> first_of_batching_group;
    for (const auto& n : nodes) {
        const NodeGroup* g = group_of(n);
        const Provider* p = g ? provider(g->provider) : nullptr;
        if (!p || p->launch_batch_limit() <= 1)
            continue;
        auto [it, fresh] = first_of_batching_group.emplace(g->name, n);
        if (!fresh)
            join(n, it->second);
    }
    for (const auto& [job, job_nodes] : jobs)
        for (std::size_t i = 1; i < job_nodes.size(); ++i)
            join(job_nodes[i], job_nodes.front());
    std::map<std::string, std::vector<std::string>> by_root;
    std::vector<std::string> order;
    for (const auto& n : nodes) {
        const std::string r = root(n);
        auto& unit = by_root[r];
        if (unit.empty())
            order.push_back(r);
        if (std::find(unit.begin(), unit.end(), n) == unit.end())
            unit.push_back(n);
    }
    std::vector<std::vector<std::string>> units;
    for (const auto& r : order)
        units.push_back(std::move(by_root[r]));
    return units;
}

std::vector<std::unique_lock<std::mutex>> InstanceManager::lock_nodes(const std::vector<std::string>& nodes)
{
    // The node groups' order, as reconcile_now takes them all; nodes of no
    // group (locked by nothing else for long) last.
    std::set<std::string> wanted(nodes.begin(), nodes.end());
    std::vector<std::unique_lock<std::mutex>> locks;
    for (const auto& g : settings_.groups)
        for (const auto& n : g.nodes)
            if (wanted.erase(n))
                locks.emplace_back(node_mutex(n));
    for (const auto& n : wanted)
        locks.emplace_back(node_mutex(n));
    return locks;
}

void InstanceManager::resume_unit(const std::vector<std::string>& nodes,
                                  const std::map<JobId, std::vector<std::string>>& jobs)
{
    std::vector<std::unique_lock<std::mutex>> locks = lock_nodes(nodes);
    std::vector<NodeLaunch> launches;
    for (const auto& node : nodes) {
        if (resumed_for_scavengers_only(node)) {
            const std::string reason = "resumed only for scavenger jobs (ScavengerQOS), which never cost money";
            log_.info("node " + node + ": no instance launched: " + reason);
            force_down(node, reason);
            continue;
        }
        if (std::optional<NodeLaunch> launch = prepare_launch(node))
            launches.push_back(std::move(*launch));
    }
    std::map<std::string, NodeLaunch*> by_node;
    for (auto& l : launches)
        by_node[l.node] = &l;
    for (const auto& [job, job_nodes] : jobs)
        for (const auto& n : job_nodes)
            if (auto it = by_node.find(n); it != by_node.end() && it->second->job == 0)
                it->second->job = job;
    // A job one of whose nodes is not launched at all (refused, scavenger
    // work, no group) launches none of the others; then, after the calls, a
    // job one of whose nodes got no instance gives back what the others got.
    std::set<JobId> withdrawn;
    withdraw_incomplete_jobs(jobs, by_node, withdrawn);
    launch_all(launches);
    withdraw_incomplete_jobs(jobs, by_node, withdrawn);
    for (auto& l : launches) {
        if (l.outcome == NodeLaunch::Outcome::Failed && !l.handed_back)
            force_down(l.node, "launch failed: " + describe(l.last));
        if (l.outcome == NodeLaunch::Outcome::Launched && l.job != 0)
            health_.launched(l.group->name, clock_.now(), l.admission.probe());
    }
}

void InstanceManager::withdraw_incomplete_jobs(const std::map<JobId, std::vector<std::string>>& jobs,
                                               const std::map<std::string, NodeLaunch*>& by_node,
                                               std::set<JobId>& withdrawn)
{
    // Until nothing changes: withdrawing one job's nodes can leave another
    // job that shares a node incomplete.
    for (bool changed = true; changed;) {
        changed = false;
        for (const auto& [job, job_nodes] : jobs) {
            if (withdrawn.count(job))
                continue;
            std::vector<NodeLaunch*> of_job;
            bool incomplete = false;
            for (const auto& n : job_nodes) {
                auto it = by_node.find(n);
                incomplete = incomplete || it == by_node.end() ||
                             it->second->outcome == NodeLaunch::Outcome::Failed ||
                             it->second->outcome == NodeLaunch::Outcome::Withdrawn;
                if (it != by_node.end())
                    of_job.push_back(it->second);
            }
            if (!incomplete)
                continue;
            withdrawn.insert(job);
            undo_partial_job(job, of_job);
            changed = true;
        }
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

std::vector<LaunchResult> InstanceManager::launch_with_retries(Provider& p, const std::string& provider_name,
                                                               const std::string& group,
                                                               const std::vector<LaunchRequest>& requests)
{
    auto it = settings_.retry.find(provider_name);
    RetryBackoff backoff(it == settings_.retry.end() ? RetrySettings{} : it->second, random_);
    std::vector<LaunchResult> results(requests.size());
    std::vector<std::size_t> asking(requests.size()); // indexes into `requests` still to launch
    for (std::size_t i = 0; i < asking.size(); ++i)
        asking[i] = i;
    for (std::uint32_t attempt = 1;; ++attempt) {
        std::vector<LaunchRequest> call;
        for (std::size_t i : asking)
            call.push_back(requests[i]);
        if (settings_.outcomes)
            settings_.outcomes->launch_request(group);
        const std::vector<LaunchResult> answered = p.launch(call);
        std::vector<std::size_t> again;
        std::vector<std::string> again_nodes;
        ProviderError again_error;
        for (std::size_t k = 0; k < asking.size(); ++k) {
            const LaunchRequest& req = requests[asking[k]];
            LaunchResult r = answered.size() == asking.size() ? answered[k] : LaunchResult{};
            if (answered.size() != asking.size())
                r.error = {ProviderErrorKind::Invalid,
                           "the provider answered " + std::to_string(answered.size()) + " results for " +
                               std::to_string(asking.size()) + " request(s)",
                           0};
            else if (!r.error && r.provider_id.empty())
                r.error = {ProviderErrorKind::Invalid, "the provider answered no instance id", 0};
            r.node = req.node;
            if (r.error && backoff.should_retry(r.error, attempt)) {
                again.push_back(asking[k]);
                again_nodes.push_back(req.node);
                if (!again_error || r.error.retry_after > again_error.retry_after)
                    again_error = r.error;
            }
            results[asking[k]] = std::move(r);
        }
        if (again.empty())
            return results;
        // One wait for the batch: its nodes to retry are asked for again in one call.
        const Seconds wait = backoff.delay(attempt, again_error.retry_after);
        log_.info("launch " + describe_nodes(again_nodes) + " via " + provider_name + ": " + describe(again_error) +
                  "; retry " + std::to_string(attempt) + " in " + secs(wait) +
                  (again_error.retry_after > 0 ? " (provider asked for " + secs(again_error.retry_after) + ")" : ""));
        sleeper_.sleep(wait);
        asking = std::move(again);
    }
}

std::optional<InstanceManager::NodeLaunch> InstanceManager::prepare_launch(const std::string& node)
{
    NodeLaunch launch;
    launch.node = node;
    launch.group = group_of(node);
    if (!launch.group) {
        log_.error("resume " + node + ": belongs to no node group");
        return std::nullopt;
    }
    const NodeGroup& group = *launch.group;
    launch.provider = provider(group.provider);
    // An open record means an earlier request (perhaps before a crash) already
    // holds a token: launching with that same token cannot start a second one.
    std::vector<LedgerRecord> open = ledger_.open_for_node(node);
    for (const auto& r : open)
        if (r.state != InstanceState::Terminating) {
            launch.record = r;
            launch.reused = true;
        }
    // A repeated token repeats a launch that was admitted already.
    if (!launch.reused) {
        launch.admission = health_.admit(group.name, clock_.now());
        if (launch.admission.refused()) {
            log_.error("resume " + node + ": node group " + group.name + " is not launching (" +
                       launch.admission.reason + "); powering the node down so Slurm requeues its job elsewhere");
            force_down(node, "node group " + group.name + " is backing off");
            return std::nullopt;
        }
        if (!open.empty()) {
            log_.info("resume " + node + ": finishing the termination of its previous instance first");
            suspend_nodes({node}, false);
        }
    }
    // Placements (instance type x zone) to try, in order (PlacementBackoff);
    // a reused record's own placement first, the ones before it in the
    // order were tried already.
    const std::vector<std::string> zones = group.zones.empty() ? launch.provider->zones() : group.zones;
    launch.places =
        placements_.order(group.name, PlacementBackoff::candidates(group.instance_types, zones), clock_.now());
    if (launch.reused) {
        const Placement own{launch.record.instance_type, launch.record.zone};
        auto at = std::find(launch.places.begin(), launch.places.end(), own);
        launch.places.erase(launch.places.begin(), at == launch.places.end() ? launch.places.end() : at + 1);
        launch.places.insert(launch.places.begin(), own);
    } else {
        const Placement& first = launch.places.front();
        launch.record = ledger_.record_launch_intent(
            LaunchIntent{node, group.name, group.provider, first.instance_type, group.spot, first.zone}, clock_.now());
    }
    return launch;
}

void InstanceManager::adopt_existing_instances(std::vector<NodeLaunch>& launches)
{
    std::map<Provider*, std::vector<NodeLaunch*>> unanswered;
    for (auto& l : launches) {
        if (l.outcome != NodeLaunch::Outcome::Pending || !l.reused)
            continue;
        if (!l.record.provider_id.empty())
            record_launched(l, LaunchResult{l.node, l.record.provider_id, l.record.address, {}});
        else
            unanswered[l.provider].push_back(&l);
    }
    for (auto& [p, of_provider] : unanswered) {
        const ListResult listed = p->list(settings_.owner);
        if (listed.error) {
            // Launched again with their tokens, as a crash-free retry would be.
            log_.error("resume: listing " + of_provider.front()->group->provider + " for instances a crash may have " +
                       "left failed (" + describe(listed.error) + "); launching with the recorded tokens");
            continue;
        }
        for (NodeLaunch* l : of_provider)
            for (const auto& inst : listed.instances)
                if (inst.node == l->node && !inst.gone && !inst.reclaimed && !inst.error) {
                    record_launched(*l, LaunchResult{l->node, inst.provider_id, inst.address, {}});
                    break;
                }
    }
}

void InstanceManager::launch_all(std::vector<NodeLaunch>& launches)
{
    adopt_existing_instances(launches);
    using BatchKey = std::tuple<std::string, std::string, std::string, bool, JobId>; // group, type, zone, spot, job
    auto key_of = [](const NodeLaunch& l) {
        return BatchKey{l.group->name, l.record.instance_type, l.record.zone, l.record.spot, l.job};
    };
    auto pending = [](const NodeLaunch& l) { return l.outcome == NodeLaunch::Outcome::Pending; };
    for (auto first = std::find_if(launches.begin(), launches.end(), pending); first != launches.end();
         first = std::find_if(launches.begin(), launches.end(), pending)) {
        const BatchKey key = key_of(*first);
        Provider& p = *first->provider;
        const std::string& provider_name = first->group->provider;
        const std::size_t limit = std::max<std::size_t>(1, p.launch_batch_limit());
        // A provider that calls its API once per node gets as many calls at
        // once as it would from that many workers; a batching one gets one
        // batch at a time.
        const std::size_t parallel = limit == 1 ? std::max<std::size_t>(1, settings_.workers) : 1;
        std::vector<std::vector<NodeLaunch*>> batches;
        std::vector<std::vector<LaunchRequest>> requests;
        for (auto it = first; it != launches.end(); ++it) {
            if (!pending(*it) || key_of(*it) != key)
                continue;
            if (batches.empty() || batches.back().size() == limit) {
                if (batches.size() == parallel)
                    break;
                batches.emplace_back();
                requests.emplace_back();
            }
            LaunchRequest req;
            req.node = it->node;
            req.instance_type = it->record.instance_type;
            req.zone = it->record.zone;
            req.idempotency_token = it->record.token;
            req.tags = settings_.owner;
            req.tags.node = it->node;
            req.spot = it->record.spot;
            req.all_or_nothing = it->job != 0;
            requests.back().push_back(std::move(req));
            batches.back().push_back(&*it);
        }
        if (batches.front().size() > 1) {
            std::vector<std::string> names;
            for (const NodeLaunch* l : batches.front())
                names.push_back(l->node);
            log_.verbose("launch " + describe_nodes(names) + " via " + provider_name + " in one call" +
                         describe_placement(Placement{std::get<1>(key), std::get<2>(key)}) +
                         (std::get<4>(key) ? ", all or none for job " + std::to_string(std::get<4>(key)) : ""));
        }
        std::vector<std::vector<LaunchResult>> results(batches.size());
        if (batches.size() == 1) {
            results[0] = launch_with_retries(p, provider_name, std::get<0>(key), requests[0]);
        } else {
            std::vector<std::future<std::vector<LaunchResult>>> calls;
            for (const auto& reqs : requests)
                calls.push_back(std::async(std::launch::async, [&, reqs] {
                    return launch_with_retries(p, provider_name, std::get<0>(key), reqs);
                }));
            for (std::size_t b = 0; b < calls.size(); ++b)
                results[b] = calls[b].get();
        }
        for (std::size_t b = 0; b < batches.size(); ++b)
            for (std::size_t k = 0; k < batches[b].size(); ++k) {
                NodeLaunch& l = *batches[b][k];
                if (settings_.outcomes)
                    settings_.outcomes->launch(l.group->name, results[b][k].error);
                if (results[b][k].error)
                    record_launch_error(l, results[b][k].error);
                else
                    record_launched(l, results[b][k]);
            }
    }
}

void InstanceManager::record_launched(NodeLaunch& launch, const LaunchResult& launched)
{
    const NodeGroup& group = *launch.group;
    LedgerRecord& record = launch.record;
    if (record.state == InstanceState::Requested || record.state == InstanceState::Launching)
        ledger_.mark_launched(record.token, launched.provider_id, launched.address, clock_.now());
    record.provider_id = launched.provider_id;
    // A job's node counts once the job has all its nodes: an instance
    // terminated because a sibling got none must not clear that shortage.
    if (launch.job == 0)
        health_.launched(group.name, clock_.now(), launch.admission.probe());
    placements_.launched(group.name, launch.places[launch.place]);
    log_.info("launched " + launch.node + " as " + launched.provider_id + " via " + group.provider +
              (record.instance_type.empty() ? "" : " (" + record.instance_type + ")") +
              (record.zone.empty() ? "" : " in " + record.zone) +
              (launch.reused && launch.place == 0 ? " (existing token " + record.token + ")" : "") +
              (launched.address.empty() ? "" : " at " + launched.address));
    if (auto err = actuator_.set_node_instance(
            NodeInstance{launch.node, launched.address, "", launched.provider_id, record.instance_type},
            "instance " + launched.provider_id))
        log_.error("node " + launch.node + ": " + err.message);
    launch.outcome = NodeLaunch::Outcome::Launched;
}

void InstanceManager::record_launch_error(NodeLaunch& launch, const ProviderError& error)
{
    const NodeGroup& group = *launch.group;
    launch.last = error;
    ledger_.mark_failed(launch.record.token, describe(error), clock_.now());
    // Only a shortage is specific to the type and zone; quota, credentials
    // and exhausted retries would fail the next placement the same way.
    if (error.kind == ProviderErrorKind::Capacity) {
        const Placement here = launch.places[launch.place];
        placements_.short_of_capacity(group.name, here, group.recovery, clock_.now());
        if (launch.place + 1 < launch.places.size()) {
            const Placement& next = launch.places[++launch.place];
            log_.info("launch " + launch.node + describe_placement(here) + " via " + group.provider + ": " +
                      describe(error) + "; trying" + describe_placement(next));
            launch.record = ledger_.record_launch_intent(
                LaunchIntent{launch.node, group.name, group.provider, next.instance_type, group.spot, next.zone},
                clock_.now());
            return;
        }
    }
    log_.error("launch " + launch.node + " via " + group.provider + " failed (" + describe(error) + ")");
    health_.launch_failed(group.name, error, clock_.now(), launch.admission.probe());
    launch.outcome = NodeLaunch::Outcome::Failed;
}

void InstanceManager::undo_partial_job(JobId job, const std::vector<NodeLaunch*>& nodes)
{
    const std::string reason = "job " + std::to_string(job) + " did not get all its nodes";
    // Nodes not launched yet never will be; the instances that did launch
    // end at once, one terminate call per provider: none of them bills on
    // for a job that cannot start.
    std::map<Provider*, std::vector<NodeLaunch*>> launched;
    for (NodeLaunch* l : nodes) {
        // A pending node reusing an earlier launch's record may have its instance already.
        const bool has_instance = l->outcome == NodeLaunch::Outcome::Launched ||
                                  (l->outcome == NodeLaunch::Outcome::Pending && !l->record.provider_id.empty());
        if (l->outcome == NodeLaunch::Outcome::Pending && !has_instance) {
            ledger_.mark_failed(l->record.token, reason, clock_.now());
            l->outcome = NodeLaunch::Outcome::Withdrawn;
        } else if (has_instance) {
            ledger_.record_terminate_intent(l->record.token, reason, clock_.now());
            launched[l->provider].push_back(l);
            l->outcome = NodeLaunch::Outcome::Withdrawn;
        }
    }
    for (auto& [p, of_provider] : launched) {
        std::vector<std::string> ids;
        for (const NodeLaunch* l : of_provider)
            ids.push_back(l->record.provider_id);
        const std::map<std::string, ProviderError> errors = p->terminate(ids);
        for (const NodeLaunch* l : of_provider) {
            auto e = errors.find(l->record.provider_id);
            if (settings_.outcomes)
                settings_.outcomes->terminate(l->group->name, e == errors.end() ? ProviderError{} : e->second);
            if (e == errors.end())
                ledger_.mark_terminated(l->record.token, clock_.now());
            else
                log_.error("terminate " + l->record.provider_id + " (" + l->node + ") failed (" +
                           describe(e->second) + "); reconcile retries it");
        }
    }
    std::vector<std::string> names, terminated;
    for (const NodeLaunch* l : nodes)
        names.push_back(l->node);
    for (const auto& [p, of_provider] : launched)
        for (const NodeLaunch* l : of_provider)
            terminated.push_back(l->node);
    const bool hold = partial_job_.load() == PartialJobLaunch::Hold;
    log_.error("job " + std::to_string(job) + ": not all of its nodes got an instance; " +
               (terminated.empty() ? std::string("none launched")
                                   : "terminated those of " + describe_nodes(terminated)) +
               "; handing back " + (names.empty() ? std::string("no node") : describe_nodes(names)) + " and " +
               (hold ? "holding" : "requeueing") + " the job");
    for (NodeLaunch* l : nodes)
        if (!l->handed_back) {
            const bool failed = l->outcome == NodeLaunch::Outcome::Failed;
            force_down(l->node, failed ? "launch failed: " + describe(l->last) : reason);
            l->handed_back = true;
        }
    // Held once its nodes went down and Slurm requeued it: a running job cannot be held.
    if (hold)
        if (auto err = actuator_.hold_job(job, reason))
            log_.error("job " + std::to_string(job) + ": cannot hold it: " + err.message);
}

void InstanceManager::suspend_nodes(const std::vector<std::string>& nodes, bool after_failure)
{
    const NodeGroup* first = group_of(nodes.front());
    if (!first) {
        log_.error("suspend " + nodes.front() + ": belongs to no node group");
        return;
    }
    Provider* p = provider(first->provider);
    const std::string reason = after_failure ? "Slurm gave up resuming the node" : "Slurm powered the node down";
    // A node whose records the ledger cannot read or write is left to
    // reconcile; the others are terminated all the same.
    std::map<std::string, std::vector<LedgerRecord>> open;
    for (const auto& node : nodes) {
        try {
            std::vector<LedgerRecord> of_node = ledger_.open_for_node(node);
            // Launched but never seen up in Slurm: the instance did not boot into a node.
            if (after_failure && std::any_of(of_node.begin(), of_node.end(), [](const LedgerRecord& r) {
                    return r.state == InstanceState::Launching;
                }))
                health_.boot_failed(group_of(node)->name, node + " did not register within ResumeTimeout",
                                    clock_.now());
            for (const auto& r : of_node)
                if (r.state != InstanceState::Terminating)
                    ledger_.record_terminate_intent(r.token, reason, clock_.now());
            open[node] = std::move(of_node);
        } catch (const std::exception& e) {
            log_.error("suspend " + node + ": " + e.what() + "; reconcile ends its instance");
        }
    }
    // The provider's own listing also finds an instance whose launch answer a
    // crash lost (its record has no provider id yet) if it carries its node.
    std::map<std::string, std::set<std::string>> ids; // node -> instances
    for (const auto& [node, records] : open)
        for (const auto& r : records)
            if (!r.provider_id.empty())
                ids[node].insert(r.provider_id);
    ListResult listed = p->list(settings_.owner);
    if (listed.error)
        log_.error("suspend " + describe_nodes(nodes) + ": listing " + first->provider + " failed (" +
                   std::string(to_string(listed.error.kind)) + ": " + listed.error.message +
                   "); terminating the recorded instances only");
    for (const auto& inst : listed.instances)
        if (!inst.gone && open.count(inst.node))
            ids[inst.node].insert(inst.provider_id);
    std::vector<std::string> to_terminate;
    for (const auto& [node, of_node] : ids)
        to_terminate.insert(to_terminate.end(), of_node.begin(), of_node.end());
    std::map<std::string, ProviderError> errors;
    if (!to_terminate.empty())
        errors = p->terminate(to_terminate);
    for (const auto& [node, records] : open) {
        const std::string& group = group_of(node)->name;
        bool failed = false;
        std::string ids_text;
        for (const auto& id : ids[node]) {
            auto e = errors.find(id);
            if (settings_.outcomes)
                settings_.outcomes->terminate(group, e == errors.end() ? ProviderError{} : e->second);
            if (e != errors.end()) {
                failed = true;
                log_.error("terminate " + id + " (" + node + ") failed (" + std::string(to_string(e->second.kind)) +
                           ": " + e->second.message + "); reconcile retries it");
            }
            ids_text += (ids_text.empty() ? "" : ",") + id;
        }
        if (!failed && !listed.error)
            for (const auto& r : records)
                try {
                    ledger_.mark_terminated(r.token, clock_.now());
                } catch (const std::exception& e) {
                    log_.error("suspend " + node + ": " + e.what() + "; reconcile closes its record");
                }
        if (after_failure)
            log_.error("resume of " + node + " failed in Slurm; terminated " +
                       (ids_text.empty() ? "nothing" : ids_text));
        else
            log_.info("retired " + node + ": terminated " + (ids_text.empty() ? "nothing (no instance)" : ids_text));
    }
}

void InstanceManager::observe_nodes(const std::vector<Node>& nodes)
{
    std::map<std::string, std::vector<LedgerRecord>> launching;
    for (auto& r : ledger_.in_state(InstanceState::Launching))
        launching[r.node].push_back(std::move(r));
    if (launching.empty())
        return;
    for (const auto& n : nodes) {
        if (!n.cloud() || !n.usable())
            continue;
        auto it = launching.find(n.name);
        if (it == launching.end())
            continue;
        for (const auto& r : it->second) {
            try {
                ledger_.mark_running(r.token, clock_.now());
            } catch (const LedgerError& e) { // closed by a worker since it was read
                log_.verbose("node " + n.name + " is up: " + e.what());
                continue;
            }
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
    for (const auto& [name, p] : providers_) {
        if (!only.empty() && !only.count(name))
            continue;
        ListResult listed = p->list(settings_.owner);
        if (listed.error)
            log_.error("reconcile: listing " + name + " failed (" + std::string(to_string(listed.error.kind)) +
                       ": " + listed.error.message + "); its records are left as they are");
        input.listings.push_back(ProviderListing{name, std::move(listed.instances), !listed.error});
    }
    // The open records, and the closed ones of instances still listed: not
    // the whole history, which grows with every launch.
    input.records = ledger_.open_records();
    std::vector<std::string> listed;
    for (const auto& l : input.listings)
        for (const auto& inst : l.instances)
            listed.push_back(inst.provider_id);
    for (auto& r : ledger_.with_provider_ids(listed))
        if (!r.open())
            input.records.push_back(std::move(r));
    std::sort(input.records.begin(), input.records.end(),
              [](const LedgerRecord& a, const LedgerRecord& b) { return a.id < b.id; });
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
    // A listed instance backs its node by its node tag, or (an EC2 fleet's,
    // which carry none) by the id an open record of the node holds.
    std::map<std::string, std::string> node_of_id;
    for (const auto& r : input.records)
        if (r.open() && !r.provider_id.empty())
            node_of_id[r.provider_id] = r.node;
    for (const auto& l : input.listings) {
        complete = complete && l.complete;
        for (const auto& i : l.instances) {
            if (i.gone)
                continue;
            listed_nodes.insert(i.node);
            if (auto it = node_of_id.find(i.provider_id); it != node_of_id.end())
                listed_nodes.insert(it->second);
        }
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
