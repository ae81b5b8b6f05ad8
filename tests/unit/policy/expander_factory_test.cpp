#include "policy/expander.hpp"
#include "policy/policy_params.hpp"

#include "policy_test_state.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

TEST_GROUP(Expander){};

TEST(Expander, EachStrategyPicksItsFavourite)
{
    StateBuilder b;
    b.group("big", 16, 2, 1.6).group("cheap", 4, 2, 0.2).group("exact", 6, 2, 1.2);
    SiteView v = SiteView::of(b.state);
    std::vector<const GroupView*> all{&v.groups[0], &v.groups[1], &v.groups[2]};
    // 6 cores: big wastes 10, cheap wastes 2 (0.05/core-h), exact wastes 0 (0.2/core-h).
    STRCMP_EQUAL("exact", make_expander("least-waste")->choose(all, 6)->group->name.c_str());
    STRCMP_EQUAL("cheap", make_expander("price")->choose(all, 6)->group->name.c_str());
    STRCMP_EQUAL("big", make_expander("priority")->choose(all, 6)->group->name.c_str());
    CHECK(make_expander("price")->choose({}, 6) == nullptr);
    LONGS_EQUAL(2, wasted_cpus(*v.groups[1].group, 6));
}

TEST(Expander, UnknownNameListsTheKnownOnes)
{
    try {
        make_expander("random");
        FAIL("accepted");
    } catch (const PolicyConfigError& e) {
        STRCMP_CONTAINS("least-waste, price, priority", e.what());
    }
}
