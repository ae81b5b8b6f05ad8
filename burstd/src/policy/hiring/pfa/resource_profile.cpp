#include "policy/hiring/pfa/resource_profile.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace burst {
namespace {

double cores(const std::vector<std::uint32_t>& counts, const std::vector<ProfileGroup>& groups)
{
    double c = 0;
    for (std::size_t i = 0; i < counts.size(); ++i)
        c += double(counts[i]) * groups[i].cpus;
    return c;
}

double cost(const std::vector<std::uint32_t>& counts, const std::vector<ProfileGroup>& groups)
{
    double c = 0;
    for (std::size_t i = 0; i < counts.size(); ++i)
        c += double(counts[i]) * groups[i].cost;
    return c;
}

// Whole nodes of a group `money` buys, within its capacity.
std::uint32_t affordable(double money, const ProfileGroup& g, std::uint32_t have)
{
    const std::uint32_t room = g.capacity > have ? g.capacity - have : 0;
    if (g.cost <= 0)
        return room;
    // A tiny epsilon keeps b = k·q from flooring to k − 1.
    const double n = std::floor(money / g.cost + 1e-9);
    return n <= 0 ? 0 : std::uint32_t(std::min<double>(n, room));
}

} // namespace

std::vector<std::uint32_t> budget_profile(double budget, const std::vector<double>& rho,
                                          const std::vector<ProfileGroup>& groups)
{
    std::vector<std::uint32_t> mu(groups.size(), 0);
    double weighted = 0;
    for (std::size_t i = 0; i < groups.size(); ++i)
        weighted += groups[i].cost * rho[i];
    for (std::size_t i = 0; i < groups.size(); ++i) {
        if (groups[i].cost <= 0) {
            mu[i] = rho[i] > 0 ? groups[i].capacity : 0;
            continue;
        }
        const double nu = weighted > 0 ? groups[i].cost * rho[i] / weighted : 0;
        mu[i] = std::min<std::uint32_t>(groups[i].capacity,
                                        std::uint32_t(std::max(0.0, std::floor(budget * nu / groups[i].cost + 1e-9))));
    }
    return mu;
}

std::vector<std::uint32_t> fit_to_demand(std::vector<std::uint32_t> mu, double demand, double budget,
                                         const std::vector<ProfileGroup>& groups)
{
    const double have = cores(mu, groups);
    if (have > demand) {
        // Eq. 18.
        for (std::size_t i = 0; i < mu.size(); ++i)
            mu[i] = std::uint32_t(std::ceil(demand / have * double(mu[i]) - 1e-9));
        return mu;
    }
    if (have == demand || groups.empty())
        return mu;
    // (i) cheapest first.
    std::vector<std::size_t> order(groups.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return groups[a].cost < groups[b].cost; });
    double left = budget - cost(mu, groups);
    double got = have;
    // (ii) every group but the dearest takes what the budget left buys.
    for (std::size_t k = 0; k + 1 < order.size() && got < demand; ++k) {
        const ProfileGroup& g = groups[order[k]];
        std::uint32_t add = affordable(left, g, mu[order[k]]);
        add = std::min<std::uint32_t>(add, std::uint32_t(std::ceil((demand - got) / g.cpus)));
        mu[order[k]] += add;
        left -= add * g.cost;
        got += double(add) * g.cpus;
    }
    // (iii) trade a dearer node for cheaper ones while that adds cores.
    for (std::size_t k = 1; k < order.size() && got < demand; ++k) {
        const std::size_t dear = order[k], cheap = order[k - 1];
        while (got < demand && mu[dear] > 0) {
            const ProfileGroup &d = groups[dear], &c = groups[cheap];
            std::uint32_t add = affordable(left + d.cost, c, mu[cheap]);
            add = std::min<std::uint32_t>(add, std::uint32_t(std::ceil((demand - got + d.cpus) / c.cpus)));
            if (double(add) * c.cpus <= d.cpus)
                break;
            --mu[dear];
            mu[cheap] += add;
            left += d.cost - add * c.cost;
            got += double(add) * c.cpus - d.cpus;
        }
    }
    return mu;
}

} // namespace burst
