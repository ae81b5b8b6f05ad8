#include "app/instances/group_health_board.hpp"

#include "common/json_ref.hpp"

#include <sstream>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

NodeGroup group(const std::string& name, std::uint32_t capacity_errors)
{
    NodeGroup g;
    g.name = name;
    g.recovery.capacity_errors = capacity_errors;
    g.recovery.cool_down = 60;
    return g;
}

const ProviderError kCapacity{ProviderErrorKind::Capacity, "ZONE_RESOURCE_POOL_EXHAUSTED", 0};

struct Board {
    std::ostringstream out;
    Logger log{out, LogLevel::Debug, false};
    GroupHealthBoard board{{group("a", 1), group("b", 2)}, 100, log};
};

} // namespace

TEST_GROUP(GroupHealthBoard){};

TEST(GroupHealthBoard, GroupsHaveTheirOwnBreakersAndSettings)
{
    Board b;
    b.board.launch_failed("a", kCapacity, 10, false);
    b.board.launch_failed("b", kCapacity, 10, false);
    auto limits = b.board.hire_limits(20);
    LONGS_EQUAL(1, limits.size());
    LONGS_EQUAL(0, limits.at("a"));
    CHECK(b.board.admit("a", 20).refused());
    CHECK(b.board.admit("b", 20).kind == AdmissionKind::Launch);
}

TEST(GroupHealthBoard, ModeChangesAreLoggedOnceWithTheReason)
{
    Board b;
    b.board.launch_failed("a", kCapacity, 10, false);
    b.board.launch_failed("a", kCapacity, 11, false); // already open: no new line
    std::string log = b.out.str();
    CHECK(log.find("node group a: hiring -> backing-off (capacity: ZONE_RESOURCE_POOL_EXHAUSTED); one probe launch in 60 s") !=
          std::string::npos);
    CHECK(log.find("hiring -> backing-off") == log.rfind("hiring -> backing-off"));
    CHECK(b.board.admit("a", 70).probe());
    b.board.launched("a", 71, true);
    CHECK(b.out.str().find("node group a: probing -> hiring") != std::string::npos);
}

TEST(GroupHealthBoard, UnknownGroupsAreNeitherLimitedNorReset)
{
    Board b;
    CHECK(b.board.admit("zz", 0).kind == AdmissionKind::Launch);
    b.board.launch_failed("zz", kCapacity, 0, false);
    CHECK(b.board.hire_limits(0).empty());
    CHECK_FALSE(b.board.reset("zz", 0));
    CHECK_FALSE(b.board.view("zz", 0).has_value());
}

TEST(GroupHealthBoard, ResetAndReload)
{
    Board b;
    b.board.launch_failed("a", kCapacity, 0, false);
    b.board.launch_failed("b", {ProviderErrorKind::Auth, "AuthFailure", 0}, 0, false);
    CHECK(b.board.reset("a", 1));
    CHECK(b.board.view("a", 1)->state == BreakerState::Closed);
    CHECK(b.board.view("b", 1)->state == BreakerState::Disabled);
    // The reload drops group a, keeps b (re-enabled) and adds c.
    b.board.reload({group("b", 2), group("c", 1)});
    CHECK_FALSE(b.board.view("a", 2).has_value());
    CHECK(b.board.view("b", 2)->state == BreakerState::Closed);
    CHECK(b.board.view("c", 2).has_value());
}

TEST(GroupHealthBoard, JsonShowsModeReasonAndProbeTime)
{
    Board b;
    b.board.launch_failed("a", kCapacity, 10, false);
    JsonRef j(b.board.to_json(20));
    json_t* a = json_object_get(j.get(), "a");
    STRCMP_EQUAL("backing-off", json_string_value(json_object_get(a, "mode")));
    STRCMP_EQUAL("open", json_string_value(json_object_get(a, "state")));
    STRCMP_EQUAL("capacity", json_string_value(json_object_get(a, "cause")));
    LONGS_EQUAL(70, json_integer_value(json_object_get(a, "probe_at")));
    LONGS_EQUAL(50, json_integer_value(json_object_get(a, "probe_in")));
    CHECK(std::string(json_string_value(json_object_get(a, "reason"))).find("ZONE_RESOURCE") != std::string::npos);
    json_t* bj = json_object_get(j.get(), "b");
    STRCMP_EQUAL("hiring", json_string_value(json_object_get(bj, "mode")));
    CHECK(json_object_get(bj, "reason") == nullptr);
}
