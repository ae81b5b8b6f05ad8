#include "ledger/reconciler.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <utility>

namespace burst {

std::string_view to_string(RepairKind kind)
{
    switch (kind) {
    case RepairKind::AdoptInstance: return "adopt-instance";
    case RepairKind::MarkFailed: return "mark-failed";
    case RepairKind::MarkTerminated: return "mark-terminated";
    case RepairKind::TerminateInstance: return "terminate-instance";
    case RepairKind::PowerDownNode: return "power-down-node";
    }
    return "unknown";
}

namespace {

std::string secs(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0fs", s);
    return buf;
}

// A live instance and the open ledger record it belongs to, if any.
struct Backing {
    std::string provider;
    const ProviderInstance* instance = nullptr;
    const LedgerRecord* record = nullptr;
    bool adopted = false; // record was still Requested: its launch answer was lost
};

// Collects actions, keeping at most one per instance, per record and per node
// power-down, so overlapping findings do not repeat work.
class RepairPlan {
public:
    void adopt(const Backing& b, std::string reason)
    {
        if (!touched_records_.insert(b.record->token).second)
            return;
        add({RepairKind::AdoptInstance, b.record->node, b.record->token, b.provider,
             b.instance->provider_id, b.instance->address, std::move(reason)});
    }
    void terminate(const std::string& provider, const ProviderInstance& inst, const LedgerRecord* rec,
                   std::string reason)
    {
        if (!terminated_.insert({provider, inst.provider_id}).second)
            return;
        std::string token = rec && rec->open() ? rec->token : std::string();
        add({RepairKind::TerminateInstance, rec ? rec->node : inst.node, token, provider, inst.provider_id,
             "", std::move(reason)});
    }
    void close(RepairKind kind, const LedgerRecord& rec, std::string reason)
    {
        if (!touched_records_.insert(rec.token).second)
            return;
        add({kind, rec.node, rec.token, rec.provider, rec.provider_id, "", std::move(reason)});
    }
    void power_down(const std::string& node, std::string reason, bool boot_failure)
    {
        if (!powered_down_.insert(node).second)
            return;
        add({RepairKind::PowerDownNode, node, "", "", "", "", std::move(reason), boot_failure});
    }
    std::vector<RepairAction> take()
    {
        std::stable_sort(actions_.begin(), actions_.end(),
                         [](const RepairAction& a, const RepairAction& b) { return a.kind < b.kind; });
        return std::move(actions_);
    }

private:
    void add(RepairAction a) { actions_.push_back(std::move(a)); }
    std::vector<RepairAction> actions_;
    std::set<std::string> touched_records_;
    std::set<std::pair<std::string, std::string>> terminated_;
    std::set<std::string> powered_down_;
};

// Preference among several instances backing one node: the one Slurm already
// knows as running, then one the ledger saw launched, then an adopted one;
// the oldest request first within each.
int rank(const Backing& b)
{
    if (b.adopted)
        return 2;
    return b.record->state == InstanceState::Running ? 0 : 1;
}

class Reconciliation {
public:
    explicit Reconciliation(const ReconcileInput& in) : in_(in) {}

    std::vector<RepairAction> run()
    {
        for (const auto& listing : in_.listings)
            judge_listing(listing);
        for (const auto& node : in_.nodes)
            if (node.cloud())
                judge_node(node);
        return plan_.take();
    }

private:
    void judge_listing(const ProviderListing& listing)
    {
        std::vector<const LedgerRecord*> records;
        std::map<std::string, const LedgerRecord*> by_id;
        for (const auto& r : in_.records)
            if (r.provider == listing.provider) {
                records.push_back(&r);
                if (!r.provider_id.empty())
                    by_id[r.provider_id] = &r; // later records win: ids are never reused by one provider
            }
        std::set<std::string> claimed;
        std::map<std::string, std::vector<Backing>> candidates;

        for (const auto& inst : listing.instances) {
            if (inst.gone) {
                // A reclaimed instance is gone at the provider, but Slurm may
                // still count on its node and its jobs: give them back.
                auto it = by_id.find(inst.provider_id);
                if (inst.reclaimed && it != by_id.end() && it->second->open() &&
                    it->second->state != InstanceState::Terminating) {
                    claimed.insert(it->second->token);
                    reclaimed(listing.provider, inst, *it->second);
                }
                continue;
            }
            const LedgerRecord* rec = nullptr;
            bool adopted = false;
            if (auto it = by_id.find(inst.provider_id); it != by_id.end()) {
                rec = it->second;
            } else {
                for (const LedgerRecord* r : records)
                    if (r->state == InstanceState::Requested && r->node == inst.node &&
                        r->provider_id.empty() && !claimed.count(r->token)) {
                        rec = r;
                        adopted = true;
                        break;
                    }
            }
            // Perhaps a batch's whose answer a crash lost: relaunched with
            // its tokens, the batch gets the same instances back.
            if (!rec && inst.node.empty() && answer_awaited(listing.provider))
                continue;
            if (!rec) {
                plan_.terminate(listing.provider, inst, nullptr,
                                "instance " + inst.provider_id + " tagged for node " + inst.node +
                                    " is not in the ledger: leaked by an earlier run");
                continue;
            }
            claimed.insert(rec->token);
            if (!rec->open()) {
                plan_.terminate(listing.provider, inst, rec,
                                "instance " + inst.provider_id + " still exists but the ledger says " +
                                    std::string(to_string(rec->state)));
            } else if (rec->state == InstanceState::Terminating) {
                plan_.terminate(listing.provider, inst, rec,
                                "termination of " + inst.provider_id + " asked for " +
                                    secs(in_.now - rec->terminate_requested_at) +
                                    " ago but it still exists: retrying");
            } else if (inst.reclaimed) {
                reclaimed(listing.provider, inst, *rec);
            } else {
                candidates[rec->node].push_back({listing.provider, &inst, rec, adopted});
            }
        }

        for (auto& [node, backings] : candidates)
            keep_one(node, backings);

        if (!listing.complete)
            return;
        for (const LedgerRecord* r : records)
            if (r->open() && !claimed.count(r->token))
                judge_missing_instance(*r, listing.provider);
    }

    // A launch of this provider asked for within the launch grace has no
    // answer recorded yet.  An EC2 fleet's instances carry no node tag, so
    // one of them listed without a record may be that launch's.
    bool answer_awaited(const std::string& provider) const
    {
        return std::any_of(in_.records.begin(), in_.records.end(), [&](const LedgerRecord& r) {
            return r.provider == provider && r.state == InstanceState::Requested && r.provider_id.empty() &&
                   in_.now - r.requested_at < in_.launch_grace;
        });
    }

    // Ends the instance (idempotent when already gone) and powers the node
    // down, which makes Slurm requeue the jobs that were running on it.
    void reclaimed(const std::string& provider, const ProviderInstance& inst, const LedgerRecord& rec)
    {
        plan_.terminate(provider, inst, &rec, "instance " + inst.provider_id + " was reclaimed by the provider");
        power_down(rec.node, "its instance " + inst.provider_id + " was reclaimed by the provider; requeueing its jobs");
    }

    void keep_one(const std::string& node, std::vector<Backing>& backings)
    {
        std::stable_sort(backings.begin(), backings.end(), [](const Backing& a, const Backing& b) {
            if (rank(a) != rank(b))
                return rank(a) < rank(b);
            return a.record->id < b.record->id;
        });
        const Backing& kept = backings.front();
        kept_[node] = kept;
        if (kept.adopted)
            plan_.adopt(kept, "launch intent from " + secs(in_.now - kept.record->requested_at) +
                                  " ago has instance " + kept.instance->provider_id +
                                  " at the provider: the launch answer was lost");
        for (std::size_t i = 1; i < backings.size(); ++i)
            plan_.terminate(backings[i].provider, *backings[i].instance, backings[i].record,
                            "second instance for node " + node + ": keeping " +
                                kept.instance->provider_id);
    }

    void judge_missing_instance(const LedgerRecord& r, const std::string& provider)
    {
        Seconds age = in_.now - std::max(r.requested_at, r.launched_at);
        switch (r.state) {
        case InstanceState::Requested:
            if (age < in_.launch_grace)
                return; // the provider call may still be in flight
            plan_.close(RepairKind::MarkFailed, r,
                        "no instance at " + provider + " " + secs(age) + " after the launch intent");
            power_down(r.node, "its launch intent has no instance at " + provider);
            return;
        case InstanceState::Launching:
        case InstanceState::Running:
            if (age < in_.launch_grace)
                return; // listed before the instance became visible
            plan_.close(RepairKind::MarkTerminated, r,
                        "instance " + r.provider_id + " no longer exists at " + provider);
            // Gone before its node ever registered: it did not boot.
            power_down(r.node, "its instance " + r.provider_id + " no longer exists at " + provider,
                       r.state == InstanceState::Launching);
            return;
        case InstanceState::Terminating:
            plan_.close(RepairKind::MarkTerminated, r,
                        "instance " + r.provider_id + " is gone at " + provider + " after terminate");
            return;
        case InstanceState::Terminated:
        case InstanceState::Failed:
            return;
        }
    }

    // Only nodes Slurm reports and that are not already (being) powered down:
    // repeating POWER_DOWN_FORCE every cycle would only add noise.
    void power_down(const std::string& name, const std::string& why, bool boot_failure = false)
    {
        for (const auto& n : in_.nodes)
            if (n.name == name && !n.has(kNodePoweredDown) && !n.has(kNodePoweringDown))
                plan_.power_down(name, why, boot_failure);
    }

    // Gives up on a node: power it down in Slurm, end whatever backs it.  An
    // instance that launched but whose node never came up is a boot failure.
    void abandon(const Node& node, const std::string& why)
    {
        const bool never_registered =
            std::any_of(in_.records.begin(), in_.records.end(), [&](const LedgerRecord& r) {
                return r.node == node.name && r.state == InstanceState::Launching;
            });
        // 22.05 leaves a node that missed ResumeTimeout DOWN *and* powered
        // down: it must be powered down again to leave DOWN.
        if (node.has(kNodePoweredDown))
            plan_.power_down(node.name, why, never_registered);
        else
            power_down(node.name, why, never_registered);
        if (auto it = kept_.find(node.name); it != kept_.end())
            plan_.terminate(it->second.provider, *it->second.instance, it->second.record, why);
        for (const auto& r : in_.records)
            if (r.node == node.name && r.state == InstanceState::Requested && r.provider_id.empty())
                plan_.close(RepairKind::MarkFailed, r, why);
    }

    void judge_node(const Node& node)
    {
        if (node.has(kNodePoweringUp)) {
            const LedgerRecord* latest = nullptr;
            for (const auto& r : in_.records)
                if (r.node == node.name && r.open() && (!latest || r.requested_at > latest->requested_at))
                    latest = &r;
            if (latest && in_.now - latest->requested_at > in_.resume_timeout)
                abandon(node, "node " + node.name + " powering up for " +
                                  secs(in_.now - latest->requested_at) + ", past ResumeTimeout=" +
                                  secs(in_.resume_timeout));
            return;
        }
        if (node.base == NodeBaseState::Down && !node.has(kNodePoweringDown) &&
            (!node.has(kNodePoweredDown) || node.has(kNodeNotResponding))) {
            // Slurm sets a node that missed ResumeTimeout DOWN (in 22.05 also
            // powered down and not responding) without calling SuspendProgram:
            // nobody else will clean it up.  A node an admin set DOWN while
            // powered down responds and is left alone.
            abandon(node, "CLOUD node " + node.name + " is DOWN (failed resume)");
            return;
        }
        if (node.has(kNodePoweredDown)) {
            auto it = kept_.find(node.name);
            if (it == kept_.end())
                return;
            const LedgerRecord& r = *it->second.record;
            // Slurm's view may predate the resume, but not once the node has
            // registered: then it was suspended since (e.g. burstd died
            // between Slurm's suspend request and the termination).
            const bool registered = r.state == InstanceState::Running;
            if (!registered && in_.now - std::max(r.requested_at, r.launched_at) < in_.launch_grace)
                return;
            plan_.terminate(it->second.provider, *it->second.instance, it->second.record,
                            "node " + node.name + " is powered down in Slurm but instance " +
                                it->second.instance->provider_id + " still runs");
        }
    }

    const ReconcileInput& in_;
    RepairPlan plan_;
    std::map<std::string, Backing> kept_;
};

} // namespace

std::vector<RepairAction> reconcile(const ReconcileInput& input)
{
    return Reconciliation(input).run();
}

} // namespace burst
