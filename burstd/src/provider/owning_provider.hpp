#pragma once
// A provider together with what it holds by reference (its HTTP transport,
// credential chain, API client): the parts are destroyed after the provider.

#include "provider/provider.hpp"

#include <memory>
#include <utility>
#include <vector>

namespace burst {

class OwningProvider final : public Provider {
public:
    OwningProvider(std::vector<std::shared_ptr<void>> parts, std::unique_ptr<Provider> inner)
        : parts_(std::move(parts)), inner_(std::move(inner))
    {
    }
    std::string_view name() const override { return inner_->name(); }
    std::vector<std::string> zones() const override { return inner_->zones(); }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>& requests) override
    {
        return inner_->launch(requests);
    }
    std::size_t launch_batch_limit() const override { return inner_->launch_batch_limit(); }
    ListResult list(const InstanceTags& owner) override { return inner_->list(owner); }
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>& provider_ids) override
    {
        return inner_->terminate(provider_ids);
    }

private:
    std::vector<std::shared_ptr<void>> parts_;
    std::unique_ptr<Provider> inner_; // declared last: destroyed first
};

} // namespace burst
