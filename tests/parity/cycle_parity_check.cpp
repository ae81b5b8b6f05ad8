// Replays a recorded stream of the plugin's messages through burstd's cycle
// and burstsim's, and says in TAP lines whether they took the same actions.
//   cycle-parity-check RECORDING BURSTD.CONF
#include "cycle_parity.hpp"

#include <iostream>

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::cerr << "usage: cycle-parity-check RECORDING BURSTD.CONF\n";
        return 2;
    }
    const burst::parity::Report r = burst::parity::compare_recording(argv[1], argv[2]);
    if (!r.error.empty()) {
        std::cout << "not ok - the recording replays: " << r.error << "\n";
        return 1;
    }
    std::cout << "ok - " << r.snapshots << " states (whole snapshots and deltas) and " << r.job_ends << " job ends replayed\n";
    const bool acted = !r.burstd.empty();
    std::cout << (acted ? "ok" : "not ok") << " - burstd's cycle took " << r.burstd.size() << " actions\n";
    const std::string diff = burst::parity::first_difference(r);
    std::cout << (diff.empty() ? "ok" : "not ok") << " - burstsim's replay took the same actions, in the same order, "
              << "with the same reasons" << (diff.empty() ? "" : ": " + diff) << "\n";
    for (const auto& a : r.burstd)
        std::cout << "# " << a << "\n";
    return acted && diff.empty() ? 0 : 1;
}
