#include "policy/cost/cloud_cost_bound.hpp"

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
    auto bound = busy_node_unused_cost_bound(cloud(), {&a, &b}, true, 100, 100, 60);
    CHECK(bound.has_value());
    DOUBLES_EQUAL(1000, bound->busy_for, 1e-9);
    // b may end at once and a run its 1000 s: the node 1000 s + 60 s idle
    // (1.06), less a's half for 1000 s (0.5).  (a ending at once and b
    // running 400 s leaves 0.46 - 0.2.)
    DOUBLES_EQUAL(0.56, bound->unused, 1e-9);

    // Billed by the hour, the node may power down anywhere from now (up
    // 100 s: 3500 s billed beyond its uptime) to 1160 s up, all in its first
    // hour; up 3000 s, it may end just past the hour and begin another.
    NodeGroup hourly = cloud();
    hourly.billing = Billing::PerHour;
    DOUBLES_EQUAL(0.56 + 3.5, busy_node_unused_cost_bound(hourly, {&a, &b}, true, 100, 100, 60)->unused, 1e-9);
    DOUBLES_EQUAL(0.56 + 3.6, busy_node_unused_cost_bound(hourly, {&a, &b}, true, 100, 3000, 60)->unused, 1e-9);
}

TEST(CloudCostBound, BilledByTheHourAnIdleNodeCostsTheRestOfEveryHourItBegins)
{
    NodeGroup hourly = cloud();
    hourly.billing = Billing::PerHour;
    // Up 600 s, idle 300 s to SuspendTime: down 900 s into an hour billed whole.
    DOUBLES_EQUAL(3.0, *idle_node_cost_bound(hourly, 600, 0, 300), 1e-9);
    DOUBLES_EQUAL(0.3, *idle_node_cost_bound(cloud(), 600, 0, 300), 1e-9);
    // Hired now: 100 s boot and 300 s idle, one hour.
    DOUBLES_EQUAL(3.6, *idle_node_cost_bound(hourly, 0, 100, 300), 1e-9);
    // Up 3500 s: SuspendTime takes it into a second hour, billed to 7200 s.
    DOUBLES_EQUAL(3.7, *idle_node_cost_bound(hourly, 3500, 0, 300), 1e-9);
    // Due down at 3550 s, 50 s before the hour ends: a power-down up to
    // kPowerDownLag late begins a second hour.
    DOUBLES_EQUAL(0.3 + 3.6, *idle_node_cost_bound(hourly, 3250, 0, 300), 1e-9);
}

TEST(CloudCostBound, ARouteMayTakeEachNodeItTouchesIntoAnotherBilledHour)
{
    // The open nodes of ARouteExtendsTheOpenNodesItExtendsMostWhetherUpOrBooting,
    // billed by the hour: the two the job touches may each start another
    // hour, at most the two largest headrooms (3000 + 500 s).  A fresh node
    // is up 160 s (boot and idle) to 1160 s, billed one hour either way:
    // all of it no job's if the job ends at once.
    NodeGroup hourly = cloud();
    hourly.billing = Billing::PerHour;
    Job job;
    job.cpus = 2;
    job.time_limit = 1000;
    OpenNodes open;
    open.add(OpenNode{1, 900, false, 0});
    open.add(OpenNode{1, 500, true, 500});
    open.add(OpenNode{1, 200, false, 3000});
    DOUBLES_EQUAL(3500, open.billing_headroom(2), 0);
    DOUBLES_EQUAL(0.9 + 3.5, *route_unused_cost_bound(job, hourly, open, 3, 60), 1e-9);
    DOUBLES_EQUAL(3.6, *route_unused_cost_bound(job, hourly, OpenNodes(), 0, 60), 1e-9);
}
