// Regression tests for the papers' findings as burstsim reproduces them
// (burstsim --scenario smowton|zheng prints the full tables).  Shorter runs
// than the tables, same seeds: a policy change that loses the finding fails.

#include "sim/smowton_scenario.hpp"
#include "sim/zheng_scenario.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

enum { kNever, kAlways, kPredictive, kReplay };

SmowtonRow smowton(const std::string& reward, double price, double interval)
{
    SmowtonOptions o;
    o.duration = 600;
    o.rewards = {reward};
    o.prices = {price};
    o.intervals = {interval};
    const auto rows = run_smowton(o);
    CHECK(rows.size() == 1 && rows[0].profit.size() == 4);
    return rows[0];
}

// |a − b| within `fraction` of |b|.
bool close_to(double a, double b, double fraction)
{
    return std::fabs(a - b) <= fraction * std::fabs(b);
}

} // namespace

TEST_GROUP(SmowtonReproduction){};

TEST(SmowtonReproduction, TimeRewardPredictiveIsNeverAtLightLoadAndNearAlwaysAtHeavyLoad)
{
    const SmowtonRow light = smowton("time", 50, 3.0);
    CHECK(close_to(light.profit[kPredictive], light.profit[kNever], 0.01));
    CHECK(light.cloud_share[kPredictive] < light.cloud_share[kAlways]);

    const SmowtonRow heavy = smowton("time", 50, 2.0);
    // Never-scale lets the queue grow without bound; predictive hires like
    // always-scale once the queue's lost reward outweighs the public price.
    CHECK(heavy.profit[kNever] < 2 * heavy.profit[kAlways]);
    CHECK(close_to(heavy.profit[kPredictive], heavy.profit[kAlways], 0.12));
    CHECK(heavy.cloud_share[kPredictive] > 0.5 * heavy.cloud_share[kAlways]);
}

TEST(SmowtonReproduction, ThroughputRewardPredictiveStaysLocalWhenThePublicTierIsDear)
{
    // At 80 CU/TU always-scale loses money on most bursts under the
    // throughput reward; predictive must mostly behave like never-scale.  The
    // paper's uniform late-job window expects private cores later than "at E",
    // so it hires a little (1-3% public core-time) and recovers 75-82% of
    // never's lead, not all of it (bench/scenarios/README.md).
    for (double interval : {2.8, 2.4}) {
        const SmowtonRow r = smowton("throughput", 80, interval);
        CHECK(r.profit[kNever] > r.profit[kAlways]);
        CHECK(r.profit[kPredictive] - r.profit[kAlways] > 0.7 * (r.profit[kNever] - r.profit[kAlways]));
        CHECK(r.cloud_share[kPredictive] < 0.5 * r.cloud_share[kAlways]);
    }
}

TEST(SmowtonReproduction, ThroughputRewardReplayBenefitStaysLocalWhenThePublicTierIsDear)
{
    // The paper's R_loss credits every queued stage with the head's whole
    // wait, so at 110 CU/TU it bursts short stages for a gain the queue never
    // sees and loses to never-scale; crediting what the head's core gives the
    // queue (benefit=replay) keeps it with never.
    const SmowtonRow r = smowton("throughput", 110, 2.2);
    CHECK(r.profit[kNever] > r.profit[kPredictive]);
    CHECK(close_to(r.profit[kReplay], r.profit[kNever], 0.02));
    CHECK(r.cloud_share[kReplay] < 0.2 * r.cloud_share[kPredictive]);
}

TEST(SmowtonReproduction, ThroughputRewardPredictiveBeatsNeverWhenThePublicTierIsCheap)
{
    const SmowtonRow r = smowton("throughput", 20, 2.2);
    CHECK(r.profit[kPredictive] > r.profit[kNever]);
    CHECK(r.cloud_share[kPredictive] > 0);
}

TEST_GROUP(ZhengReproduction){};

TEST(ZhengReproduction, BootWindowCutsWasteSeveralFoldAtAModestRuntimeCost)
{
    ZhengOptions o;
    o.repetitions = 2;
    const auto rows = run_zheng(o);
    LONGS_EQUAL(3, rows.size()); // threshold 20%, threshold 50%, boot-window
    const ZhengRow& hta = rows.back();
    STRCMP_EQUAL("boot-window", hta.label.c_str());
    // Two baselines, not one run twice: HPA's rule sees busy cores only, so
    // the lower target grows the site faster and leaves less short; HTA's
    // shortage lies between the two HPAs' (the paper's Fig. 10c).
    const ZhengRow& hpa20 = rows[0];
    const ZhengRow& hpa50 = rows[1];
    CHECK(hpa20.shortage < hta.shortage);
    CHECK(hta.shortage < hpa50.shortage);
    for (std::size_t i = 0; i + 1 < rows.size(); ++i) {
        CHECK(rows[i].waste > 3 * hta.waste);
        CHECK(hta.runtime < 1.25 * rows[i].runtime);
        CHECK(hta.cloud_cost < rows[i].cloud_cost);
    }
}
