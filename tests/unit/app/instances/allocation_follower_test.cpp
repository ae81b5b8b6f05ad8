#include "app/instances/allocation_follower.hpp"

#include <chrono>
#include <deque>
#include <mutex>
#include <sstream>
#include <thread>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// Answers each job's probes from a script; the last answer repeats.
class ScriptedProbe final : public JobAllocationProbe {
public:
    void script(JobId job, std::deque<JobAllocation> answers)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        answers_[job] = std::move(answers);
    }
    JobAllocation probe(JobId job) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        ++probes_[job];
        auto& q = answers_[job];
        if (q.empty())
            return JobAllocation{JobAllocation::Phase::Gone, {}, {}, "unknown job", {}};
        JobAllocation a = q.front();
        if (q.size() > 1)
            q.pop_front();
        return a;
    }
    int probes(JobId job)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return probes_[job];
    }

private:
    std::mutex mutex_;
    std::map<JobId, std::deque<JobAllocation>> answers_;
    std::map<JobId, int> probes_;
};

JobAllocation pending() { return {JobAllocation::Phase::Pending, {}, {}, {}, {}}; }
JobAllocation configuring(std::vector<std::string> nodes, std::vector<std::string> down)
{
    return {JobAllocation::Phase::Configuring, std::move(nodes), std::move(down), {}, {}};
}

struct Launches {
    std::mutex mutex;
    std::vector<std::pair<JobId, std::vector<std::string>>> calls;
    std::vector<std::string> add(JobId job, const std::vector<std::string>& nodes)
    {
        std::lock_guard<std::mutex> lock(mutex);
        calls.emplace_back(job, nodes);
        return nodes;
    }
    std::size_t size()
    {
        std::lock_guard<std::mutex> lock(mutex);
        return calls.size();
    }
};

bool eventually(const std::function<bool()>& done)
{
    for (int i = 0; i < 2000; ++i) {
        if (done())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return done();
}

struct Fixture {
    ScriptedProbe probe;
    Launches launches;
    std::ostringstream out;
    Logger log{out, LogLevel::Debug, false};
    std::unique_ptr<AllocationFollower> follower;
    explicit Fixture(Seconds window = 5)
    {
        follower = std::make_unique<AllocationFollower>(
            probe, [](const std::string& n) { return n.rfind("c", 0) == 0; },
            [this](JobId job, const std::vector<std::string>& nodes) { return launches.add(job, nodes); }, log,
            AllocationFollowerSettings{window, 0.001});
    }
};

} // namespace

TEST_GROUP(AllocationFollower){};

TEST(AllocationFollower, LaunchesOwnPoweredDownNodesOnceTheJobIsAllocated)
{
    Fixture f;
    f.probe.script(7, {pending(), pending(), configuring({"n1", "c1", "c2", "c3"}, {"n1", "c1", "c3"})});
    f.follower->follow(7);
    CHECK(eventually([&] { return f.follower->counters().following == 0; }));
    // n1 is not burstd's; c2 is already up.
    LONGS_EQUAL(1, f.launches.size());
    LONGS_EQUAL(7, f.launches.calls[0].first);
    CHECK(f.launches.calls[0].second == (std::vector<std::string>{"c1", "c3"}));
    LONGS_EQUAL(3, f.probe.probes(7));
    LONGS_EQUAL(1, f.follower->counters().launched_jobs);
    LONGS_EQUAL(2, f.follower->counters().launched_nodes);
    CHECK(f.out.str().find("launched c[1,3] now") != std::string::npos);
}

TEST(AllocationFollower, LaunchesNothingForAJobThatStartedOnUpNodesOrVanished)
{
    Fixture f;
    f.probe.script(1, {configuring({"c1"}, {})});
    f.probe.script(2, {JobAllocation{JobAllocation::Phase::Started, {"c2"}, {}, {}, {}}});
    f.follower->follow(1);
    f.follower->follow(2);
    f.follower->follow(3); // never scripted: the probe says it is gone
    CHECK(eventually([&] { return f.follower->counters().following == 0; }));
    LONGS_EQUAL(0, f.launches.size());
    LONGS_EQUAL(1, f.probe.probes(1));
    LONGS_EQUAL(1, f.probe.probes(2));
    LONGS_EQUAL(1, f.follower->counters().probe_errors);
}

TEST(AllocationFollower, GivesUpOnAJobStillPendingAfterTheWindow)
{
    Fixture f(0.05);
    f.probe.script(9, {pending()});
    auto t0 = std::chrono::steady_clock::now();
    f.follower->follow(9);
    CHECK(eventually([&] { return f.follower->counters().following == 0; }));
    CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(50));
    CHECK(f.probe.probes(9) > 1);
    LONGS_EQUAL(0, f.launches.size());
    LONGS_EQUAL(1, f.follower->counters().expired);
}

TEST(AllocationFollower, StopsPromptlyWhileFollowing)
{
    auto f = std::make_unique<Fixture>(3600);
    f->probe.script(4, {pending()});
    f->follower->follow(4);
    CHECK(eventually([&] { return f->probe.probes(4) > 0; }));
    auto t0 = std::chrono::steady_clock::now();
    f->follower.reset();
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(500));
}

TEST(AllocationFollower, TellsTheObserverEveryOwnAllocatedNodeWhateverItsPowerState)
{
    Fixture f;
    std::mutex seen_guard;
    std::vector<std::pair<JobId, std::vector<std::string>>> seen;
    f.follower->set_allocation_observer([&](JobId job, const std::vector<std::string>& nodes) {
        std::lock_guard<std::mutex> lock(seen_guard);
        seen.emplace_back(job, nodes);
    });
    // c2 is already powering up (launched when the job was routed), c1 is still powered down.
    f.probe.script(4, {configuring({"n1", "c1", "c2"}, {"c1"})});
    f.follower->follow(4);
    CHECK(eventually([&] { return f.follower->counters().following == 0; }));
    std::lock_guard<std::mutex> lock(seen_guard);
    LONGS_EQUAL(1, seen.size());
    LONGS_EQUAL(4, seen[0].first);
    CHECK(seen[0].second == (std::vector<std::string>{"c1", "c2"}));
}
