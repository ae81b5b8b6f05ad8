#include "model/node_needs.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(NodeNeeds){};

TEST(NodeNeeds, EqualPairsAreOneValueAndNothingAskedIsEmpty)
{
    NodeNeeds a("gres:gpu:1", "ib"), b("gres:gpu:1", "ib"), c("gres:gpu:1", ""), none, blank("", "");
    CHECK(a == b);
    CHECK(a != c);
    CHECK(none == blank);
    CHECK(none.empty());
    CHECK_FALSE(a.empty());
    CHECK(a.id() < NodeNeeds::id_bound());
    STRCMP_EQUAL("gres:gpu:1", a.gres().c_str());
    STRCMP_EQUAL("ib", a.features().c_str());
    LONGS_EQUAL(2, sizeof(NodeNeeds));
}

TEST(NodeNeeds, AKindOfNodeMeetsThemWhenItHasTheGresAndTheFeatures)
{
    const NodeOffer gpu_ib{{GresCount{"gpu", "a100", 4}}, {"cloud", "ib"}};
    const NodeOffer cpu{{}, {"cloud"}};
    CHECK(NodeNeeds().met_by(cpu));
    CHECK(NodeNeeds("gres:gpu:2", "").met_by(gpu_ib));
    CHECK_FALSE(NodeNeeds("gres:gpu:2", "").met_by(cpu));
    CHECK(NodeNeeds("", "cloud").met_by(cpu));
    CHECK(NodeNeeds("gres:gpu:a100:1", "ib&cloud").met_by(gpu_ib));
    CHECK_FALSE(NodeNeeds("gres:gpu:a100:1", "ib&onprem").met_by(gpu_ib));
}

// A task's CPUs and the memory asked per node must fit on one node; a kind
// of node whose size is not known (0) is taken to fit.
TEST(NodeNeeds, ATaskWiderOrAJobHungrierThanANodeIsMetByNone)
{
    const NodeOffer eight{{}, {}, 8, 16000}, unknown{};
    CHECK(NodeNeeds("", "", 1, 0).empty());
    CHECK(NodeNeeds("", "", 0, 0).empty());
    CHECK(NodeNeeds("", "", 8, 16000).met_by(eight));
    CHECK_FALSE(NodeNeeds("", "", 9, 0).met_by(eight));
    CHECK_FALSE(NodeNeeds("", "", 1, 16001).met_by(eight));
    CHECK(NodeNeeds("", "", 64, 1 << 20).met_by(unknown));
    CHECK(NodeNeeds("", "", 2, 0) != NodeNeeds("", "", 4, 0));
    CHECK(NodeNeeds("gres:gpu:1", "", 2, 100) != NodeNeeds("gres:gpu:1", "", 2, 200));
    LONGS_EQUAL(4, NodeNeeds("", "", 4, 300).cpus());
    LONGS_EQUAL(300, NodeNeeds("", "", 4, 300).memory_mb());
}

// Slurm accepted these texts, so burstd failing to read them means a form
// it does not know: no node is taken to meet them, and the reason is kept.
TEST(NodeNeeds, TextsItCannotReadAreMetByNoNodeAndSayWhy)
{
    const NodeOffer any{{GresCount{"gpu", "", 8}}, {"a", "b"}};
    NodeNeeds bad_gres("gres:gpu:a:b:1", ""), bad_constraint("", "a&&b");
    CHECK_FALSE(bad_gres.met_by(any));
    CHECK_FALSE(bad_constraint.met_by(any));
    CHECK(bad_gres.error().find("gres \"gpu:a:b:1\"") != std::string::npos);
    CHECK(bad_constraint.error().find("constraint \"a&&b\" at character 3") != std::string::npos);
    CHECK(NodeNeeds("gres:gpu:1", "a").error().empty());
}
