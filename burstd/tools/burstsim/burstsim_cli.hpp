#pragma once
// burstsim's command line: parse, replay, print.  Kept out of main() so the
// tests can drive it with argument vectors and string streams.

#include "policy/budget/budget_cap.hpp"

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace burst {

// --conf FILE: the Budget= lines of a burstd.conf, read by burstd's own
// parser (read_budget_conf in app/budget_conf.hpp).  The simulator does not
// depend on burstd's application layer, so the caller hands the reader in.
// Throws std::runtime_error naming every problem, one "file:line: ..." a line.
using BudgetConfReader = std::function<std::vector<BudgetLimit>(const std::string& path)>;

// Returns the process exit status: 0 success, 1 the run failed (unreadable
// trace, bad site), 2 bad command line or --conf file.
int burstsim_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                  const BudgetConfReader& read_budget_conf);

} // namespace burst
