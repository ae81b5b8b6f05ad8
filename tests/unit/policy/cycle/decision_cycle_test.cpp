#include "policy/cycle/decision_cycle.hpp"

#include "policy/policy_test_state.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::quiet_site;
using burst::test::StateBuilder;

namespace {

// Counts the decisions it is asked for; wants them on sites showing what
// `wants` says, and hires one node of group g when `hires`.
class Asked final : public Policy {
public:
    enum class Wants { Always, WaitingJobs, WaitingJobsOrCloud };
    Asked(Wants wants, bool hires) : wants_(wants), hires_(hires) {}
    std::string_view name() const override { return "asked"; }
    Decision decide(const ClusterState&, const Clock& clock) override
    {
        ++asked;
        Decision d;
        d.time = clock.now();
        if (hires_)
            d.add(HireNodes{group_, 1}, "test");
        return d;
    }
    bool wants_decision(const SiteActivity& a) const override
    {
        switch (wants_) {
        case Wants::WaitingJobs:
            return a.jobs_waiting();
        case Wants::WaitingJobsOrCloud:
            return a.jobs_waiting() || a.cloud_on();
        case Wants::Always:
            break;
        }
        return true;
    }
    int asked = 0;

private:
    Wants wants_;
    bool hires_;
    std::string group_ = "g";
};

// Shows a hire as burstd's ledger would: an instance requested.
class LedgerSink final : public ActionSink {
public:
    std::vector<std::string> decisions; // each link's, empty or not
    void begin_decision(std::string_view policy, const Decision&) override { decisions.emplace_back(policy); }
    std::string apply(const Action& action, ClusterState& state) override
    {
        if (const auto* hire = std::get_if<HireNodes>(&action.what)) {
            Instance i;
            i.node = hire->group + "-1";
            i.node_group = hire->group;
            i.state = InstanceState::Requested;
            state.instances.push_back(i);
        }
        return "";
    }
};

struct Cycle {
    explicit Cycle(std::vector<std::pair<Asked::Wants, bool>> links)
    {
        PolicyChain chain;
        for (const auto& [wants, hires] : links) {
            auto p = std::make_unique<Asked>(wants, hires);
            asked.push_back(p.get());
            chain.push_back(std::move(p));
        }
        cycle.emplace(std::move(chain));
    }
    CycleOutcome run(ClusterState& state) { return cycle->run(state, clock, nullptr, sink); }
    std::vector<Asked*> asked;
    std::optional<DecisionCycle> cycle;
    ManualClock clock{600};
    LedgerSink sink;
};

} // namespace

TEST_GROUP(DecisionCycleActivity){};

TEST(DecisionCycleActivity, APolicyIsNotAskedOnASiteWithNothingItActsOn)
{
    StateBuilder b = quiet_site();
    Cycle c({{Asked::Wants::Always, false}, {Asked::Wants::WaitingJobs, false},
             {Asked::Wants::WaitingJobsOrCloud, false}});
    c.run(b.state);
    LONGS_EQUAL(1, c.asked[0]->asked);
    LONGS_EQUAL(0, c.asked[1]->asked);
    LONGS_EQUAL(0, c.asked[2]->asked);
    // Its link still has a decision, with nothing in it, as one it made would.
    LONGS_EQUAL(3, c.sink.decisions.size());

    b.up("g-1"); // a cloud node on
    c.run(b.state);
    LONGS_EQUAL(0, c.asked[1]->asked);
    LONGS_EQUAL(1, c.asked[2]->asked);

    b.pending(2, 1); // a job waits
    c.run(b.state);
    LONGS_EQUAL(1, c.asked[1]->asked);
    LONGS_EQUAL(2, c.asked[2]->asked);
}

TEST(DecisionCycleActivity, ALinkIsAskedOnTheSiteAsTheLinksBeforeLeftIt)
{
    StateBuilder b = quiet_site();
    // The first link hires ahead of demand (a warm pool): the node it asked
    // for is on by the time the second link decides.
    Cycle c({{Asked::Wants::Always, true}, {Asked::Wants::WaitingJobsOrCloud, false},
             {Asked::Wants::WaitingJobs, false}});
    const CycleOutcome out = c.run(b.state);
    LONGS_EQUAL(1, out.actions.size());
    LONGS_EQUAL(1, c.asked[1]->asked);
    LONGS_EQUAL(0, c.asked[2]->asked);
}
