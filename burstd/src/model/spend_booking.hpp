#pragma once
// How far a SpendTracker has split one budget interval's spend over the
// accounts, kept in the ledger at every cycle, so that a restarted burstd
// carries on from there.  The spend per group comes back from the ledger's
// instances anyway; who it went to does not: without this, an account whose
// cloud jobs ended before a restart would find its Budget= line unspent.

#include "model/clock.hpp"

#include <map>
#include <string>

namespace burst {

struct SpendBooking {
    Seconds interval = 0;     // the budget interval's length
    Time interval_start = 0;  // the interval it belongs to
    Time booked_until = 0;    // the tracker's last update
    std::map<std::string, double> accounts; // accounts other than "", booked so far
};

} // namespace burst
