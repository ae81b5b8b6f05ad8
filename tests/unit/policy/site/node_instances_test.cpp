#include "policy/site/node_instances.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

Instance instance(const std::string& node, InstanceState state, Time requested_at)
{
    Instance i;
    i.node = node;
    i.node_group = "aws";
    i.state = state;
    i.requested_at = requested_at;
    return i;
}

} // namespace

TEST_GROUP(NodeInstances){};

TEST(NodeInstances, AnEndedInstanceNoLongerBacksItsNode)
{
    // aws-1's first instance ended at some point and a second was launched
    // at 500: its uptime counts from the second.
    const std::vector<Instance> all{instance("aws-1", InstanceState::Terminated, 100),
                                    instance("aws-2", InstanceState::Failed, 200),
                                    instance("aws-1", InstanceState::Running, 500)};
    NodeInstances by_node(all);
    DOUBLES_EQUAL(400, by_node.uptime("aws-1", 900), 1e-9);
    POINTERS_EQUAL(&all[2], by_node.find("aws-1"));
    POINTERS_EQUAL(nullptr, by_node.find("aws-2"));
}

TEST(NodeInstances, ANodeBurstdDidNotLaunchIsTakenAsJustLaunched)
{
    const std::vector<Instance> all{instance("aws-1", InstanceState::Terminating, 100)};
    NodeInstances by_node(all);
    DOUBLES_EQUAL(800, by_node.uptime("aws-1", 900), 1e-9); // terminating: still billed
    DOUBLES_EQUAL(0, by_node.uptime("aws-9", 900), 1e-9);
}

TEST(NodeInstances, ANodeResumedWhileItsLastInstanceTerminatesIsBackedByTheNewOne)
{
    // Slurm resumed aws-1 at 700 while the instance of 100 was still being
    // terminated; the ledger lists the newer one either side of it.
    const std::vector<Instance> before{instance("aws-1", InstanceState::Launching, 700),
                                       instance("aws-1", InstanceState::Terminating, 100)};
    const std::vector<Instance> after{instance("aws-1", InstanceState::Terminating, 100),
                                      instance("aws-1", InstanceState::Launching, 700)};
    NodeInstances first(before), second(after);
    POINTERS_EQUAL(&before[0], first.find("aws-1"));
    POINTERS_EQUAL(&after[1], second.find("aws-1"));
    DOUBLES_EQUAL(200, second.uptime("aws-1", 900), 1e-9);
}
