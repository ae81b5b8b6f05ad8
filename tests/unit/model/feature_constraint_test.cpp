#include "model/feature_constraint.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

bool met(const char* constraint, std::vector<std::string> features)
{
    std::sort(features.begin(), features.end());
    return FeatureConstraint(constraint).met_by(features);
}

} // namespace

TEST_GROUP(FeatureConstraint){};

TEST(FeatureConstraint, NoConstraintIsMetByEveryNode)
{
    CHECK(FeatureConstraint().empty());
    CHECK(FeatureConstraint("").empty());
    CHECK(met("", {}));
    CHECK_FALSE(FeatureConstraint("a").empty());
}

TEST(FeatureConstraint, AndOrAndCommaReadLeftToRightAsSlurmDoes)
{
    CHECK(met("intel", {"intel", "ib"}));
    CHECK_FALSE(met("amd", {"intel", "ib"}));
    CHECK(met("intel&ib", {"intel", "ib"}));
    CHECK(met("intel,ib", {"intel", "ib"})); // Slurm takes ',' for '&'
    CHECK_FALSE(met("intel&gpu", {"intel", "ib"}));
    CHECK(met("amd|intel", {"intel"}));
    // No precedence: "a|b&c" is "(a|b)&c", not "a|(b&c)".
    CHECK_FALSE(met("a|b&c", {"a"}));
    CHECK(met("a|b&c", {"b", "c"}));
    CHECK(met("a&b|c", {"c"})); // "(a&b)|c"
}

TEST(FeatureConstraint, ParenthesesBracketsAndCountsGroupAsWritten)
{
    CHECK(met("a|(b&c)", {"a"}));
    CHECK(met("ib&(skylake|cascade)", {"ib", "cascade"}));
    CHECK_FALSE(met("ib&(skylake|cascade)", {"cascade"}));
    // One kind of node is all alike: the bracket's alternatives are an "or".
    CHECK(met("[rack1|rack2]", {"rack2"}));
    CHECK_FALSE(met("[rack1|rack2]", {"rack3"}));
    CHECK(met("fastio&[xeon|epyc]", {"fastio", "epyc"}));
    // A count asks the feature of some nodes: a kind of node without it serves none of them.
    CHECK(met("gpu*2&ib", {"gpu", "ib"}));
    CHECK_FALSE(met("gpu*2", {"ib"}));
}

TEST(FeatureConstraint, AConstraintSlurmWouldRefuseIsRefusedNamingWhere)
{
    for (const char* bad : {"&a", "a&", "a||b", "(a", "a)", "[a|b", "[a|[b]]", "a*", "a*0", "a b", "()", "a(b)"}) {
        try {
            FeatureConstraint c(bad);
            FAIL((std::string("accepted ") + bad).c_str());
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            CHECK_TEXT(what.find(std::string("constraint \"") + bad + "\" at character ") == 0, what.c_str());
        }
    }
}
