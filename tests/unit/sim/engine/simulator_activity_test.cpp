#include "policy/policy_registry.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/workload/generated_workload.hpp"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/sim_fixtures.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using namespace burst::test;

namespace {

// A registered policy, its decisions counted; with `every`, it is asked at
// every decision, and where it would not have been, what it decides must be
// nothing (Policy::wants_decision).
class Counted final : public Policy {
public:
    Counted(const std::string& name, const std::map<std::string, std::string>& params, bool every)
        : policy_(make_policy(name, PolicyParams(params))), every_(every)
    {
    }
    std::string_view name() const override { return policy_->name(); }
    Decision decide(const ClusterState& state, const Clock& clock) override
    {
        ++asked;
        const bool wanted = policy_->wants_decision(SiteActivity(state));
        Decision d = policy_->decide(state, clock);
        if (!wanted && !(d.actions.empty() && d.notes.empty() && d.verdicts.empty()))
            ++unwanted_but_not_empty;
        return d;
    }
    void observe(const JobEnd& end) override { policy_->observe(end); }
    bool wants_decision(const SiteActivity& activity) const override
    {
        return every_ || policy_->wants_decision(activity);
    }
    std::uint64_t asked = 0;
    std::uint64_t unwanted_but_not_empty = 0;

private:
    std::unique_ptr<Policy> policy_;
    bool every_;
};

} // namespace

TEST_GROUP(SimulatorActivity){};

// The policies that leave quiet sites alone (Policy::wants_decision) must
// replay exactly as they would if asked at every decision: the same starts,
// ends and placements, the same instances and cost.
TEST(SimulatorActivity, PoliciesNotAskedOnQuietSitesReplayAsIfAskedAtEveryDecision)
{
    // Two days of a site's day and night: bursts by day, quiet nights.
    const Trace trace = generate_workload("htc:days=2,jobs_per_day=300,mean_hours=1", 11);
    SimConfig config = local_site(32, 8, 60);
    config.suspend_time = 300;
    config.groups = {cloud_group("g", 8, 0.40, 120, 20, 0)};
    const std::vector<std::pair<std::string, std::map<std::string, std::string>>> policies = {
        {"never", {}},        {"always", {}},      {"fixed-delay", {}}, {"predictive", {}},
        {"boot-window", {}},  {"predictive", {{"lambda", "0.1"}}}, {"boot-window", {{"lambda", "0.1"}}},
    };
    for (const auto& [name, params] : policies) {
        Counted quiet(name, params, false);
        Counted every(name, params, true);
        const SimResult a = simulate(config, trace.jobs, quiet);
        const SimResult b = simulate(config, trace.jobs, every);
        // Most decisions found the site quiet, unless the policy keeps
        // learning at every one (boot-window's gate).
        if (name != "boot-window" || params.empty())
            CHECK_TEXT(quiet.asked < every.asked / 2, name.c_str());
        LONGS_EQUAL(0, every.unwanted_but_not_empty);
        LONGS_EQUAL(b.decisions, every.asked);
        LONGS_EQUAL(b.decisions, a.decisions);
        LONGS_EQUAL(b.jobs.size(), a.jobs.size());
        for (std::size_t j = 0; j < a.jobs.size(); ++j) {
            LONGS_EQUAL(b.jobs[j].id, a.jobs[j].id);
            DOUBLES_EQUAL(b.jobs[j].start, a.jobs[j].start, 0);
            DOUBLES_EQUAL(b.jobs[j].end, a.jobs[j].end, 0);
            LONGS_EQUAL(b.jobs[j].group, a.jobs[j].group);
        }
        LONGS_EQUAL(b.instances_launched, a.instances_launched);
        LONGS_EQUAL(b.actions_applied, a.actions_applied);
        DOUBLES_EQUAL(b.cloud_cost, a.cloud_cost, 0);
        DOUBLES_EQUAL(b.idle_core_seconds, a.idle_core_seconds, 0);
    }
}
