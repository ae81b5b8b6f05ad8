#include "app/instances/placement_backoff.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

GroupRecovery recovery()
{
    GroupRecovery r;
    r.cool_down = 60;
    r.max_cool_down = 200;
    return r;
}

// "type@zone,type@zone,..."
std::string text(const std::vector<Placement>& places)
{
    std::string out;
    for (const auto& p : places)
        out += (out.empty() ? "" : ",") + p.instance_type + "@" + p.zone;
    return out;
}

const std::vector<Placement> kAll =
    PlacementBackoff::candidates({"n2-standard-8", "n2d-standard-8"}, {"us-central1-a", "us-central1-b"});

} // namespace

TEST_GROUP(PlacementBackoff){};

TEST(PlacementBackoff, CandidatesAreTypeMajorInConfiguredOrder)
{
    STRCMP_EQUAL("n2-standard-8@us-central1-a,n2-standard-8@us-central1-b,"
                 "n2d-standard-8@us-central1-a,n2d-standard-8@us-central1-b",
                 text(kAll).c_str());
    // No zones (AWS, local) or no types: the provider's default stands in.
    STRCMP_EQUAL("c5.large@,m5.large@", text(PlacementBackoff::candidates({"c5.large", "m5.large"}, {})).c_str());
    STRCMP_EQUAL("@", text(PlacementBackoff::candidates({}, {})).c_str());
}

TEST(PlacementBackoff, AShortPlacementGoesLastUntilItsCoolDownEnds)
{
    PlacementBackoff b;
    b.short_of_capacity("g", kAll[0], recovery(), 1000);
    STRCMP_EQUAL("n2-standard-8@us-central1-b,n2d-standard-8@us-central1-a,n2d-standard-8@us-central1-b,"
                 "n2-standard-8@us-central1-a",
                 text(b.order("g", kAll, 1000)).c_str());
    STRCMP_EQUAL(text(kAll).c_str(), text(b.order("other-group", kAll, 1000)).c_str());
    // Time up: back in its place, and the next launch there is its probe.
    STRCMP_EQUAL(text(kAll).c_str(), text(b.order("g", kAll, 1060)).c_str());
}

TEST(PlacementBackoff, SeveralShortPlacementsKeepTheirRelativeOrder)
{
    PlacementBackoff b;
    b.short_of_capacity("g", kAll[2], recovery(), 1000);
    b.short_of_capacity("g", kAll[0], recovery(), 1000);
    STRCMP_EQUAL("n2-standard-8@us-central1-b,n2d-standard-8@us-central1-b,"
                 "n2-standard-8@us-central1-a,n2d-standard-8@us-central1-a",
                 text(b.order("g", kAll, 1010)).c_str());
}

TEST(PlacementBackoff, AFailedProbeDoublesTheWaitUpToTheMaximumAndASuccessForgets)
{
    PlacementBackoff b;
    b.short_of_capacity("g", kAll[1], recovery(), 1000);
    // Another worker meeting the same shortage meanwhile does not double it.
    b.short_of_capacity("g", kAll[1], recovery(), 1010);
    auto v = b.views(1010);
    LONGS_EQUAL(1, v.size());
    DOUBLES_EQUAL(60, v[0].cool_down, 0);
    DOUBLES_EQUAL(1070, v[0].until, 0);
    LONGS_EQUAL(2, v[0].shortages);
    CHECK(v[0].backing_off);
    STRCMP_EQUAL("us-central1-b", v[0].zone.c_str());
    STRCMP_EQUAL("n2-standard-8", v[0].instance_type.c_str());

    CHECK_FALSE(b.views(1070)[0].backing_off); // probing
    b.short_of_capacity("g", kAll[1], recovery(), 1070);
    DOUBLES_EQUAL(120, b.views(1070)[0].cool_down, 0);
    DOUBLES_EQUAL(1190, b.views(1070)[0].until, 0);
    b.short_of_capacity("g", kAll[1], recovery(), 1200);
    DOUBLES_EQUAL(200, b.views(1200)[0].cool_down, 0); // capped at MaxCoolDown

    b.launched("g", kAll[1]);
    CHECK(b.views(1200).empty());
    STRCMP_EQUAL(text(kAll).c_str(), text(b.order("g", kAll, 1200)).c_str());
}
