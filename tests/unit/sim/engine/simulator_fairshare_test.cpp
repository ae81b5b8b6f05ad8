#include "policy/hiring/never/never_policy.hpp"
#include "policy/policy_registry.hpp"
#include "sim/engine/simulator.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/sim_fixtures.hpp"

using namespace burst;
using namespace burst::test;

namespace {

// Each account's jobs are its own user's.
TraceJob job(JobId id, Time submit, std::uint32_t cpus, Seconds runtime, const std::string& account)
{
    return submitted_by(account, account, trace_job(id, submit, cpus, runtime));
}

SimConfig site(std::uint32_t cores)
{
    return local_site(cores, 1, 60);
}

PriorityConfig fairshare_only()
{
    PriorityConfig p;
    p.type = PriorityType::Multifactor;
    p.weight_fairshare = 10000;
    p.calc_period = 60;
    return p;
}

// Records what each decision was shown.
class Recorder final : public Policy {
public:
    std::function<void(const ClusterState&)> seen;
    std::string_view name() const override { return "recorder"; }
    Decision decide(const ClusterState& state, const Clock&) override
    {
        seen(state);
        return {};
    }
    void observe(const JobEnd&) override {}
};

// Runs a real policy and shows each state with the decision taken on it.
class Tap final : public Policy {
public:
    explicit Tap(std::unique_ptr<Policy> inner) : inner_(std::move(inner)) {}
    std::function<void(const ClusterState&, const Decision&)> seen;
    std::string_view name() const override { return inner_->name(); }
    Decision decide(const ClusterState& state, const Clock& clock) override
    {
        Decision d = inner_->decide(state, clock);
        seen(state, d);
        return d;
    }
    void observe(const JobEnd& end) override { inner_->observe(end); }
    // The tests read the inner policy's notes, which a replay would have it leave out.
    void set_notes_read(bool) override {}

private:
    std::unique_ptr<Policy> inner_;
};

// One core.  heavy's job 1 holds it 0–1000 s; heavy queues job 2 at 100 s,
// light job 3 at 200 s.  FCFS runs 2 then 3; with fair-share, heavy's usage
// (charged at every 60-s pass while job 1 runs) puts light's job first.
std::vector<TraceJob> heavy_then_light()
{
    return {job(1, 0, 1, 1000, "heavy"), job(2, 100, 1, 100, "heavy"), job(3, 200, 1, 100, "light")};
}

} // namespace

TEST_GROUP(SimulatorFairShare){};

TEST(SimulatorFairShare, FcfsByDefaultButFairShareStartsTheLightAccountFirst)
{
    const auto trace = heavy_then_light();
    PolicyParams none;
    NeverPolicy never(none);
    SimConfig fifo = site(1);
    const SimResult a = simulate(fifo, trace, never);
    DOUBLES_EQUAL(1000, outcome(a, 2).start, 1e-9);
    DOUBLES_EQUAL(1100, outcome(a, 3).start, 1e-9);

    SimConfig mf = site(1);
    mf.priority = fairshare_only();
    const SimResult b = simulate(mf, trace, never);
    DOUBLES_EQUAL(1000, outcome(b, 3).start, 1e-9);
    DOUBLES_EQUAL(1100, outcome(b, 2).start, 1e-9);
}

TEST(SimulatorFairShare, AgeAloneKeepsFcfsAndEqualFactorsFallBackToSubmitOrder)
{
    // Same usage pattern but one account: fair-share cannot tell the jobs
    // apart, and age favours the older job 2.
    auto trace = heavy_then_light();
    trace[2].account = trace[2].user = "heavy";
    PolicyParams none;
    NeverPolicy never(none);
    SimConfig mf = site(1);
    mf.priority = fairshare_only();
    mf.priority.weight_age = 1000;
    const SimResult r = simulate(mf, trace, never);
    DOUBLES_EQUAL(1000, outcome(r, 2).start, 1e-9);
    DOUBLES_EQUAL(1100, outcome(r, 3).start, 1e-9);
}

TEST(SimulatorFairShare, SnapshotCarriesAccountSharesAndJobPrioritiesOnlyWithMultifactor)
{
    const auto trace = heavy_then_light();
    std::vector<Share> last_shares;
    std::map<JobId, std::uint32_t> priority;
    Recorder rec;
    rec.seen = [&](const ClusterState& s) {
        last_shares = s.snapshot.shares;
        for (const auto& j : s.snapshot.jobs)
            if (j.state == JobState::Pending)
                priority[j.id] = j.priority;
    };
    SimConfig fifo = site(1);
    simulate(fifo, trace, rec);
    CHECK(last_shares.empty());

    SimConfig mf = site(1);
    mf.priority = fairshare_only();
    mf.priority.shares.accounts = {{"light", 3}};
    simulate(mf, trace, rec);
    // Fair Tree: each account (factor 0, as slurmctld leaves it), then its user
    LONGS_EQUAL(4, last_shares.size());
    STRCMP_EQUAL("heavy", last_shares[0].account.c_str());
    STRCMP_EQUAL("", last_shares[0].user.c_str());
    STRCMP_EQUAL("heavy", last_shares[1].user.c_str());
    STRCMP_EQUAL("light", last_shares[2].account.c_str());
    STRCMP_EQUAL("light", last_shares[3].user.c_str());
    DOUBLES_EQUAL(0.25, last_shares[0].norm_shares, 1e-12); // heavy has the default 1 share
    DOUBLES_EQUAL(0.75, last_shares[2].norm_shares, 1e-12);
    CHECK(last_shares[0].raw_usage > 1000);
    DOUBLES_EQUAL(last_shares[0].raw_usage, last_shares[1].raw_usage, 1e-9);
    DOUBLES_EQUAL(0, last_shares[0].fairshare_factor, 0);
    DOUBLES_EQUAL(0.5, last_shares[1].fairshare_factor, 1e-12); // rank 1 of 2 users
    DOUBLES_EQUAL(1.0, last_shares[3].fairshare_factor, 1e-12);
    CHECK(priority.at(3) > priority.at(2));
    LONGS_EQUAL(10000, priority.at(3)); // light: no usage of its own until job 3 ran
    LONGS_EQUAL(5000, priority.at(2));

    // Classic: one association per account, with the account's factor.
    mf.priority.fair_tree = false;
    simulate(mf, trace, rec);
    LONGS_EQUAL(2, last_shares.size());
    STRCMP_EQUAL("heavy", last_shares[0].account.c_str());
    STRCMP_EQUAL("light", last_shares[1].account.c_str());
    DOUBLES_EQUAL(0.25, last_shares[0].norm_shares, 1e-12);
    CHECK(last_shares[0].fairshare_factor < last_shares[1].fairshare_factor);
    CHECK(priority.at(3) > priority.at(2));
    CHECK(priority.at(2) < 5000); // 2^(−U/0.25) with U near 1
}

TEST(SimulatorFairShare, JobsRoutedToANodeGroupTakeItInPriorityOrder)
{
    // heavy's job 1 holds the one local core; at 300 s the policy routes
    // heavy's job 2, then light's job 3, to a group with room for one.
    std::vector<TraceJob> trace{job(1, 0, 1, 5000, "heavy"), job(2, 100, 1, 100, "heavy"),
                                job(3, 200, 1, 100, "light")};
    const NodeGroup g = cloud_group("g", 1, 3.6, 30, 1, 60);
    auto run = [&](bool multifactor) {
        SimConfig c = site(1);
        c.groups = {g};
        if (multifactor)
            c.priority = fairshare_only();
        bool routed = false;
        struct Router final : public Policy {
            bool* done;
            std::string_view name() const override { return "router"; }
            Decision decide(const ClusterState&, const Clock& clock) override
            {
                Decision d;
                if (clock.now() >= 300 && !*done) {
                    d.add(RouteToCloud{2, "g"}, "test");
                    d.add(RouteToCloud{3, "g"}, "test");
                    *done = true;
                }
                return d;
            }
            void observe(const JobEnd&) override {}
        } router;
        router.done = &routed;
        return simulate(c, trace, router);
    };
    const SimResult fifo = run(false);
    DOUBLES_EQUAL(330, outcome(fifo, 2).start, 1e-9); // routed first, boots 30 s
    CHECK(outcome(fifo, 3).start > 400);
    const SimResult mf = run(true);
    DOUBLES_EQUAL(330, outcome(mf, 3).start, 1e-9);
    CHECK(outcome(mf, 2).start > 400);
}

// pfa's split=fairshare reads the simulated associations through the same
// code as in burstd: heavy used the whole local site for half an hour before
// both accounts queue equal work, so pfa gives light the larger budget.
// Classic's factors 2^(−U/S) set it far apart; Fair Tree ranks light's user
// 2/2 and heavy's 1/2, so light gets twice heavy's.
TEST(SimulatorFairShare, PfaSplitFairShareGivesTheLightAccountTheLargerBudgetShare)
{
    std::vector<TraceJob> trace;
    JobId id = 1;
    for (int i = 0; i < 4; ++i)
        trace.push_back(job(id++, 0, 1, 3600, "heavy"));
    for (int i = 0; i < 20; ++i) {
        trace.push_back(job(id++, 1800, 1, 600, "heavy"));
        trace.push_back(job(id++, 1800, 1, 600, "light"));
    }
    const NodeGroup g = cloud_group("g", 1, 3.6, 30, 20, 0);

    // pfa's budget per account at its first decision with both queued, from
    // the note pfa writes for each ("pfa: account A budget X ...").
    auto budgets = [&](const std::string& split, bool multifactor, bool fair_tree = true) {
        SimConfig c = site(4);
        c.groups = {g};
        if (multifactor) {
            c.priority.type = PriorityType::Multifactor; // Slurm's default weights: FCFS order, shares kept
            c.priority.calc_period = 60;
            c.priority.fair_tree = fair_tree;
        }
        Tap tap(make_policy("pfa", PolicyParams({{"budget", "6"}, {"interval", "60"}, {"split", split}})));
        std::map<std::string, double> out;
        tap.seen = [&](const ClusterState& s, const Decision& d) {
            if (!out.empty() || s.snapshot.time < 1800)
                return;
            for (const auto& note : d.notes)
                for (const std::string a : {"heavy", "light"}) {
                    const std::string key = "pfa: account " + a + " budget ";
                    if (note.compare(0, key.size(), key) == 0)
                        out[a] = std::stod(note.substr(key.size()));
                }
        };
        simulate(c, trace, tap);
        LONGS_EQUAL(2, out.size());
        return out;
    };
    auto fair = budgets("fairshare", true);
    DOUBLES_EQUAL(6, fair["heavy"] + fair["light"], 0.02);
    DOUBLES_EQUAL(2 * fair["heavy"], fair["light"], 0.02);
    auto classic = budgets("fairshare", true, false);
    DOUBLES_EQUAL(6, classic["heavy"] + classic["light"], 0.02);
    CHECK(classic["light"] > 2 * classic["heavy"]);
    auto equal = budgets("equal", true);
    DOUBLES_EQUAL(equal["heavy"], equal["light"], 1e-9);
    auto fifo = budgets("fairshare", false); // no associations: the equal fallback
    DOUBLES_EQUAL(fifo["heavy"], fifo["light"], 1e-9);
}
