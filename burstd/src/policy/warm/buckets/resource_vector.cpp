#include "policy/warm/buckets/resource_vector.hpp"

#include "common/config_values.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace burst {
namespace {

constexpr std::array<Resource, kResourceCount> kResources{Resource::Gpus, Resource::Memory, Resource::Cpus};

std::vector<std::string> resource_names()
{
    std::vector<std::string> names;
    for (Resource r : kResources)
        names.emplace_back(resource_name(r));
    return names;
}

} // namespace

const char* resource_name(Resource resource)
{
    switch (resource) {
    case Resource::Gpus:
        return "gpus";
    case Resource::Memory:
        return "memory";
    case Resource::Cpus:
        return "cpus";
    }
    return "?";
}

ResourceOrder ResourceOrder::parse(const std::string& text)
{
    const std::string where = "resource order '" + text + "': ";
    const std::optional<std::vector<std::string>> words = parse_list(text);
    if (!words)
        throw ResourceOrderError(where + "expected " + joined(resource_names()) + " separated by commas");
    ResourceOrder order;
    std::size_t given = 0;
    for (const auto& word : *words) {
        const auto known = std::find_if(kResources.begin(), kResources.end(),
                                        [&](Resource r) { return word == resource_name(r); });
        if (known == kResources.end()) {
            const std::string hint = closest_match(word, resource_names());
            throw ResourceOrderError(where + "unknown resource '" + word + "'" +
                                     (hint.empty() ? "" : " (did you mean " + hint + "?)") + " (known: " +
                                     joined(resource_names()) + ")");
        }
        const auto taken = order.order_.begin() + long(given);
        if (std::find(order.order_.begin(), taken, *known) != taken)
            throw ResourceOrderError(where + word + " given twice");
        // A fourth word is unknown or a repeat: three are all there are.
        order.order_[given++] = *known;
    }
    if (given != order.order_.size()) {
        std::string missing;
        for (Resource r : kResources)
            if (std::find(order.order_.begin(), order.order_.begin() + long(given), r) ==
                order.order_.begin() + long(given))
                missing += (missing.empty() ? "" : ", ") + std::string(resource_name(r));
        throw ResourceOrderError(where + "missing " + missing + " (name each of " + joined(resource_names()) +
                                 " once)");
    }
    return order;
}

ResourceVector ResourceOrder::vector(const ResourceAmounts& amounts) const
{
    ResourceVector v{};
    for (std::size_t i = 0; i < order_.size(); ++i)
        switch (order_[i]) {
        case Resource::Gpus:
            v[i] = amounts.gpus;
            break;
        case Resource::Memory:
            v[i] = amounts.memory_mb;
            break;
        case Resource::Cpus:
            v[i] = amounts.cpus;
            break;
        }
    return v;
}

std::size_t ResourceOrder::position(Resource resource) const
{
    return std::size_t(std::find(order_.begin(), order_.end(), resource) - order_.begin());
}

std::string ResourceOrder::text() const
{
    std::string text;
    for (Resource r : order_)
        text += (text.empty() ? "" : ",") + std::string(resource_name(r));
    return text;
}

} // namespace burst
