#include "policy/runtime/runtime_ratio_model.hpp"

#include <map>
#include <random>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

Job job(JobId id, const std::string& user, const std::string& category, Seconds limit)
{
    Job j;
    j.id = id;
    j.user = user;
    j.category = category;
    j.time_limit = limit;
    return j;
}

Job named(JobId id, const std::string& user, const std::string& name, Seconds limit)
{
    Job j = job(id, user, "acct/" + name, limit);
    j.name = name;
    return j;
}

void finish(RuntimeRatioModel& m, const Job& j, Seconds elapsed)
{
    m.note(j);
    JobEnd e;
    e.id = j.id;
    e.category = j.category;
    e.elapsed = elapsed;
    m.observe(e);
}

} // namespace

TEST_GROUP(RuntimeRatioModel){};

TEST(RuntimeRatioModel, KnowingNothingTheLimitThenTheRatioLearnedTimesTheLimit)
{
    RuntimeRatioModel m;
    DOUBLES_EQUAL(1000, m.expected(job(1, "ann", "a", 1000)), 0); // knows nothing: the limit
    DOUBLES_EQUAL(0, m.expected(job(1, "ann", "a", 0)), 0);       // nor without a limit
    // Three of bob's jobs in category a ran a quarter of their limit.
    finish(m, job(2, "bob", "a", 400), 100);
    finish(m, job(3, "bob", "a", 400), 100);
    finish(m, job(4, "bob", "a", 400), 100);
    DOUBLES_EQUAL(250, m.expected(job(5, "ann", "a", 1000)), 1e-9); // ann: the ratio × her limit
    DOUBLES_EQUAL(250, m.expected(job(6, "bob", "a", 1000)), 1e-9); // bob's other limit too
    DOUBLES_EQUAL(100, m.expected(job(6, "bob", "a", 400)), 1e-9);
    DOUBLES_EQUAL(100, m.expected(job(8, "cy", "z", 0)), 1e-9); // no limit: mean runtime
}

namespace {

// Users u0..u3 in one category, each with their own job name, ran their
// jobs `ratios[i]` of a 10,000-s limit, `runs` times each, ±`scatter`.
void four_users(RuntimeRatioModel& m, JobId& id, const double (&ratios)[4], int runs, double scatter)
{
    for (int r = 0; r < runs; ++r)
        for (int u = 0; u < 4; ++u) {
            const std::string user = "u" + std::to_string(u);
            Job j = job(id++, user, "acct/site", 10000);
            j.name = "n" + std::to_string(u);
            finish(m, j, 10000 * (ratios[u] + (r % 2 ? scatter : -scatter)));
        }
}

Job users_job(JobId id, const std::string& user, const std::string& name)
{
    Job j = job(id, user, "acct/site", 10000);
    j.name = name;
    return j;
}

} // namespace

TEST(RuntimeRatioModel, AKindsRunsAreTrustedByHowMuchKindsDifferAgainstHowMuchTheyScatter)
{
    // Kinds that differ a lot and scatter little: two runs of a new kind
    // say almost all there is to know about it.
    RuntimeRatioModel m;
    JobId id = 1;
    four_users(m, id, {0.1, 0.3, 0.6, 0.9}, 10, 0.01);
    finish(m, users_job(id++, "vic", "nv"), 500);
    finish(m, users_job(id++, "vic", "nv"), 500);
    const Seconds tight = m.expected(users_job(100, "vic", "nv"));
    CHECK(tight > 500 && tight < 700);
    // Kinds that all run half their limit, ±0.4: vic's two runs of 500 s
    // are no evidence that his kind differs; his next job is expected to
    // run about what the category's jobs run (the user's last two said 500 s).
    RuntimeRatioModel n;
    id = 1;
    four_users(n, id, {0.5, 0.5, 0.5, 0.5}, 10, 0.4);
    finish(n, users_job(id++, "vic", "nv"), 500);
    finish(n, users_job(id++, "vic", "nv"), 500);
    const Seconds loose = n.expected(users_job(100, "vic", "nv"));
    CHECK(loose > 4000 && loose < 6000);
}

TEST(RuntimeRatioModel, AKindIsPricedAtItsMeanRunNotItsLastTwo)
{
    // kim's kind mostly runs 5% of its limit, but one run in five uses
    // 95%: what a burst of her next job costs is the kind's mean, about a
    // quarter of the limit, not the last two runs' 500 s.
    RuntimeRatioModel m;
    JobId id = 1;
    four_users(m, id, {0.1, 0.3, 0.6, 0.9}, 10, 0.01);
    for (int r = 0; r < 10; ++r)
        finish(m, users_job(id++, "kim", "nk"), r % 5 == 2 ? 9500 : 500);
    const Seconds e = m.expected(users_job(100, "kim", "nk"));
    CHECK(e > 2000 && e < 3500);
}

TEST(RuntimeRatioModel, AUsersJobsOfOneNameArePredictedFromEachOther)
{
    // LCG-2005's pattern: one user's jobs of two kinds, interleaved, ~150 s
    // and ~11 h, the same limit.  Her jobs of any name mix them; those of
    // the job's own name do not.
    RuntimeRatioModel m;
    JobId id = 1;
    for (int i = 0; i < 6; ++i) {
        finish(m, named(id++, "fay", "short", 200000), 140 + 20 * (i % 2));
        finish(m, named(id++, "fay", "long", 200000), 39000 + 2000 * (i % 2));
    }
    const Seconds short_run = m.expected(named(100, "fay", "short", 200000));
    const Seconds long_run = m.expected(named(101, "fay", "long", 200000));
    CHECK(short_run > 100 && short_run < 300);
    CHECK(long_run > 37000 && long_run < 42000);
}

TEST(RuntimeRatioModel, ANewNameWithALimitIsScaledByItsLimitNotTheUsersOtherJobs)
{
    // ida's jobs at site 1 ran 60 s of a 48 h limit; her first jobs at
    // site 2 (48 h limit too) are a new kind: her category there (other
    // users' jobs ran half their limit) × the limit, not her 60 s.
    RuntimeRatioModel m;
    JobId id = 1;
    for (int i = 0; i < 10; ++i) {
        finish(m, named(id++, "ida", "site1", 172800), 60);
        finish(m, named(id++, "joe", "site2", 172800), 86400);
    }
    const Seconds own = m.expected(named(100, "ida", "site1", 172800));
    CHECK(own >= 60 && own < 600);
    const Seconds fresh = m.expected(named(101, "ida", "site2", 172800));
    CHECK(fresh > 0.45 * 172800 && fresh <= 86400);
    // Without a limit her own jobs are still the best evidence there is.
    DOUBLES_EQUAL(60, m.expected(named(102, "ida", "site2", 0)), 1e-9);
}

TEST(RuntimeRatioModel, AJobsTimeLimitScalesItsKind)
{
    // A grid site's queues: the same user and executable, a short queue's
    // and a long queue's limit, interleaved; each runs about a tenth of it.
    RuntimeRatioModel m;
    JobId id = 1;
    for (int i = 0; i < 10; ++i) {
        finish(m, named(id++, "gus", "site", 1200), 100 + 40 * (i % 2));
        finish(m, named(id++, "gus", "site", 172800), 15000 + 5000 * (i % 2));
    }
    const Seconds short_queue = m.expected(named(100, "gus", "site", 1200));
    const Seconds long_queue = m.expected(named(101, "gus", "site", 172800));
    CHECK(short_queue > 90 && short_queue < 160);
    CHECK(long_queue > 13000 && long_queue < 23000);
    // A limit never seen with that name: the name's ratio × that limit
    // (the name's last two runs, one of each queue, said 10,070 s).
    const Seconds other = m.expected(named(102, "gus", "site", 72000));
    CHECK(other > 5500 && other < 9500);
}

TEST(RuntimeRatioModel, RunningJobsOfAKindRaiseItsPrediction)
{
    // hal's earlier jobs ran 150 s of 1200; a batch of long ones (a new
    // kind: no run of it has finished) is running.  Running 3 h, 4 h and
    // 5 h, they say his next job of that kind runs at least twice the
    // median, 8 h, not the 6 h his finished jobs' ratio says.
    RuntimeRatioModel m;
    finish(m, named(1, "hal", "site40", 1200), 150);
    finish(m, named(2, "hal", "site40", 1200), 150);
    const Time now = 100000;
    m.begin_cycle(now);
    JobId id = 10;
    for (Seconds elapsed : {10800, 14400, 18000}) {
        Job r = named(id++, "hal", "site40", 172800);
        r.state = JobState::Running;
        r.start_time = now - elapsed;
        m.note(r);
    }
    Job next = named(20, "hal", "site40", 172800);
    m.note(next);
    DOUBLES_EQUAL(28800, m.expected(next), 1e-9);
    // Other kinds are not affected (his ratio × 1200 s; without a limit, his last two).
    DOUBLES_EQUAL(150, m.expected(named(21, "hal", "site40", 1200)), 1e-9);
    DOUBLES_EQUAL(150, m.expected(named(22, "hal", "site52", 0)), 1e-9);
    // The floor never passes the limit: one running 1000 s of a 1200 s limit.
    Job shortq = named(23, "hal", "site40", 1200);
    shortq.state = JobState::Running;
    shortq.start_time = now - 1000;
    m.note(shortq);
    DOUBLES_EQUAL(1200, m.expected(named(24, "hal", "site40", 1200)), 1e-9);
    // Nor is a job without a limit raised (its kind is too loose).
    finish(m, named(25, "hal", "nolimit", 0), 150);
    finish(m, named(26, "hal", "nolimit", 0), 150);
    Job open = named(27, "hal", "nolimit", 0);
    open.state = JobState::Running;
    open.start_time = now - 7200;
    m.note(open);
    DOUBLES_EQUAL(150, m.expected(named(28, "hal", "nolimit", 0)), 1e-9);
    // The evidence is this cycle's: next cycle, with none of them running, it is gone.
    m.begin_cycle(now + 60);
    DOUBLES_EQUAL(21600, m.expected(next), 1e-9);
}

TEST(RuntimeRatioModel, LearnsTheErrorWindowFromItsOwnMisses)
{
    RuntimeRatioModel m;
    DOUBLES_EQUAL(0.5, m.max_error(), 0); // nothing learned yet
    // dan's jobs alternate 100 s and 300 s: predictions of 200 s miss by half.
    for (JobId id = 1; id <= 40; ++id)
        finish(m, job(id, "dan", "d", 0), id % 2 ? 100 : 300);
    DOUBLES_EQUAL(0.5, m.max_error(), 1e-9);
    RuntimeRatioModel exact;
    for (JobId id = 1; id <= 40; ++id)
        finish(exact, job(id, "eve", "e", 0), 200);
    DOUBLES_EQUAL(0, exact.max_error(), 1e-9);
    RuntimeRatioModel fixed(0.2);
    DOUBLES_EQUAL(0.2, fixed.max_error(), 0);
}

TEST(RuntimeRatioModel, RemainingUsesTheWindowThenTheLimit)
{
    RuntimeRatioModel m(0.5); // window [50, 150] for an expected 100 s
    DOUBLES_EQUAL(80, m.remaining(20, 100, 1000), 1e-9);   // before the window: to the expectation
    DOUBLES_EQUAL(25, m.remaining(100, 100, 1000), 1e-9);  // inside: half of what is left of it
    DOUBLES_EQUAL(400, m.remaining(200, 100, 1000), 1e-9); // past it: midway to the limit
    DOUBLES_EQUAL(200, m.remaining(200, 100, 0), 1e-9);    // no limit: as long again
    DOUBLES_EQUAL(10, m.remaining(20, 100, 30), 1e-9);     // never past the limit
}

TEST(RuntimeRatioModel, AJobNotedAgainAfterItChangedIsPredictedAsWhatItIsNow)
{
    RuntimeRatioModel m;
    finish(m, named(1, "hal", "short", 1200), 100);
    finish(m, named(2, "hal", "short", 1200), 100);
    finish(m, named(3, "hal", "long", 1200), 1100);
    finish(m, named(4, "hal", "long", 1200), 1100);
    m.begin_cycle(1000);
    Job j = named(10, "hal", "short", 1200);
    const RuntimeRatioModel::Noted before = m.note(j);
    DOUBLES_EQUAL(m.expected(named(99, "hal", "short", 1200)), m.expected(before), 0);
    m.begin_cycle(1060);
    j.name = "long"; // scontrol update name=long, and its category with it
    j.category = "acct/long";
    const RuntimeRatioModel::Noted after = m.note(j);
    DOUBLES_EQUAL(m.expected(named(99, "hal", "long", 1200)), m.expected(after), 0);
    DOUBLES_EQUAL(m.expected(named(99, "hal", "long", 1200)), m.expected(j), 0);
    CHECK(m.expected(after) > m.expected(before));
}

TEST(RuntimeRatioModel, WhatItKeepsOfNotedJobsPredictsAsAJobItNeverSaw)
{
    // Random churn over many cycles: jobs of a few users, names and limits
    // start, run and end, thousands of one-off names pass through (so that
    // what the model keeps per job is dropped and rebuilt), and at every
    // cycle each noted job is predicted exactly as the same job under an id
    // the model never saw, which it works out from scratch.
    std::mt19937 rng(29);
    RuntimeRatioModel m;
    std::map<JobId, Job> live;
    JobId next = 1;
    Time now = 0;
    for (int cycle = 0; cycle < 400; ++cycle) {
        now += 60;
        m.begin_cycle(now);
        for (int k = 0; k < 12; ++k) {
            const JobId id = next++;
            const std::string user = "u" + std::to_string(rng() % 4);
            const bool one_off = rng() % 2 == 0;
            const std::string name = one_off ? "once" + std::to_string(id) : "n" + std::to_string(rng() % 5);
            live.emplace(id, named(id, user, name, Seconds(rng() % 3) * 3600));
        }
        std::vector<std::pair<Job, RuntimeRatioModel::Noted>> noted;
        for (auto& [id, j] : live) {
            if (j.pending() && rng() % 3 == 0) {
                j.state = JobState::Running;
                j.start_time = now;
            }
            if (rng() % 50 == 0)
                j.time_limit += 600; // the limit raised while it waits or runs
            noted.emplace_back(j, m.note(j));
        }
        for (const auto& [j, handle] : noted) {
            Job stranger = j;
            stranger.id = 1000000 + j.id;
            DOUBLES_EQUAL(m.expected(stranger), m.expected(handle), 0);
            DOUBLES_EQUAL(m.expected(stranger), m.expected(j), 0);
        }
        for (auto it = live.begin(); it != live.end();) {
            if (it->second.running() && rng() % 4 == 0) {
                JobEnd e;
                e.id = it->first;
                e.category = it->second.category;
                e.elapsed = double(rng() % 3000);
                m.observe(e);
                it = live.erase(it);
            } else {
                ++it;
            }
        }
    }
}

TEST(RuntimeRatioModel, LimitsThatDifferBySecondsFractionsAreNotOneJobsKind)
{
    // Trace limits are numbers, not whole seconds: a job is predicted with
    // its own limit whatever was noted before it.
    RuntimeRatioModel m;
    m.begin_cycle(100);
    m.note(named(1, "u", "n", 100.75));
    m.note(named(2, "u", "n", 0));
    const Job b = named(3, "u", "n", 100.25), c = named(4, "u", "n", 0.5);
    DOUBLES_EQUAL(100.25, m.expected(m.note(b)), 0);
    DOUBLES_EQUAL(0.5, m.expected(m.note(c)), 0);
    DOUBLES_EQUAL(m.expected(b), m.expected(m.note(b)), 0);
}
