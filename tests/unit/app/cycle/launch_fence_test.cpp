#include "app/cycle/launch_fence.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

Node node(const std::string& name, std::uint32_t flags)
{
    Node n;
    n.name = name;
    n.base = NodeBaseState::Idle;
    n.flags = kNodeCloud | flags;
    return n;
}

std::string why(const std::string& group)
{
    return "node group " + group + " protected";
}

} // namespace

TEST_GROUP(LaunchFence)
{
    NodeGroup group;
    LaunchFence fence;
    void setup() override
    {
        group.name = "cloud";
        group.nodes = {"c1", "c2", "c3"};
    }
    FencePlan plan(const std::vector<Node>& nodes, std::map<std::string, std::uint32_t> limits)
    {
        return fence.plan({group}, nodes, limits, why);
    }
};

TEST(LaunchFence, AStoppedGroupHasOnlyItsResumableNodesDrained)
{
    FencePlan p = plan({node("c1", kNodePoweredDown), node("c2", 0), node("c3", kNodePoweringDown)}, {{"cloud", 0}});
    CHECK(p.undrain.empty());
    CHECK(p.drain == (std::map<std::string, std::vector<std::string>>{{"burstd: node group cloud protected", {"c1"}}}));
}

TEST(LaunchFence, AHiringGroupIsLeftAloneAndAnAdminDrainIsNotTakenOver)
{
    fence.plan({group}, {node("c1", kNodePoweredDown)}, {}, why); // adoption happens on the first plan
    FencePlan p = plan({node("c1", kNodePoweredDown), node("c2", kNodePoweredDown | kNodeDrain)}, {});
    CHECK(p.empty());
    p = plan({node("c1", kNodePoweredDown), node("c2", kNodePoweredDown | kNodeDrain)}, {{"cloud", 0}});
    CHECK(p.undrain.empty());
    CHECK(p.drain.begin()->second == std::vector<std::string>{"c1"});
}

TEST(LaunchFence, ItsDrainsAreClearedOnceTheGroupLaunchesAgain)
{
    plan({node("c1", kNodePoweredDown), node("c2", kNodePoweredDown)}, {{"cloud", 0}});
    fence.drained({"c1", "c2"});
    std::vector<Node> drained = {node("c1", kNodePoweredDown | kNodeDrain), node("c2", kNodePoweredDown | kNodeDrain)};
    CHECK(plan(drained, {{"cloud", 0}}).empty()); // no churn while still stopped
    FencePlan p = plan(drained, {});
    CHECK(p.undrain == (std::vector<std::string>{"c1", "c2"}));
    fence.undrain_done(p.undrain);
    CHECK(fence.fenced().empty());
}

TEST(LaunchFence, AProbeGetsExactlyOneUndrainedNode)
{
    fence.plan({group}, {}, {}, why);
    fence.drained({"c1", "c2", "c3"});
    std::vector<Node> drained = {node("c1", kNodePoweredDown | kNodeDrain), node("c2", kNodePoweredDown | kNodeDrain),
                                 node("c3", kNodePoweredDown | kNodeDrain)};
    FencePlan p = plan(drained, {{"cloud", 1}});
    CHECK(p.drain.empty());
    CHECK(p.undrain == std::vector<std::string>{"c1"});
    fence.undrain_done(p.undrain);
    drained[0].flags &= ~std::uint32_t(kNodeDrain);
    CHECK(plan(drained, {{"cloud", 1}}).empty()); // c1 is there for the probe
    // The probe launches c1; the others stay drained until it succeeds.
    drained[0].flags = kNodeCloud | kNodePoweringUp;
    CHECK(plan(drained, {{"cloud", 0}}).empty());
    p = plan(drained, {});
    CHECK(p.undrain == (std::vector<std::string>{"c2", "c3"}));
}

TEST(LaunchFence, SurplusNodesAreDrainedWhenOnlyAProbeIsAllowed)
{
    FencePlan p = plan({node("c1", kNodePoweredDown), node("c2", kNodePoweredDown)}, {{"cloud", 1}});
    CHECK(p.drain.begin()->second == std::vector<std::string>{"c2"});
}

TEST(LaunchFence, AfterARestartEveryDrainedNodeIsACandidateForTheReasonCheck)
{
    FencePlan p = plan({node("c1", kNodePoweredDown | kNodeDrain), node("c2", kNodePoweredDown)}, {});
    CHECK(p.undrain == std::vector<std::string>{"c1"});
    fence.undrain_done(p.undrain); // cleared or not ours: asked once only
    CHECK(plan({node("c1", kNodePoweredDown | kNodeDrain), node("c2", kNodePoweredDown)}, {}).empty());
}

TEST(LaunchFence, ReasonsAreOneBoundedLine)
{
    FencePlan p = fence.plan({group}, {node("c1", kNodePoweredDown)}, {{"cloud", 0}},
                             [](const std::string&) { return "a\nb" + std::string(500, 'x'); });
    const std::string& reason = p.drain.begin()->first;
    CHECK(reason.find('\n') == std::string::npos);
    CHECK(reason.size() <= 200);
    STRCMP_CONTAINS("burstd: a b", reason.c_str());
}
