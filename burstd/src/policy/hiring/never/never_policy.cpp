#include "policy/hiring/never/never_policy.hpp"

namespace burst {

Decision NeverPolicy::decide(const ClusterState&, const Clock& clock)
{
    Decision d;
    d.time = clock.now();
    return d;
}

} // namespace burst
