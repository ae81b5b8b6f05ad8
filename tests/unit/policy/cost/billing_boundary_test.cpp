#include "policy/cost/billing_boundary.hpp"

#include <limits>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

NodeGroup group(const std::string& name, Billing billing, Seconds min_billed)
{
    NodeGroup g;
    g.name = name;
    g.billing = billing;
    g.min_billed = min_billed;
    return g;
}

} // namespace

TEST_GROUP(BillingBoundary){};

TEST(BillingBoundary, AnEndedInstanceIsBilledToTheEndOfItsLastBilledPeriod)
{
    const NodeGroup hourly = group("h", Billing::PerHour, 60);
    DOUBLES_EQUAL(1000 + 3600, billed_until(hourly, 1000, 1600), 0);     // 600 s into its first hour
    DOUBLES_EQUAL(1000 + 7200, billed_until(hourly, 1000, 1000 + 3601), 0); // a second hour begun
    // The first hour is billed at launch, whatever MinBilled says.
    DOUBLES_EQUAL(1000 + 3600, billed_until(group("h0", Billing::PerHour, 0), 1000, 1000), 0);
    const NodeGroup seconds = group("s", Billing::PerSecond, 600);
    DOUBLES_EQUAL(1600, billed_until(seconds, 1000, 1100), 0); // MinBilled
    DOUBLES_EQUAL(1900, billed_until(seconds, 1000, 1900), 0); // past it: its uptime
}

TEST(BillingBoundary, OnlyEndedSpansOfKnownGroupsStillBilledAreKept)
{
    const std::vector<NodeGroup> groups = {group("h", Billing::PerHour, 60), group("s", Billing::PerSecond, 600)};
    const std::vector<BilledSpan> spans = {
        {"h-1", "h", 0, 600},              // billed until 3600
        {"h-2", "h", -5000, -4000},        // billed until -1400
        {"s-1", "s", 0, 100},              // MinBilled: until 600
        {"s-2", "s", -1000, -100},         // until its end
        {"h-3", "h", 0, std::nullopt},     // still on: not ended
        {"x-1", "gone", 0, 600},           // a group no longer configured
    };
    const auto billed = spans_billed_past_end(spans, groups, 500);
    LONGS_EQUAL(2, billed.size());
    STRCMP_EQUAL("h-1", billed[0].node.c_str());
    STRCMP_EQUAL("s-1", billed[1].node.c_str());
    LONGS_EQUAL(1, spans_billed_past_end(spans, groups, 600).size()); // s-1's MinBilled is over at 600
}

TEST(BillingBoundary, TheBillOverrunsUptimeMostJustPastAnHourBegunOrBelowMinBilled)
{
    const Seconds never = std::numeric_limits<Seconds>::infinity();
    const NodeGroup hourly = group("h", Billing::PerHour, 60);
    DOUBLES_EQUAL(3000, billing_overrun_bound(hourly, 600, 900), 0);  // down 600 s in at the earliest
    DOUBLES_EQUAL(3600, billing_overrun_bound(hourly, 600, 3700), 0); // or just past the hour: a new one
    DOUBLES_EQUAL(0, billing_overrun_bound(hourly, 3600, 3600), 0);   // down on the hour exactly
    DOUBLES_EQUAL(3600, billing_overrun_bound(hourly, 0, never), 0);
    const NodeGroup seconds = group("s", Billing::PerSecond, 600);
    DOUBLES_EQUAL(500, billing_overrun_bound(seconds, 100, never), 0); // MinBilled
    DOUBLES_EQUAL(0, billing_overrun_bound(seconds, 700, never), 0);
}
