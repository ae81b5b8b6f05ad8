#include "sim/workload/generated_workload.hpp"
#include "sim/workload/htc_workload.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(HtcWorkload){};

TEST(HtcWorkload, MostlyOneCoreJobsOfHoursArrivingInADailyCycle)
{
    HtcWorkloadSpec spec;
    spec.days = 28;
    const std::vector<TraceJob> jobs = generate_htc(spec);
    // About jobs_per_day a day.
    DOUBLES_EQUAL(28 * 2000, double(jobs.size()), 28 * 2000 * 0.03);
    std::size_t narrow = 0, peak_hours = 0, trough_hours = 0, at_limit = 0;
    double runtime = 0;
    std::map<std::string, Seconds> limit_of;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const TraceJob& j = jobs[i];
        if (i > 0)
            CHECK(j.submit >= jobs[i - 1].submit);
        CHECK(j.submit < 28 * 86400);
        narrow += j.cpus == 1;
        CHECK(j.cpus == 1 || j.cpus == 2 || j.cpus == 4 || j.cpus == 8);
        runtime += j.runtime;
        at_limit += j.runtime > j.time_limit;
        // A user's limit is theirs, in whole hours.
        DOUBLES_EQUAL(0, std::fmod(j.time_limit, 3600), 0);
        auto [known, fresh] = limit_of.emplace(j.user, j.time_limit);
        DOUBLES_EQUAL(known->second, j.time_limit, 0);
        CHECK_EQUAL("htc/" + j.user, j.category.text());
        const double hour = std::fmod(j.submit, 86400) / 3600;
        peak_hours += hour >= 12 && hour < 16;   // around the peak at 14:00
        trough_hours += hour >= 0 && hour < 4;   // around the trough at 02:00
    }
    DOUBLES_EQUAL(0.9, double(narrow) / double(jobs.size()), 0.01);
    // Mean runtime 3 h before limits cut it (users' factors average 1).
    DOUBLES_EQUAL(3 * 3600, runtime / double(jobs.size()), 3 * 3600 * 0.25);
    CHECK_EQUAL(20u, limit_of.size());
    // A few jobs outrun their user's limit of four mean runtimes.
    CHECK(at_limit > 0 && double(at_limit) < 0.1 * double(jobs.size()));
    // (1 + 0.8 cos) over four hours around the peak against around the trough.
    CHECK(double(peak_hours) > 5 * double(trough_hours));
}

TEST(HtcWorkload, TheSameSeedGivesTheSameJobsAndKeysChangeThem)
{
    const Trace a = generate_workload("htc:days=2", 5), b = generate_workload("htc:days=2", 5);
    const Trace c = generate_workload("htc:days=2", 6);
    CHECK_EQUAL(a.jobs.size(), b.jobs.size());
    for (std::size_t i = 0; i < a.jobs.size(); ++i) {
        DOUBLES_EQUAL(a.jobs[i].submit, b.jobs[i].submit, 0);
        DOUBLES_EQUAL(a.jobs[i].runtime, b.jobs[i].runtime, 0);
    }
    CHECK(a.jobs.size() != c.jobs.size() || a.jobs[0].submit != c.jobs[0].submit);
    const Trace flat = generate_workload("htc:days=2,amplitude=0,narrow=0,wide=16,users=1,mean_hours=1,sigma=0", 5);
    for (const TraceJob& j : flat.jobs) {
        CHECK_EQUAL(16u, j.cpus);
        CHECK_EQUAL("u1", j.user);
    }
    // One user, sigma 0: every job runs that user's mean.
    CHECK(flat.jobs.size() > 1);
    DOUBLES_EQUAL(flat.jobs[0].runtime, flat.jobs[1].runtime, 0);
}

TEST(HtcWorkload, BadKeysAreErrorsNamingThem)
{
    CHECK_THROWS(WorkloadSpecError, parse_htc_spec("jobs=5", 1));
    CHECK_THROWS(WorkloadSpecError, parse_htc_spec("narrow=1.5", 1));
    CHECK_THROWS(WorkloadSpecError, parse_htc_spec("wide=0", 1));
    CHECK_THROWS(WorkloadSpecError, parse_htc_spec("limit=0.5", 1));
    try {
        parse_htc_spec("days=3650,jobs_per_day=1000000", 1);
        FAIL("no error");
    } catch (const WorkloadSpecError& e) {
        STRCMP_CONTAINS("jobs_per_day", e.what());
    }
}
