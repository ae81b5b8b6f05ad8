#include "policy/threads/thread_allocator_registry.hpp"

#include "policy/threads/best_constant_allocator.hpp"
#include "policy/threads/greedy_allocator.hpp"
#include "policy/threads/long_term_adaptive_allocator.hpp"
#include "policy/threads/long_term_allocator.hpp"

#include <sstream>

namespace burst {
namespace {

template <class A>
std::unique_ptr<ThreadAllocator> build(PolicyParams& params)
{
    return std::make_unique<A>(params);
}

} // namespace

const Registry<ThreadAllocatorType>& thread_allocator_registry()
{
    static const Registry<ThreadAllocatorType> registry(
        "thread policy",
        {
            {BestConstantAllocator::kName,
             "one count per category, the cheapest on free local cores, whatever the tier and load",
             build<BestConstantAllocator>,
             {}},
            {GreedyAllocator::kName,
             "Smowton et al.'s greedy allocation: the cheapest count now, cores beyond the free ones at the dear price",
             build<GreedyAllocator>,
             {{"sharing", "1", "counts the free cores as shared by this many jobs like it"}}},
            {LongTermAllocator::kName,
             "Smowton et al.'s long-term allocation: a plan for a whole dependency chain, picked when its first job "
             "is weighed and followed after",
             build<LongTermAllocator>,
             {{"sharing", "1", "counts the free cores as shared by this many jobs like it"}}},
            {LongTermAdaptiveAllocator::kName,
             "Smowton et al.'s long-term adaptive allocation: greedy up to the ideal plan for the rest of the "
             "chain, which it expects the chain to follow",
             build<LongTermAdaptiveAllocator>,
             {{"sharing", "1", "counts the free cores as shared by this many jobs like it"}}},
        });
    return registry;
}

const std::vector<ParameterDoc>& thread_stage_parameters()
{
    static const std::vector<ParameterDoc> parameters{
        {"lambda", "1", "money per core-hour of work not yet done (reward=time)"},
        {"reward", "time", "time: lose lambda per core-hour a chain takes; throughput: earn reward_scale over its time"},
        {"reward_scale", "3600", "money x seconds per task of a whole chain (reward=throughput)"},
        {"local_price", "0", "money per local core-hour"},
        {"max", "64", "most CPUs per task"},
        {"counts", "1,2,4,8,16,32,64", "the CPUs per task allowed"},
        {"min_gain", "0.05", "a pending job's count changes only if its current one costs 1 + this times more"},
        {"max_changes", "200", "pending jobs changed per cycle at most (each is a job update in slurmctld)"},
        {"explore", "0.1", "share of a not-yet-known category's auto jobs run at explore_threads on idle local cores"},
        {"explore_threads", "4", "the CPUs per task an explored run gets (at most, within counts and node size)"},
    };
    return parameters;
}

std::unique_ptr<ThreadStage> make_thread_stage(const std::string& name, PolicyParams params)
{
    const ThreadAllocatorType* type = thread_allocator_registry().find(name);
    if (!type)
        throw PolicyConfigError(thread_allocator_registry().unknown(name));
    ThreadStageSettings settings = ThreadStageSettings::from(params);
    auto allocator = type->build(params);
    params.reject_unread("policy " + name);
    return std::make_unique<ThreadStage>(std::move(allocator), std::move(settings));
}

std::unique_ptr<ThreadStage> make_thread_stage(const PolicySpec& spec, std::vector<std::string>& errors)
{
    try {
        return make_thread_stage(spec.name,
                                 PolicyParams(std::map<std::string, std::string>(spec.params.begin(), spec.params.end())));
    } catch (const PolicyConfigError& e) {
        errors.push_back(spec.origin + ": ThreadPolicy=" + spec.name + ": " + e.what());
        return nullptr;
    }
}

std::string thread_allocator_listing()
{
    std::ostringstream out;
    out << "Thread policies (burstd.conf ThreadPolicy=NAME key=value ...):\n";
    for (const auto& a : thread_allocator_registry().entries()) {
        out << "  " << a.name << ": " << a.description << "\n";
        for (const auto& param : a.parameters)
            out << "      " << param.key << " (" << param.fallback << "): " << param.description << "\n";
    }
    out << "  every thread policy also reads:\n";
    for (const auto& param : thread_stage_parameters())
        out << "      " << param.key << " (" << param.fallback << "): " << param.description << "\n";
    return out.str();
}

} // namespace burst
