#include "policy/site/node_group_index.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

ClusterState site(const std::vector<std::string>& nodes, const std::vector<std::vector<std::string>>& groups)
{
    ClusterState state;
    for (const auto& name : nodes) {
        Node n;
        n.name = name;
        state.snapshot.nodes.push_back(n);
    }
    for (std::size_t g = 0; g < groups.size(); ++g) {
        NodeGroup group;
        group.name = "g" + std::to_string(g);
        group.nodes = groups[g];
        state.groups.push_back(group);
    }
    return state;
}

std::vector<int> fresh(const ClusterState& state)
{
    NodeGroupIndex index;
    return index.of(state);
}

} // namespace

TEST_GROUP(NodeGroupIndex){};

TEST(NodeGroupIndex, NodesInNoGroupAreMinusOneAndTheFirstGroupListingANodeWins)
{
    ClusterState state = site({"n1", "a1", "b1", "ab"}, {{"a1", "ab"}, {"b1", "ab"}});
    NodeGroupIndex index;
    CHECK((index.of(state) == std::vector<int>{-1, 0, 1, 0}));
}

TEST(NodeGroupIndex, AnswersAsAFreshLookupWhateverChangedSinceTheLastCall)
{
    // One index kept across "decisions" against a fresh one each time.
    NodeGroupIndex kept;
    ClusterState state = site({"n1", "n2", "a1"}, {{"a1", "a2"}});
    CHECK((kept.of(state) == fresh(state)));
    // A node the group lists appears where a local node was.
    state.snapshot.nodes[1].name = "a2";
    CHECK((kept.of(state) == std::vector<int>{-1, 0, 0}));
    // The snapshot lists more nodes, then fewer.
    Node extra;
    extra.name = "a3";
    state.snapshot.nodes.push_back(extra);
    CHECK((kept.of(state) == std::vector<int>{-1, 0, 0, -1}));
    state.groups[0].nodes.push_back("a3"); // the group grew: a3 is its node now
    CHECK((kept.of(state) == std::vector<int>{-1, 0, 0, 0}));
    state.snapshot.nodes.resize(2);
    CHECK((kept.of(state) == std::vector<int>{-1, 0}));
    // The groups change under unchanged node names.
    state.groups[0].nodes = {"n1"};
    CHECK((kept.of(state) == std::vector<int>{0, -1}));
    state.groups.clear();
    CHECK((kept.of(state) == std::vector<int>{-1, -1}));
    CHECK((kept.of(state) == fresh(state)));
}

TEST(NodeGroupIndex, AStateVouchingForTheLastCallsLayoutIsNotComparedAgain)
{
    NodeGroupIndex kept;
    ClusterState state = site({"n1", "a1"}, {{"a1"}});
    state.node_layout = new_node_layout();
    CHECK((kept.of(state) == std::vector<int>{-1, 0}));
    // Its builder broke its word: the index takes it.
    state.groups[0].nodes = {"n1"};
    CHECK((kept.of(state) == std::vector<int>{-1, 0}));
    // A new layout is looked at, as is a state that vouches for none.
    state.node_layout = new_node_layout();
    CHECK((kept.of(state) == std::vector<int>{0, -1}));
    state.node_layout = 0;
    state.groups[0].nodes = {"a1"};
    CHECK((kept.of(state) == std::vector<int>{-1, 0}));
    state.groups[0].nodes = {"n1", "a1"};
    CHECK((kept.of(state) == std::vector<int>{0, 0}));
}
