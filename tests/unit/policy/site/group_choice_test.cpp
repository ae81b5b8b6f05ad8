#include "policy/site/group_choice.hpp"
#include "policy/policy_test_state.hpp"

#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

TEST_GROUP(GroupChoice){};

TEST(GroupChoice, TheExpandersPickAmongTheOfferedGroupsIsTheGroupToActOn)
{
    StateBuilder b;
    b.group("dear", 4, 2, 0.8).group("cheap", 4, 2, 0.2).group("cheapest", 4, 2, 0.1);
    SiteView view = SiteView::of(b.state);
    const auto expander = make_expander("price");
    std::vector<ExpansionOption> options;
    // "cheapest" is not offered: the price expander takes the cheaper of the rest.
    GroupView* chosen = choose_group(
        *expander, view.groups, 4, [](const GroupView& g) { return g.group->name != "cheapest"; }, options);
    CHECK(chosen == &view.groups[1]);
    chosen->routed_pending_cpus += 4;
    CHECK_EQUAL(4u, view.groups[1].routed_pending_cpus);
    CHECK(choose_group(*expander, view.groups, 4, [](const GroupView&) { return false; }, options) == nullptr);
}
