#include "model/gres.hpp"

#include <stdexcept>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(Gres){};

// What slurmctld 22.05 keeps in tres_per_node for --gres=gpu:2,
// --gres=gpu:a100:1 and --gpus-per-node=4.
TEST(Gres, AJobsRequestReadsAsSlurmctldKeepsIt)
{
    auto r = parse_gres_request("gres:gpu:2,gres:gpu:a100:1");
    LONGS_EQUAL(2, r.size());
    CHECK(r[0] == (GresCount{"gpu", "", 2}));
    CHECK(r[1] == (GresCount{"gpu", "a100", 1}));
    r = parse_gres_request("gres:gpu:4");
    CHECK(r[0] == (GresCount{"gpu", "", 4}));
    r = parse_gres_request("gres/mps:50,gpu");
    CHECK(r[0] == (GresCount{"mps", "", 50}));
    CHECK(r[1] == (GresCount{"gpu", "", 1}));
    r = parse_gres_request("gres:bandwidth:lustre:4G");
    CHECK(r[0] == (GresCount{"bandwidth", "lustre", 4ull << 30}));
    // Slurm's multipliers: binary without "b", decimal with it, any case.
    CHECK(parse_gres_request("gres:bw:4GiB")[0] == (GresCount{"bw", "", 4ull << 30}));
    CHECK(parse_gres_request("gres:bw:4kb")[0] == (GresCount{"bw", "", 4000}));
    CHECK(parse_gres_request("gres:bw:2Mb")[0] == (GresCount{"bw", "", 2000000}));
    CHECK(parse_gres_request("gres:bw:1p")[0] == (GresCount{"bw", "", 1ull << 50}));
    CHECK(parse_gres_request("gres:gpu:2,")[0] == (GresCount{"gpu", "", 2})); // Slurm skips empty entries
    CHECK(parse_gres_request("").empty());
    CHECK(parse_gres_request("none").empty());
    CHECK(parse_gres_request("gres:gpu:0").empty());
}

TEST(Gres, ANodesGresReadsAsSlurmConfWritesIt)
{
    auto n = parse_node_gres("gpu:a100:4(S:0-1),mps:400,bandwidth:lustre:no_consume:4G");
    LONGS_EQUAL(3, n.size());
    CHECK(n[0] == (GresCount{"gpu", "a100", 4}));
    CHECK(n[1] == (GresCount{"mps", "", 400}));
    CHECK(n[2] == (GresCount{"bandwidth", "lustre", 4ull << 30}));
    CHECK(parse_node_gres("bandwidth:lustre:NO_CONSUME:4G")[0] == (GresCount{"bandwidth", "lustre", 4ull << 30}));
    n = parse_node_gres("gpu:2(S:0,1),gpu:tesla:1");
    LONGS_EQUAL(2, n.size());
    CHECK(n[0] == (GresCount{"gpu", "", 2}));
    CHECK(parse_node_gres("").empty());
}

TEST(Gres, TextItCannotReadIsRefusedNamingTheEntry)
{
    for (const char* bad : {"gres:", "gpu:a:b:2", "gpu::2", ":2", "gres:bw:lustre:4x:2"}) {
        try {
            parse_gres_request(bad);
            FAIL((std::string("accepted ") + bad).c_str());
        } catch (const std::invalid_argument& e) {
            CHECK_TEXT(std::string(e.what()).find("gres \"") == 0, e.what());
        }
    }
    for (const char* bad : {"gpu:4(S:0", "gpu:4)S:0(", "gpu:4(S:0)x"}) {
        try {
            parse_node_gres(bad);
            FAIL((std::string("accepted ") + bad).c_str());
        } catch (const std::invalid_argument& e) {
            CHECK_TEXT(std::string(e.what()).find("gres \"") == 0, e.what());
        }
    }
}

TEST(Gres, ANodeHoldsARequestWhenItHasEnoughOfEachNameAndType)
{
    const auto node = parse_node_gres("gpu:a100:2,gpu:v100:2,mps:100");
    CHECK(gres_fits(parse_gres_request("gres:gpu:4"), node));       // any type: 2 + 2
    CHECK_FALSE(gres_fits(parse_gres_request("gres:gpu:5"), node));
    CHECK(gres_fits(parse_gres_request("gres:gpu:a100:2"), node));
    CHECK_FALSE(gres_fits(parse_gres_request("gres:gpu:a100:3"), node));
    CHECK_FALSE(gres_fits(parse_gres_request("gres:gpu:h100:1"), node));
    CHECK(gres_fits(parse_gres_request("gres:gpu:1,gres:mps:100"), node));
    CHECK_FALSE(gres_fits(parse_gres_request("gres:fpga:1"), node));
    CHECK(gres_fits({}, {}));
    CHECK_FALSE(gres_fits(parse_gres_request("gres:gpu:1"), {}));
}

TEST(Gres, TwoNodesHaveInCommonTheSmallerCountOfWhatBothHave)
{
    const auto a = parse_node_gres("gpu:a100:4,mps:100,gpu:2");
    const auto b = parse_node_gres("gpu:a100:2,gpu:1,fpga:1");
    CHECK((std::vector<GresCount>{{"gpu", "a100", 2}, {"gpu", "", 1}}) == common_gres(a, b));
    CHECK(common_gres(a, {}).empty());
    // One entry per socket binding: counts add up on each side first.
    const auto per_socket = parse_node_gres("gpu:a100:2(S:0),gpu:a100:2(S:1)");
    const auto one = parse_node_gres("gpu:a100:1");
    CHECK((std::vector<GresCount>{{"gpu", "a100", 1}}) == common_gres(per_socket, one));
    CHECK((std::vector<GresCount>{{"gpu", "a100", 1}}) == common_gres(one, per_socket));
    CHECK((std::vector<GresCount>{{"gpu", "a100", 4}}) == common_gres(per_socket, per_socket));
}
