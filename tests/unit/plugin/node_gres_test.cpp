#include "../../../plugin/node_gres.h"

#include <string>

#include <CppUTest/TestHarness.h>

namespace {

struct Arena {
    snapshot s{};
    int oom = 0;
    ~Arena() { snapshot_clear(&s); }
    std::string of(const char* per_node, const char* per_task, const char* per_socket, const char* per_job)
    {
        const char* text = node_gres(&s, per_node, per_task, per_socket, per_job, &oom);
        return text ? text : "(null)";
    }
};

} // namespace

TEST_GROUP(NodeGres){};

// The texts are Slurm 22.05's: sbatch --gres=gpu:2, --gpus-per-node=2 and
// the others each write "gres:gpu:2" into their own field.
TEST(NodeGres, PerNodeTaskAndSocketRequestsAreWhatEachNodeNeeds)
{
    Arena a;
    STRCMP_EQUAL("(null)", a.of(nullptr, nullptr, nullptr, nullptr).c_str());
    STRCMP_EQUAL("(null)", a.of("", nullptr, "", nullptr).c_str());
    STRCMP_EQUAL("gres:gpu:2", a.of("gres:gpu:2", nullptr, nullptr, nullptr).c_str());
    STRCMP_EQUAL("gres:gpu:a100:1", a.of(nullptr, "gres:gpu:a100:1", nullptr, nullptr).c_str());
    STRCMP_EQUAL("gres:mps:100,gres:gpu:1,gres:gpu:2",
                 a.of("gres:mps:100", "gres:gpu:1", "gres:gpu:2", nullptr).c_str());
    LONGS_EQUAL(0, a.oom);
}

// --gpus=8 may be eight nodes of one GPU: each node needs one, of the type asked.
TEST(NodeGres, APerJobRequestNeedsOneOnEachNode)
{
    Arena a;
    STRCMP_EQUAL("gres:gpu:1", a.of(nullptr, nullptr, nullptr, "gres:gpu:8").c_str());
    STRCMP_EQUAL("gres:gpu:a100:1,gres:gpu", a.of(nullptr, nullptr, nullptr, "gres:gpu:a100:16,gres:gpu").c_str());
    STRCMP_EQUAL("gres:bw:lustre:1", a.of(nullptr, nullptr, nullptr, "gres:bw:lustre:4G").c_str());
    STRCMP_EQUAL("gres:mps:50,gres:gpu:1", a.of("gres:mps:50", nullptr, nullptr, "gres:gpu:2").c_str());
    LONGS_EQUAL(0, a.oom);
}
