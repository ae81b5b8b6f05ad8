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
