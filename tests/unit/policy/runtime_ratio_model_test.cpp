#include "policy/runtime_ratio_model.hpp"

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

TEST(RuntimeRatioModel, UserLastTwoThenCategoryRatioThenLimit)
{
    RuntimeRatioModel m;
    DOUBLES_EQUAL(1000, m.expected(job(1, "ann", "a", 1000)), 0); // knows nothing: the limit
    DOUBLES_EQUAL(0, m.expected(job(1, "ann", "a", 0)), 0);       // nor without a limit
    // Three of bob's jobs in category a ran a quarter of their limit.
    finish(m, job(2, "bob", "a", 400), 100);
    finish(m, job(3, "bob", "a", 400), 100);
    finish(m, job(4, "bob", "a", 400), 100);
    DOUBLES_EQUAL(250, m.expected(job(5, "ann", "a", 1000)), 1e-9); // ann: category ratio × limit
    DOUBLES_EQUAL(100, m.expected(job(6, "bob", "a", 1000)), 1e-9); // bob: his last two
    DOUBLES_EQUAL(50, m.expected(job(7, "bob", "a", 50)), 1e-9);    // capped at the limit
    DOUBLES_EQUAL(100, m.expected(job(8, "cy", "z", 0)), 1e-9);     // no limit: mean runtime
}

TEST(RuntimeRatioModel, AUsersJobsOfOneNameArePredictedFromEachOther)
{
    // LCG-2005's pattern: one user's jobs of two kinds, interleaved, ~150 s
    // and ~11 h.  Her last two of any kind mix them; her last two of the
    // job's own name do not.
    RuntimeRatioModel m;
    JobId id = 1;
    for (int i = 0; i < 3; ++i) {
        finish(m, named(id++, "fay", "short", 200000), 150);
        finish(m, named(id++, "fay", "long", 200000), 40000);
    }
    finish(m, named(id++, "fay", "short", 200000), 150);
    DOUBLES_EQUAL(150, m.expected(named(100, "fay", "short", 200000)), 1e-9);
    DOUBLES_EQUAL(40000, m.expected(named(101, "fay", "long", 200000)), 1e-9);
    finish(m, named(id++, "fay", "short", 200000), 150);
    DOUBLES_EQUAL(150, m.expected(named(103, "fay", "short", 200000)), 1e-9);
    DOUBLES_EQUAL(40000, m.expected(named(104, "fay", "long", 200000)), 1e-9);
}

TEST(RuntimeRatioModel, ANewNameWithALimitIsScaledByItsLimitNotTheUsersOtherJobs)
{
    // ida's jobs at site 1 ran 60 s of a 48 h limit; her first jobs at
    // site 2 (48 h limit too) are a new kind: the ratio its category has
    // learned (other users' jobs there ran half their limit) × the limit,
    // not her 60 s.
    RuntimeRatioModel m;
    JobId id = 1;
    for (int i = 0; i < 3; ++i)
        finish(m, named(id++, "ida", "site1", 172800), 60);
    for (int i = 0; i < 3; ++i)
        finish(m, named(id++, "joe", "site2", 172800), 86400);
    DOUBLES_EQUAL(60, m.expected(named(100, "ida", "site1", 172800)), 1e-9);
    DOUBLES_EQUAL(86400, m.expected(named(101, "ida", "site2", 172800)), 1e-9);
    // Without a limit her own jobs are still the best evidence there is.
    DOUBLES_EQUAL(60, m.expected(named(102, "ida", "site2", 0)), 1e-9);
    // Once she has run the new kind twice, her own runs predict it.
    finish(m, named(id++, "ida", "site2", 172800), 300);
    finish(m, named(id++, "ida", "site2", 172800), 300);
    DOUBLES_EQUAL(300, m.expected(named(103, "ida", "site2", 172800)), 1e-9);
}

TEST(RuntimeRatioModel, AJobsTimeLimitTellsItsKindApart)
{
    // A grid site's queues: the same user and executable, a short queue's
    // and a long queue's limit, interleaved.
    RuntimeRatioModel m;
    JobId id = 1;
    for (int i = 0; i < 3; ++i) {
        finish(m, named(id++, "gus", "site", 1200), 100);
        finish(m, named(id++, "gus", "site", 172800), 30000);
    }
    DOUBLES_EQUAL(100, m.expected(named(100, "gus", "site", 1200)), 1e-9);
    DOUBLES_EQUAL(30000, m.expected(named(101, "gus", "site", 172800)), 1e-9);
    // A limit never seen with that name: the last two of the name.
    DOUBLES_EQUAL((100 + 30000) / 2.0, m.expected(named(102, "gus", "site", 72000)), 1e-9);
}

TEST(RuntimeRatioModel, RunningJobsOfAKindRaiseItsPrediction)
{
    // hal's earlier jobs ran 150 s; a batch of long ones (a new kind: no
    // run of it has finished) is running.  Running 2 h, 3 h and 4 h, they
    // say his next job of that kind runs at least twice the median, 6 h,
    // not the 150 s his finished jobs say.
    RuntimeRatioModel m;
    finish(m, named(1, "hal", "site40", 1200), 150);
    finish(m, named(2, "hal", "site40", 1200), 150);
    const Time now = 100000;
    m.begin_cycle(now);
    JobId id = 10;
    for (Seconds elapsed : {7200, 10800, 14400}) {
        Job r = named(id++, "hal", "site40", 172800);
        r.state = JobState::Running;
        r.start_time = now - elapsed;
        m.note(r);
    }
    Job next = named(20, "hal", "site40", 172800);
    m.note(next);
    DOUBLES_EQUAL(21600, m.expected(next), 1e-9);
    // Other kinds are not affected (his last two: 150 s).
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
    DOUBLES_EQUAL(150, m.expected(next), 1e-9);
}

TEST(RuntimeRatioModel, LearnsTheErrorWindowFromItsOwnMisses)
{
    RuntimeRatioModel m;
    DOUBLES_EQUAL(0.5, m.max_error(), 0); // nothing learned yet
    // dan's jobs alternate 100 s and 300 s: predictions of 200 s miss by half.
    for (JobId id = 1; id <= 40; ++id)
        finish(m, job(id, "dan", "d", 1000), id % 2 ? 100 : 300);
    DOUBLES_EQUAL(0.5, m.max_error(), 1e-9);
    RuntimeRatioModel exact;
    for (JobId id = 1; id <= 40; ++id)
        finish(exact, job(id, "eve", "e", 1000), 200);
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
