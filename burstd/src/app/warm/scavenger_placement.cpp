#include "app/warm/scavenger_placement.hpp"

#include "model/gres.hpp"
#include "model/partition.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <unordered_map>

namespace burst {

namespace {

constexpr std::string_view kOffCloud = "jobs of ScavengerQOS never run on cloud nodes";
constexpr std::string_view kOnlyCloudWhy = "scavenger-job-only-for-cloud-nodes";
const PendingReason kHeldByAdmin("JobHeldAdmin");
const PendingReason kHeldByUser("JobHeldUser");

const NodeGroup* group_of_node(const ClusterState& state, const std::string& node)
{
    for (const auto& g : state.groups)
        if (std::find(g.nodes.begin(), g.nodes.end(), node) != g.nodes.end())
            return &g;
    return nullptr;
}

bool is_group_partition(const ClusterState& state, const std::string& partition)
{
    return std::any_of(state.groups.begin(), state.groups.end(),
                       [&](const NodeGroup& g) { return group_partition(g) == partition; });
}

// The partitions of `asked` that are (not) node groups'.
std::vector<std::string> partitions_of(const ClusterState& state, const std::vector<std::string>& asked, bool groups)
{
    std::vector<std::string> kept;
    for (const auto& p : asked)
        if (is_group_partition(state, p) == groups)
            kept.push_back(p);
    return kept;
}

std::string joined(const std::vector<std::string>& words)
{
    std::string text;
    for (const auto& w : words)
        text += (text.empty() ? "" : ",") + w;
    return text;
}

bool held(const Job& job)
{
    return job.reason == kHeldByAdmin || job.reason == kHeldByUser;
}

// Up, taking work, and not about to power down.
bool up(const Node& node)
{
    return node.usable() && !node.has(kNodePowerDownPending);
}

std::unordered_map<std::string, const Node*> nodes_by_name(const ClusterState& state)
{
    std::unordered_map<std::string, const Node*> nodes;
    for (const auto& n : state.snapshot.nodes)
        nodes.emplace(n.name, &n);
    return nodes;
}

// Which job runs on each node, placeholders apart from the rest.
struct NodeUse {
    std::unordered_map<std::string, const Job*> placeholder; // a placeholder of burstd's, running (not completing)
    std::unordered_map<std::string, JobId> other;            // any other job running, completing or suspended
};

NodeUse node_use(const ClusterState& state)
{
    NodeUse use;
    for (const auto& p : state.standby.placeholders)
        if (p.state == JobState::Running && p.name == kPlaceholderName)
            for (const auto& n : p.nodes)
                use.placeholder.emplace(n, &p);
    for (const auto* jobs : {&state.snapshot.jobs, &state.standby.scavengers, &state.standby.interactive_holds})
        for (const auto& job : *jobs)
            if (job.running() || job.state == JobState::Suspended)
                for (const auto& n : job.nodes)
                    use.other.emplace(n, job.id);
    return use;
}

// What one node has, as the snapshot lists it (unreadable gres: none).
NodeOffer offer_of(const Node& node)
{
    NodeOffer offer;
    try {
        offer.gres = parse_node_gres(node.gres);
    } catch (const std::invalid_argument&) {
    }
    offer.features = node.features;
    std::sort(offer.features.begin(), offer.features.end());
    offer.cpus = node.cpus;
    offer.memory_mb = node.memory_mb;
    return offer;
}

// Whether `job` can run alone on a node that has `offer`.
bool fits(const Job& job, const NodeOffer& offer)
{
    return (offer.cpus == 0 || job.cpus <= offer.cpus) &&
           (offer.memory_mb == 0 || job.memory_mb <= offer.memory_mb) && job.needs.met_by(offer);
}

} // namespace

void ScavengerPlacement::load(std::vector<Step>& steps)
{
    if (loaded_)
        return;
    try {
        for (auto& r : ledger_.scavengers())
            records_.emplace(r.job, std::move(r));
        loaded_ = true;
    } catch (const std::exception& e) {
        steps.push_back(Step{"read the scavenger jobs' partitions and pins from the ledger",
                             "they survive a restart there", e.what()});
    }
}

bool ScavengerPlacement::save(const ScavengerRecord& record, std::vector<Step>& steps, const std::string& action)
{
    try {
        ledger_.save_scavenger(record);
        return true;
    } catch (const std::exception& e) {
        steps.push_back(Step{action, "the ledger keeps it for a restart", e.what()});
        return false;
    }
}

void ScavengerPlacement::forget(const std::vector<JobId>& jobs, std::string_view why, std::vector<Step>& steps)
{
    if (jobs.empty())
        return;
    try {
        ledger_.forget_scavengers(jobs);
    } catch (const std::exception& e) {
        steps.push_back(Step{"forget scavenger jobs " + ids_text(jobs) + " in the ledger", std::string(why), e.what()});
        return;
    }
    for (JobId id : jobs) {
        records_.erase(id);
        started_.erase(id);
        would_not_start_.erase(id);
    }
}

std::string ScavengerPlacement::pinned_node(JobId id) const
{
    auto r = records_.find(id);
    return r == records_.end() ? "" : r->second.node;
}

std::vector<ScavengerPlacement::Step> ScavengerPlacement::settle(const ClusterState& state, bool enabled)
{
    std::vector<Step> steps;
    load(steps);
    if (!loaded_)
        return steps;
    std::unordered_map<JobId, const Job*> jobs;
    for (const auto* list : {&state.snapshot.jobs, &state.standby.placeholders, &state.standby.interactive_holds})
        for (const auto& job : *list)
            jobs.emplace(job.id, &job);
    std::unordered_map<JobId, const Job*> scavengers;
    for (const auto& job : state.standby.scavengers) {
        jobs.emplace(job.id, &job);
        scavengers.emplace(job.id, &job);
    }
    std::vector<JobId> ended;
    for (const auto& [id, record] : records_)
        if (!jobs.count(id))
            ended.push_back(id);
    forget(ended, "they ended", steps);

    // Real work now (its QOS changed, or ScavengerQOS= went in a reload):
    // it may run wherever it asked to, as burstd found it.
    std::vector<JobId> real;
    for (auto& [id, record] : records_) {
        const auto found = jobs.find(id);
        if (found == jobs.end() || scavengers.count(id))
            continue;
        if (found->second->pending() && (!record.node.empty() || record.held) &&
            !give_back(*found->second, record, steps))
            continue;
        real.push_back(id);
    }
    forget(real, "they are no jobs of ScavengerQOS any more", steps);

    const auto nodes = nodes_by_name(state);
    const NodeUse use = node_use(state);
    for (auto& [id, record] : records_) {
        const auto found = scavengers.find(id);
        if (record.node.empty() || found == scavengers.end())
            continue;
        const Job& job = *found->second;
        if (job.running())
            started_.insert(id);
        if (!job.pending())
            continue;
        // Seen running since it was pinned: Slurm holds it back until its
        // BeginTime.  (A restart forgets that: it is then put back when its
        // time is up, and waits out that BeginTime.)
        const bool requeued = started_.count(id) > 0;
        const auto node = nodes.find(record.node);
        const auto other = use.other.find(record.node);
        std::string why;
        if (!enabled)
            why = "ScavengeWarmNodes=yes no more";
        else if (requeued)
            why = "it was requeued from " + record.node;
        else if (!group_of_node(state, record.node) || node == nodes.end() || !up(*node->second))
            why = "node " + record.node + " is not up";
        else if (other != use.other.end())
            why = "job " + std::to_string(other->second) + " runs on " + record.node;
        else if (state.snapshot.time - record.pinned_at > kStartGrace) {
            why = "it did not start on " + record.node + " within " + std::to_string(int(kStartGrace)) + " s";
            would_not_start_.insert(id);
        }
        if (!why.empty())
            put_back(id, record, state, requeued, why, steps);
    }
    return steps;
}

void ScavengerPlacement::put_back(JobId job, ScavengerRecord& record, const ClusterState& state, bool requeued,
                                  std::string_view why, std::vector<Step>& steps)
{
    const std::string node = record.node;
    JobPlacement back;
    back.job = job;
    back.partitions = partitions_of(state, record.asked, false);
    const bool hold = back.partitions.empty();
    if (hold) // asked for node groups' partitions only: it waits held, as before
        back.partitions = partitions_of(state, record.asked, true);
    if (back.partitions.empty()) // no node group's either, since a reload
        back.partitions = record.asked;
    back.start_now = requeued;
    Step step{"put scavenger job " + std::to_string(job) + " back from warm node " + node +
                  (hold ? " (held: only node groups' partitions)" : " (partitions " + joined(back.partitions) + ")"),
              std::string(why), ""};
    // Held first: a job with a node group's partition and no ReqNodeList
    // would have Slurm resume a node for it.
    ActuatorError refused = hold ? actuator_.hold_job(job, step.reason) : ActuatorError{};
    if (!refused)
        refused = actuator_.place_job(back, step.reason);
    if (refused) {
        // Whatever part of it Slurm took, held the job can start nowhere.
        if (ActuatorError e = hold ? refused : actuator_.hold_job(job, step.reason)) {
            step.error = refused.message + (e.message == refused.message ? "" : "; " + e.message);
            steps.push_back(std::move(step));
            return;
        }
        step.error = refused.message + " (held instead: release it by hand)";
    }
    if (hold || refused)
        actuator_.set_job_why(job, kOnlyCloudWhy);
    steps.push_back(std::move(step));
    record.node.clear();
    record.pinned_at = 0;
    record.held = hold || refused;
    started_.erase(job);
    handled_.insert(job);
    save(record, steps, "forget the pin of scavenger job " + std::to_string(job));
}

bool ScavengerPlacement::give_back(const Job& job, const ScavengerRecord& record, std::vector<Step>& steps)
{
    JobPlacement back;
    back.job = job.id;
    back.partitions = record.asked;
    if (record.held)
        back.hold = JobPlacement::Hold::Release;
    Step step{"give job " + std::to_string(job.id) + " back its partitions " + joined(record.asked) +
                  (record.node.empty() ? "" : " and any node") + (record.held ? ", released" : ""),
              "it is no job of ScavengerQOS any more", ""};
    if (ActuatorError e = actuator_.place_job(back, step.reason))
        step.error = e.message;
    else if (record.held)
        actuator_.set_job_why(job.id, "");
    const bool done = step.error.empty();
    steps.push_back(std::move(step));
    return done;
}

bool ScavengerPlacement::pin(const Job& job, ScavengerRecord& record, const NodeGroup& group,
                             const ClusterState& state, std::string_view reason, std::vector<Step>& steps)
{
    JobPlacement placement;
    placement.job = job.id;
    placement.partitions = {group_partition(group)};
    placement.node = record.node;
    if (record.held)
        placement.hold = JobPlacement::Hold::Release;
    ActuatorError e = actuator_.place_job(placement, reason);
    if (!e) {
        if (record.held)
            actuator_.set_job_why(job.id, "");
        return true;
    }
    steps.push_back(Step{"put scavenger job " + std::to_string(job.id) + " on warm node " + record.node,
                         std::string(reason), e.message + " (not pinned again)"});
    would_not_start_.insert(job.id);
    put_back(job.id, record, state, false, "Slurm refused to pin it", steps);
    return false;
}

PlaceholderPool::Pinned ScavengerPlacement::pinned(const ClusterState& state, const PlaceholderPool& pool) const
{
    PlaceholderPool::Pinned out;
    const NodeUse use = node_use(state);
    for (const auto& job : state.standby.scavengers) {
        const std::string node = pinned_node(job.id);
        if (node.empty())
            continue;
        out.jobs.push_back(job.id);
        if (!job.pending())
            continue;
        if (auto p = use.placeholder.find(node); p != use.placeholder.end() && !pool.cancelled(p->second->id))
            continue; // the placeholder still holds it
        if (const NodeGroup* g = group_of_node(state, node))
            ++out.waiting[g->name];
    }
    return out;
}

std::vector<std::string> ScavengerPlacement::awaited_nodes(const ClusterState& state) const
{
    std::vector<std::string> nodes;
    for (const auto& job : state.standby.scavengers)
        if (const std::string node = pinned_node(job.id); !node.empty() && job.pending())
            nodes.push_back(node);
    return nodes;
}

std::vector<ScavengerPlacement::Step> ScavengerPlacement::fill_warm_nodes(const ClusterState& state,
                                                                          PlaceholderPool& pool, Time now)
{
    std::vector<Step> steps;
    if (!loaded_)
        return steps;
    const NodeUse use = node_use(state);
    const auto nodes = nodes_by_name(state);

    // A pin made just before a crash, its placeholder still running: the
    // pin is sent again (Slurm may not have had it), then the placeholder goes.
    std::set<std::string> taken;
    for (const auto& job : state.standby.scavengers) {
        const std::string node = pinned_node(job.id);
        if (node.empty() || !job.pending())
            continue;
        taken.insert(node);
        auto p = use.placeholder.find(node);
        const NodeGroup* group = group_of_node(state, node);
        if (p == use.placeholder.end() || pool.cancelled(p->second->id) || !group)
            continue;
        const std::string reason = "scavenger job " + std::to_string(job.id) + " takes warm node " + node;
        if (!pin(job, records_.at(job.id), *group, state, reason, steps))
            continue;
        Step step{"", reason, ""};
        step.action = pool.hand_over(*p->second, job.id, now, step.error);
        if (step.action.empty())
            step.action = "cancel placeholder job " + std::to_string(p->second->id);
        steps.push_back(std::move(step));
    }

    std::vector<const Job*> waiting; // lowest job id first
    for (const auto& job : state.standby.scavengers) {
        auto r = records_.find(job.id);
        if (!job.pending() || r == records_.end() || !r->second.node.empty() || would_not_start_.count(job.id) ||
            job.array_task_count != 1 || job.node_count != 1 || job.reason == kHeldByUser)
            continue;
        // burstd's own hold is lifted by the pin (the snapshot may not show
        // it yet); any other reason that keeps a job from starting keeps it off.
        if (job.blocked() && !(r->second.held && job.reason == kHeldByAdmin))
            continue;
        if (!job.dependency.empty()) // burstd's hold hides it
            continue;
        waiting.push_back(&job);
    }
    std::sort(waiting.begin(), waiting.end(), [](const Job* a, const Job* b) { return a->id < b->id; });

    for (const auto& group : state.groups) {
        const std::string& partition = group_partition(group);
        const Seconds max_time = state.snapshot.max_time_of(partition); // Slurm starts no longer job there
        for (const Job* placeholder : placeholders_of(group, state)) {
            if (placeholder->state != JobState::Running || placeholder->nodes.size() != 1 ||
                pool.cancelled(placeholder->id))
                continue;
            const std::string& node = placeholder->nodes.front();
            const auto n = nodes.find(node);
            if (taken.count(node) || n == nodes.end() || !up(*n->second) || use.other.count(node))
                continue;
            const NodeOffer offer = offer_of(*n->second);
            auto fit = std::find_if(waiting.begin(), waiting.end(), [&](const Job* job) {
                const auto& asked = records_.at(job->id).asked;
                return std::find(asked.begin(), asked.end(), partition) != asked.end() && fits(*job, offer) &&
                       within_max_time(job->time_limit, max_time);
            });
            if (fit == waiting.end())
                continue;
            const Job& job = **fit;
            waiting.erase(fit);
            ScavengerRecord& record = records_.at(job.id);
            const std::string action = "put scavenger job " + std::to_string(job.id) + " on warm node " + node;
            const std::string reason = "ScavengeWarmNodes=yes: it takes the place of placeholder job " +
                                       std::to_string(placeholder->id);
            // The ledger first: a crash after the pin then still knows it.
            record.node = node;
            record.pinned_at = state.snapshot.time;
            if (!save(record, steps, action)) {
                record.node.clear();
                record.pinned_at = 0;
                continue;
            }
            taken.insert(node);
            if (!pin(job, record, group, state, reason, steps))
                continue;
            Step step{action, reason, ""};
            const std::string cancelled = pool.hand_over(*placeholder, job.id, now, step.error);
            if (!cancelled.empty())
                step.action += ", " + cancelled;
            steps.push_back(std::move(step));
        }
    }
    return steps;
}

std::vector<ScavengerPlacement::Step> ScavengerPlacement::keep_off_cloud(const ClusterState& state, bool enabled)
{
    std::vector<Step> steps;
    std::set<JobId> still_waiting;
    struct Move {
        const Job* job;
        std::vector<std::string> kept; // none: held
    };
    std::vector<Move> moves;
    std::vector<ScavengerRecord> asked_for;
    for (const auto& job : state.standby.scavengers) {
        if (!job.pending())
            continue;
        still_waiting.insert(job.id);
        if (!pinned_node(job.id).empty() || handled_.count(job.id))
            continue;
        const std::vector<std::string> asked(job.partitions.begin(), job.partitions.end());
        std::vector<std::string> kept = partitions_of(state, asked, false);
        if (kept.size() == asked.size() || (kept.empty() && held(job)))
            continue;
        if (enabled && loaded_ && !records_.count(job.id)) {
            ScavengerRecord record{job.id, asked, kept.empty(), "", 0};
            asked_for.push_back(record);
            records_.emplace(job.id, std::move(record));
        }
        moves.push_back(Move{&job, std::move(kept)});
    }
    // What they asked for is kept before it is taken away: where each may go
    // on a warm node, and where it goes back from one.  Known until a
    // restart all the same should the ledger fail.
    try {
        ledger_.save_scavengers(asked_for);
    } catch (const std::exception& e) {
        steps.push_back(Step{"keep the partitions scavenger jobs asked for in the ledger",
                             "a restart would not know them", e.what()});
    }
    for (const Move& move : moves) {
        const JobId id = move.job->id;
        Step step{"", std::string(kOffCloud), ""};
        if (move.kept.empty()) {
            // Each node Slurm resumed for it would be refused and the job
            // requeued, again and again: it waits for a partition of local
            // nodes, or a warm node.
            step.action = "hold scavenger job " + std::to_string(id) + " (only node groups' partitions)";
            step.error = actuator_.hold_job(id, step.reason).message;
            if (step.error.empty())
                actuator_.set_job_why(id, kOnlyCloudWhy);
        } else {
            step.action = "keep scavenger job " + std::to_string(id) + " off the cloud (partitions " +
                          joined(move.kept) + ")";
            step.error = actuator_.set_job_partitions(id, move.kept, step.reason).message;
        }
        if (step.error.empty())
            handled_.insert(id);
        steps.push_back(std::move(step));
    }
    for (auto it = handled_.begin(); it != handled_.end();)
        it = still_waiting.count(*it) ? std::next(it) : handled_.erase(it);
    return steps;
}

} // namespace burst
