// Regression tests for the papers' findings as burstsim reproduces them
// (burstsim --scenario smowton|zheng prints the full tables).  Shorter runs
// than the tables, same seeds: a policy change that loses the finding fails.

#include "sim/scenario/smowton_scenario.hpp"
#include "sim/scenario/zheng_scenario.hpp"

#include <algorithm>
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

TEST(SmowtonReproduction, ThroughputRewardPredictiveIsNeverAtLightLoad)
{
    // Under the time reward the paper's "≈ never at light load" is not met
    // in a way a test can tell: at 50 CU/TU, 3.0 the three policies are
    // within 0.2% of each other (never -4497, always -4495, predictive
    // -4490): every waiting pipeline loses more than the public premium, so
    // hiring costs little (bench/scenarios/README.md).  Under the throughput
    // reward at 80 CU/TU always loses by bursting (475 against never's 548)
    // and predictive stays with never (548, no public core-time).
    const SmowtonRow light = smowton("throughput", 80, 3.0);
    CHECK(close_to(light.profit[kPredictive], light.profit[kNever], 0.03));
    CHECK(!close_to(light.profit[kAlways], light.profit[kNever], 0.03));
    CHECK(light.cloud_share[kPredictive] < 0.2 * light.cloud_share[kAlways]);
}

TEST(SmowtonReproduction, TimeRewardPredictiveIsAtLeastAsGoodAsBothInBetween)
{
    // The paper's "at least as good as both in between", at a cell where it
    // holds for seed 1 over 600 TU (load 0.98: never -6722, always -6532,
    // predictive -6468); the cells where it does not are listed in
    // bench/scenarios/README.md.
    const SmowtonRow r = smowton("time", 110, 2.4);
    CHECK(r.profit[kPredictive] >= std::max(r.profit[kNever], r.profit[kAlways]));
}

TEST(SmowtonReproduction, TimeRewardPredictiveIsNearAlwaysAtHeavyLoad)
{
    const SmowtonRow heavy = smowton("time", 50, 2.0);
    // Never-scale lets the queue grow without bound (over 600 TU it makes
    // -11982 against always' -7188); predictive hires like always-scale once
    // the queue's lost reward outweighs the public price.
    CHECK(heavy.profit[kNever] < 1.5 * heavy.profit[kAlways]);
    CHECK(close_to(heavy.profit[kPredictive], heavy.profit[kAlways], 0.12));
    CHECK(heavy.cloud_share[kPredictive] > 0.5 * heavy.cloud_share[kAlways]);
}

TEST(SmowtonReproduction, ThroughputRewardPredictiveStaysLocalWhenThePublicTierIsDear)
{
    // At 80 CU/TU always-scale loses money on most bursts under the
    // throughput reward; predictive must mostly behave like never-scale.  The
    // paper's uniform late-job window expects private cores later than "at E",
    // so it hires a little (under 2% public core-time) and recovers 80-99%
    // of never's lead, not all of it (bench/scenarios/README.md).
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
