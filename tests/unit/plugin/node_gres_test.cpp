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

// Slurm 23.02 and later (measured on 24.11.5): --gres=gpu:a100:1 is
// "gres/gpu:a100:1" per node, --gpus-per-task=1 -c2 is "cpu=2,gres/gpu=1"
// per task, --gpus=2 "gres/gpu:2" per job; burstd gets 22.05's form, and
// the CPUs and licenses per task are no generic resource.
TEST(NodeGres, TheNewerReleasesFormsReadAsTheOldOnes)
{
    Arena a;
    STRCMP_EQUAL("gres:gpu:a100:1", a.of("gres/gpu:a100:1", nullptr, nullptr, nullptr).c_str());
    STRCMP_EQUAL("gres:gpu:1", a.of(nullptr, "cpu=2,gres/gpu=1", nullptr, nullptr).c_str());
    STRCMP_EQUAL("gres:gpu:gtx:1", a.of(nullptr, "cpu=10,gres/gpu:gtx=1,license/iop1=1", nullptr, nullptr).c_str());
    STRCMP_EQUAL("gres:gpu:1", a.of(nullptr, nullptr, nullptr, "gres/gpu:2").c_str());
    STRCMP_EQUAL("gres:gpu:a100:2,gres:gpu:1", a.of("gres/gpu:a100:2", "cpu=4", nullptr, "gres/gpu:8").c_str());
    STRCMP_EQUAL("(null)", a.of(nullptr, "cpu=2", nullptr, nullptr).c_str());
    STRCMP_EQUAL("(null)", a.of(nullptr, "cpu=2,license/iop1=1", nullptr, "").c_str());
    LONGS_EQUAL(0, a.oom);
}

// A name without the prefix is a gres, as 22.05 could write it; one with
// '=' is another TRES.
TEST(NodeGres, EntriesWithoutThePrefix)
{
    Arena a;
    STRCMP_EQUAL("gpu:2", a.of("gpu:2", nullptr, nullptr, nullptr).c_str());
    STRCMP_EQUAL("gpu", a.of("gpu", nullptr, nullptr, nullptr).c_str());
    STRCMP_EQUAL("gpu:1", a.of(nullptr, nullptr, nullptr, "gpu:4").c_str());
    STRCMP_EQUAL("(null)", a.of("mem=4G", nullptr, nullptr, nullptr).c_str());
    LONGS_EQUAL(0, a.oom);
}
