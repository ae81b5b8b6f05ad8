#pragma once
// The thread allocators a ThreadPolicy= line may name, and the thread step
// built from one.

#include "common/registry.hpp"
#include "policy/cycle/policy_chain.hpp"
#include "policy/policy_params.hpp"
#include "policy/threads/thread_stage.hpp"

#include <memory>
#include <string>

namespace burst {

struct ThreadAllocatorType {
    std::string_view name;
    std::string_view description;
    std::unique_ptr<ThreadAllocator> (*build)(PolicyParams& params);
    std::vector<ParameterDoc> parameters; // its own, besides the stage's
};

const Registry<ThreadAllocatorType>& thread_allocator_registry();
// The parameters every allocator's stage reads (ThreadStageSettings).
const std::vector<ParameterDoc>& thread_stage_parameters();

// Throws PolicyConfigError for an unknown allocator, a bad value or a
// parameter nobody reads.
std::unique_ptr<ThreadStage> make_thread_stage(const std::string& name, PolicyParams params);

// The thread step of a ThreadPolicy= line; a spec that does not build adds
// its error, prefixed with its origin, to `errors` and gives nullptr.
std::unique_ptr<ThreadStage> make_thread_stage(const PolicySpec& spec, std::vector<std::string>& errors);

// The --list-policies text for ThreadPolicy=.
std::string thread_allocator_listing();

} // namespace burst
