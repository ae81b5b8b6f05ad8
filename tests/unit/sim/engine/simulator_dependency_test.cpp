#include "policy/hiring/never/never_policy.hpp"
#include "policy/policy_registry.hpp"
#include "sim/engine/simulator.hpp"

#include <functional>
#include <string>
#include <vector>

#include "sim/sim_fixtures.hpp"

using namespace burst;
using namespace burst::test;

namespace {

class Recorder final : public Policy {
public:
    std::function<Decision(const ClusterState&, Time)> script;
    std::string_view name() const override { return "recorder"; }
    Decision decide(const ClusterState& state, const Clock& clock) override
    {
        return script ? script(state, clock.now()) : Decision{};
    }
};

// A task of workflow 1:w, account a's, after `parents`.
TraceJob task(JobId id, Time submit, std::uint32_t cpus, Seconds runtime, std::vector<JobId> parents = {})
{
    TraceJob j = submitted_by("a", "a", trace_job(id, submit, cpus, runtime));
    j.parents = std::move(parents);
    j.workflow = "1:w";
    return j;
}

SimConfig site(std::uint32_t cores)
{
    return local_site(cores, 2, 10);
}

} // namespace

TEST_GROUP(SimulatorDependencies){};

TEST(SimulatorDependencies, AChildStartsWhenItsLastParentEndsEvenWithCoresFree)
{
    PolicyParams none;
    NeverPolicy never(none);
    // 8 free cores: without the edges all three would start at 0.
    SimResult r = simulate(site(8), {task(1, 0, 1, 50), task(2, 0, 1, 80), task(3, 0, 1, 10, {1, 2})}, never);
    DOUBLES_EQUAL(0, outcome(r, 1).start, 0);
    DOUBLES_EQUAL(80, outcome(r, 3).eligible, 0);
    DOUBLES_EQUAL(80, outcome(r, 3).start, 0);
    DOUBLES_EQUAL(0, outcome(r, 3).submit, 0);
}

TEST(SimulatorDependencies, PoliciesSeeBlockedJobsAsPendingOnADependency)
{
    Recorder rec;
    std::vector<std::string> seen;
    rec.script = [&](const ClusterState& s, Time now) {
        for (const auto& j : s.snapshot.jobs)
            if (j.id == 3 && now < 100)
                seen.push_back(std::string(j.reason == PendingReason("Dependency") ? "Dependency" : "other") + "|" +
                               j.dependency + "|" + (j.awaiting_dependency() ? "wait" : "go"));
        return Decision{};
    };
    simulate(site(8), {task(1, 0, 1, 50), task(2, 0, 1, 15), task(3, 0, 1, 10, {1, 2})}, rec);
    // Decisions at 0, 10 (both parents running), 20 (job 2 ended), ... 50 (job 1 ended: eligible, started).
    CHECK(seen.size() >= 3);
    STRCMP_EQUAL("Dependency|afterany:1:2|wait", seen[0].c_str());
    STRCMP_EQUAL("Dependency|afterany:1:2|wait", seen[1].c_str()); // the field is set at submission
    CHECK(seen.back().find("|go") != std::string::npos);
}

TEST(SimulatorDependencies, RoutingAJobStillWaitingOnParentsIsRejected)
{
    Recorder rec;
    rec.script = [](const ClusterState&, Time now) {
        Decision d;
        if (now == 0)
            d.add(RouteToCloud{2, "g"}, "test");
        return d;
    };
    SimConfig c = site(2);
    c.groups = {cloud_group("g", 2, 0, 5, 1, 60)};
    SimResult r = simulate(c, {task(1, 0, 1, 30), task(2, 0, 1, 10, {1})}, rec);
    LONGS_EQUAL(1, r.actions_rejected);
    LONGS_EQUAL(-1, outcome(r, 2).group);
    DOUBLES_EQUAL(30, outcome(r, 2).start, 0);
}

TEST(SimulatorDependencies, RejectsUnknownParentsAndCycles)
{
    PolicyParams none;
    NeverPolicy never(none);
    CHECK_THROWS(SimConfigError, simulate(site(2), {task(1, 0, 1, 5, {9})}, never));
    CHECK_THROWS(SimConfigError, simulate(site(2), {task(1, 0, 1, 5, {2}), task(2, 0, 1, 5, {1})}, never));
    CHECK_THROWS(SimConfigError, simulate(site(2), {task(1, 0, 1, 5, {1})}, never));
}

TEST(SimulatorDependencies, AParentTooWideToReplayDoesNotHoldItsChildrenBack)
{
    PolicyParams none;
    NeverPolicy never(none);
    SimResult r = simulate(site(2), {task(1, 0, 4, 5), task(2, 0, 1, 5, {1})}, never);
    LONGS_EQUAL(1, r.jobs_too_wide);
    DOUBLES_EQUAL(0, outcome(r, 2).start, 0);
}
