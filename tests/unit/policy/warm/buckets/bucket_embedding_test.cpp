#include "policy/warm/buckets/bucket_embedding.hpp"
#include "policy/warm/buckets/resource_vector.hpp"

#include <string>
#include <tuple>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

ResourceVector gpu_cpu_memory(double gpus, double cpus, double memory_gb)
{
    return ResourceOrder::parse("gpus,cpus,memory").vector(ResourceAmounts{gpus, memory_gb * 1024, cpus});
}

// Buckets stating every resource.
std::vector<ResourceBucket> stating_all(const std::vector<ResourceVector>& vectors)
{
    std::vector<ResourceBucket> buckets;
    for (const auto& v : vectors)
        buckets.push_back(ResourceBucket{v});
    return buckets;
}

std::vector<ResourceDemand> one_each(const std::vector<ResourceVector>& vectors)
{
    std::vector<ResourceDemand> demands;
    for (const auto& v : vectors)
        demands.push_back(ResourceDemand{v, 1});
    return demands;
}

std::string order_error(const std::string& text)
{
    try {
        ResourceOrder::parse(text);
    } catch (const ResourceOrderError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_GROUP(BucketEmbedding){};

// Gao et al., Tables 1 and 2: jobs (GPU, CPU, memory) (0,1,1GB), (0,1,2GB),
// (1,2,4GB) into buckets (0,1,2GB) and (1,2,4GB).  The two small jobs fill
// the small bucket: 2 CPUs of its 1 and 3 GB of its 2, so CPUs dominate and
// it takes 2 nodes.  (Table 2 prints 1.5, the memory quotient; rounded up,
// as the paper does in practice, both are 2.)  The GPU job equals the large
// bucket, which it fits once.
TEST(BucketEmbedding, ReproducesThePapersWorkedExample)
{
    const std::vector<double> counts = embed_first_fit_increasing(
        one_each({gpu_cpu_memory(1, 2, 4), gpu_cpu_memory(0, 1, 2), gpu_cpu_memory(0, 1, 1)}),
        stating_all({gpu_cpu_memory(0, 1, 2), gpu_cpu_memory(1, 2, 4)}));
    LONGS_EQUAL(2, counts.size());
    DOUBLES_EQUAL(2.0, counts[0], 1e-12);
    DOUBLES_EQUAL(1.0, counts[1], 1e-12);
}

TEST(BucketEmbedding, ComparesResourcesInTheConfiguredOrder)
{
    // A CPU-only job of 16 cores and 1 GB against an 8-core 64 GB node and
    // a GPU node of 4 cores and 16 GB.  With GPUs first it is smaller than
    // the GPU node (it asks for no GPU) and lands there, 4 of them by its
    // CPUs: the algorithm's price for keeping CPU work off GPU nodes only
    // while CPU nodes are large enough.  With CPUs first it is larger than
    // both and goes to the largest bucket, the 8-core node.
    const ResourceAmounts job{0, 1024, 16}, cpu_node{0, 64 * 1024, 8}, gpu_node{1, 16 * 1024, 4};
    for (const auto& [order, cpu_count, gpu_count] :
         {std::tuple<const char*, double, double>{"gpus,cpus,memory", 0, 4}, {"cpus,gpus,memory", 2, 0}}) {
        const ResourceOrder o = ResourceOrder::parse(order);
        const std::vector<double> counts =
            embed_first_fit_increasing({{o.vector(job), 1}}, stating_all({o.vector(cpu_node), o.vector(gpu_node)}));
        DOUBLES_EQUAL(cpu_count, counts[0], 1e-12);
        DOUBLES_EQUAL(gpu_count, counts[1], 1e-12);
    }
}

TEST(BucketEmbedding, FillsTheSmallestBucketAJobFitsFirst)
{
    const ResourceOrder o;
    const std::vector<double> counts = embed_first_fit_increasing(
        {{o.vector({0, 0, 4}), 3}, {o.vector({0, 0, 8}), 1}, {o.vector({0, 0, 20}), 1}},
        stating_all({o.vector({0, 0, 32}), o.vector({0, 0, 8})}));
    // 3 x 4 + 8 cores on 8-core nodes, 20 on 32-core ones.
    DOUBLES_EQUAL(20.0 / 32, counts[0], 1e-12);
    DOUBLES_EQUAL(20.0 / 8, counts[1], 1e-12);
}

TEST(BucketEmbedding, WorkLargerThanEveryBucketCountsInTheLargestByItsDominantResource)
{
    const ResourceOrder o;
    const std::vector<double> counts =
        embed_first_fit_increasing({{o.vector({0, 8192, 40}), 1}}, stating_all({o.vector({0, 4096, 8})}));
    DOUBLES_EQUAL(5, counts[0], 1e-12);
}

TEST(BucketEmbedding, AResourceABucketDoesNotStateDecidesNeitherFitNorCount)
{
    // The small group states no memory, the large one 64 GB.  A 4-core
    // job asking 2 GB fits the small one by its CPUs and fills half a
    // node there; had the unstated memory been compared as 0, the job
    // would be "larger" than the small node and land in the large group.
    const ResourceOrder o;
    ResourceBucket small{o.vector({0, 0, 8})};
    small.stated[o.position(Resource::Memory)] = false;
    const ResourceBucket large{o.vector({0, 64 * 1024, 32})};
    const std::vector<double> counts =
        embed_first_fit_increasing({{o.vector({0, 2048, 4}), 1}, {o.vector({0, 100000, 8}), 1}}, {small, large});
    // The 8-core job asking 100 GB fits the small node too: it states no memory.
    DOUBLES_EQUAL(1.5, counts[0], 1e-12);
    DOUBLES_EQUAL(0, counts[1], 0);
}

TEST(BucketEmbedding, MergesIdenticalShapesAndCountsEveryCopy)
{
    const ResourceOrder o;
    std::vector<ResourceDemand> demands(1000, ResourceDemand{o.vector({0, 0, 2}), 1});
    demands.push_back(ResourceDemand{o.vector({0, 0, 2}), 3});
    const std::vector<double> counts = embed_first_fit_increasing(demands, stating_all({o.vector({0, 0, 8})}));
    DOUBLES_EQUAL(1003 * 2 / 8.0, counts[0], 1e-9);
}

TEST(BucketEmbedding, EqualBucketsLeaveTheWorkToTheFirstGiven)
{
    const ResourceOrder o;
    const std::vector<double> counts =
        embed_first_fit_increasing({{o.vector({0, 0, 16}), 1}}, stating_all({o.vector({0, 0, 8}), o.vector({0, 0, 8})}));
    DOUBLES_EQUAL(2, counts[0], 1e-12);
    DOUBLES_EQUAL(0, counts[1], 1e-12);
}

TEST(BucketEmbedding, NoWorkNoBuckets)
{
    const ResourceOrder o;
    DOUBLES_EQUAL(0, embed_first_fit_increasing({}, stating_all({o.vector({0, 0, 8})}))[0], 0);
    CHECK_TRUE(embed_first_fit_increasing({{o.vector({0, 0, 8}), 1}}, {}).empty());
}

TEST(BucketEmbedding, ResourceOrderReadsEachResourceOnceAndSaysWhatIsWrong)
{
    STRCMP_EQUAL("gpus,memory,cpus", ResourceOrder().text().c_str());
    STRCMP_EQUAL("cpus,gpus,memory", ResourceOrder::parse("cpus,gpus,memory").text().c_str());
    LONGS_EQUAL(2, ResourceOrder::parse("cpus,gpus,memory").position(Resource::Memory));
    STRCMP_EQUAL("resource order 'gpus,cpu,memory': unknown resource 'cpu' (did you mean cpus?) (known: gpus, "
                 "memory, cpus)",
                 order_error("gpus,cpu,memory").c_str());
    STRCMP_EQUAL("resource order 'gpus,gpus,cpus': gpus given twice", order_error("gpus,gpus,cpus").c_str());
    STRCMP_EQUAL("resource order 'cpus': missing gpus, memory (name each of gpus, memory, cpus once)",
                 order_error("cpus").c_str());
    STRCMP_EQUAL("resource order 'gpus,,cpus': expected gpus, memory, cpus separated by commas",
                 order_error("gpus,,cpus").c_str());
}
