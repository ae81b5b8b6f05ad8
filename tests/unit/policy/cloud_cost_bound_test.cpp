#include "policy/cloud_cost_bound.hpp"

#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// 4 cores a node at 0.001 per second, 100 s boot.
NodeGroup cloud()
{
    NodeGroup g;
    g.name = "cloud";
    g.cpus = 4;
    g.price_per_hour = 3.6;
    g.boot_time = 100;
    return g;
}

std::vector<Seconds> busy(const std::vector<OpenNode>& nodes)
{
    std::vector<Seconds> out;
    for (const auto& n : nodes)
        out.push_back(n.busy_for);
    return out;
}

} // namespace

TEST_GROUP(CloudCostBound){};

TEST(CloudCostBound, OpenNodesKeepUpAndBootingApartLeastBusyFirst)
{
    OpenNodes open;
    open.add(OpenNode{2, 50, false});
    open.add(OpenNode{4, 30, true}, 2);
    open.add(OpenNode{1, 10, false});
    open.add(OpenNode{4, 0, true});
    CHECK((busy(open.up()) == std::vector<Seconds>{10, 50}));
    CHECK((busy(open.booting()) == std::vector<Seconds>{0, 30, 30}));
}

TEST(CloudCostBound, ARouteExtendsTheOpenNodesItExtendsMostWhetherUpOrBooting)
{
    // A job of 2 cores and limit 1000 extends an up node busy 900 s by 100 s,
    // one up 200 s by 800 s, one booting and busy 500 s by 600 s (its boot
    // counts): at worst one core on each of the two it extends most, 1400 s
    // of a node, less the half node it pays for 1000 s: 0.9.  Fresh nodes
    // only: one node's boot and 60 s idle (0.16) plus 1000 s less its half: 0.66.
    Job job;
    job.cpus = 2;
    job.time_limit = 1000;
    OpenNodes open;
    open.add(OpenNode{1, 900, false});
    open.add(OpenNode{1, 500, true});
    open.add(OpenNode{1, 200, false});
    auto bound = route_unused_cost_bound(job, cloud(), open, 3, 60);
    CHECK(bound.has_value());
    DOUBLES_EQUAL(0.9, *bound, 1e-9);
}

TEST(CloudCostBound, ABusyNodesBoundSaysHowLongItIsBusy)
{
    Job a, b;
    a.cpus = 2;
    a.time_limit = 1000;
    a.start_time = 0;
    a.nodes = {"c1"};
    b = a;
    b.time_limit = 400;
    // At 100: a runs 900 s more, b 300 s; booting adds the 100 s boot.
    auto bound = busy_node_unused_cost_bound(cloud(), {&a, &b}, true, 100, 60);
    CHECK(bound.has_value());
    DOUBLES_EQUAL(1000, bound->busy_for, 1e-9);
    // The node 1000 s + 60 s idle (1.06), less a's half for 1000 s (0.5) and b's for 400 s (0.2).
    DOUBLES_EQUAL(0.36, bound->unused, 1e-9);
}
