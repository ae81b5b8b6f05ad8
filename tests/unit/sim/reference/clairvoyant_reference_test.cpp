#include "sim/reference/clairvoyant_reference.hpp"

#include "sim/reference/cloud_work_bound.hpp"

#include "sim/sim_fixtures.hpp"

using namespace burst;
using namespace burst::test;

namespace {

// 4 local cores; 4-core cloud nodes at 0.4 per hour booting in exactly
// 100 s, billed per second from 0 s, powered down as soon as idle.
SimConfig site()
{
    SimConfig config = local_site(4, 4, 60);
    config.suspend_time = 0;
    config.groups = {cloud_group("aws", 4, 0.4, 100, 4, 0)};
    return config;
}

} // namespace

TEST_GROUP(ClairvoyantReference){};

TEST(ClairvoyantReference, NoBurstRuleBurstsExactlyTheJobsWhoseNoBurstWaitCostsMoreThanTheCloud)
{
    SimConfig config = site();
    config.groups[0].min_billed = 600;
    // Job 2 waited 10 h (4 cores × 10 h × λ=1 = 40 > ~0.1 + 0.1), job 3
    // waited 50 s (less than the boot it waits: never worth it), job 1 did
    // not wait.
    const std::vector<TraceJob> trace = {trace_job(1, 0, 4, 3600), trace_job(2, 0, 4, 3600), trace_job(3, 0, 4, 3600)};
    SimResult never;
    // (id, account, cpus, submit, eligible, start, end, group)
    never.jobs = {{1, "", 4, 0, 0, 0, 3600, -1}, {2, "", 4, 0, 0, 36000, 39600, -1}, {3, "", 4, 0, 0, 50, 3650, -1}};
    const BurstSet set = no_burst_rule_set(config, trace, never, 1.0);
    LONGS_EQUAL(1, set.size());
    STRCMP_EQUAL("aws", set.at(2).c_str());
    // Waiting for free: nothing is worth bursting.
    CHECK(no_burst_rule_set(config, trace, never, 0).empty());
}

TEST(ClairvoyantReference, FindsTheHandOptimumOfATinyInstance)
{
    // A 10 h and a 1 h job, both 4 cores, both at 0.  Schedules: never
    // (the 1 h job waits 10 h: J = λ·40), burst the 1 h job (J = 0.4 ×
    // 3700/3600 + λ·4·100/3600), burst the 10 h one (J = 0.4 × 36100/3600 +
    // λ·400/3600).  At λ = 1 the second is optimal: 0.5222.
    const SimConfig config = site();
    const std::vector<TraceJob> trace = {trace_job(1, 0, 4, 36000), trace_job(2, 0, 4, 3600)};
    const SimResult base = replay("never", config, trace);
    const ClairvoyantRun ref = clairvoyant_reference(config, trace, base, 1.0, 3);
    const double optimum = 0.4 * 3700 / 3600 + 400.0 / 3600;
    DOUBLES_EQUAL(optimum, ref.metrics.objective, 1e-6);
    LONGS_EQUAL(1, ref.metrics.cloud_jobs);
    // The lower bound at the achieved waits never exceeds what was used.
    const CloudWorkBound b = cloud_work_bound(config, ref.result);
    CHECK(b.cloud_core_seconds <= ref.metrics.cloud_core_seconds + 1e-6);
    CHECK(b.cloud_core_seconds > 0);
    // With waiting free, the optimum is to never burst.
    const ClairvoyantRun free_wait = clairvoyant_reference(config, trace, base, 0.0, 3);
    DOUBLES_EQUAL(0, free_wait.metrics.objective, 1e-9);
}

TEST(ClairvoyantReference, PlanLeavesTheCoresOfABurstJobToThoseBehindIt)
{
    // Job 1 holds the cores for 2 h; jobs 2 and 3 (1 h each) queue behind
    // it.  Bursting a 1 h job costs 0.4 × 3700/3600 + λ·400/3600.  At
    // λ = 0.05 that is 0.417: job 2's 2 h wait (0.4) is not worth it, so it
    // takes the hole at 2 h and job 3's wait of 3 h (0.6) is: one burst.  At
    // λ = 0.06 job 2's wait is worth bursting (0.48 > 0.418), which leaves the
    // hole at 2 h to job 3, whose 2 h wait is worth it too: two bursts.  The
    // reference is never worse than not bursting.
    const SimConfig config = site();
    const std::vector<TraceJob> trace = {trace_job(1, 0, 4, 7200), trace_job(2, 0, 4, 3600), trace_job(3, 0, 4, 3600)};
    const SimResult base = replay("never", config, trace);
    for (double lambda : {0.05, 0.06, 1.0}) {
        const ClairvoyantRun ref = clairvoyant_reference(config, trace, base, lambda, 3);
        CHECK(ref.metrics.objective <= compute_metrics(base, lambda).objective + 1e-9);
        const BurstSet plan = plan_burst_set(config, trace, lambda);
        LONGS_EQUAL(lambda < 0.055 ? 1 : 2, plan.size());
    }
}

TEST(ClairvoyantReference, ReplaysTheBaselineBurstSetsItIsGivenAndBeatsThem)
{
    // Short node-wide jobs arriving one a minute behind a 2 h local job, on
    // nodes that stay up 10 min when idle.  Alone, a job's boot and run
    // (0.4 × 150/3600 = 0.0167) cost more than its ~7000 s wait on 4 cores
    // at λ = 0.002 (0.0156), so the per-job candidates burst none (J ≈ 0.6);
    // together they keep one warm node busy for 0.4 × ~3200/3600 ≈ 0.35,
    // which always finds (0.5 with its idle tails).  Replayed by the
    // reference, which powers each node down at the first decision it is not
    // needed, always's burst set costs less than always's own run.
    SimConfig config = site();
    config.suspend_time = 600;
    std::vector<TraceJob> trace = {trace_job(1, 0, 4, 7200)};
    for (JobId i = 0; i < 40; ++i)
        trace.push_back(trace_job(2 + i, Time(60 * i), 4, 50));
    const SimResult base = replay("never", config, trace);
    const SimResult by_always = replay("always", config, trace);
    const BurstSet set = burst_set_of(config, by_always);
    CHECK(!set.empty());
    for (const auto& j : by_always.jobs)
        LONGS_EQUAL(j.group >= 0 ? 1 : 0, set.count(j.id));

    const double lambda = 0.002;
    const ClairvoyantRun alone = clairvoyant_reference(config, trace, base, lambda, 3);
    const ClairvoyantRun with = clairvoyant_reference(config, trace, base, lambda, 3, {Baseline{"always", by_always}});
    const double j_always = compute_metrics(by_always, lambda).objective;
    CHECK(alone.metrics.objective > j_always); // the case the baseline candidate is for
    STRCMP_EQUAL("always", with.candidate.c_str());
    CHECK(with.metrics.objective < j_always);
    LONGS_EQUAL(alone.replays + 2, with.replays); // the set, and the set routed no earlier than always started it
}

TEST(ClairvoyantReference, TakesABaselineRunAsItIsWhenNothingItTriesIsBetter)
{
    // A baseline run better than anything the reference can replay (here a
    // made-up one: every job ran at once and for free) is the reference,
    // named as run: the reference is never above a baseline it is given.
    const SimConfig config = site();
    const std::vector<TraceJob> trace = {trace_job(1, 0, 4, 3600), trace_job(2, 0, 4, 3600)};
    const SimResult base = replay("never", config, trace);
    SimResult perfect = base;
    for (auto& j : perfect.jobs) {
        j.start = j.submit;
        j.end = j.start + 3600;
    }
    const ClairvoyantRun ref = clairvoyant_reference(config, trace, base, 1.0, 3, {Baseline{"oracle", perfect}});
    STRCMP_EQUAL("oracle-as-run", ref.candidate.c_str());
    DOUBLES_EQUAL(0, ref.metrics.objective, 1e-9);
}
