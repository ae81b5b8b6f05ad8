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
    // A name she never ran: her last two of any kind.
    DOUBLES_EQUAL((40000 + 150) / 2.0, m.expected(named(102, "fay", "new", 200000)), 1e-9);
    finish(m, named(id++, "fay", "short", 200000), 150);
    DOUBLES_EQUAL(150, m.expected(named(103, "fay", "new", 200000)), 1e-9);
    DOUBLES_EQUAL(40000, m.expected(named(104, "fay", "long", 200000)), 1e-9);
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
