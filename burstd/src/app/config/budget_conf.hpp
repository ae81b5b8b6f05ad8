#pragma once
// burstd.conf's Budget= lines as BudgetCap takes them: for burstd's policy
// cycle, and for burstsim --conf, which reads a site's burstd.conf with
// burstd's own parser so that a line means, and fails, the same in both.

#include "app/config/burstd_config.hpp"
#include "policy/budget/budget_cap.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace burst {

class BudgetConfError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::vector<BudgetLimit> budget_limits(const std::vector<BudgetConfig>& budgets);

// The Budget= lines of the burstd.conf at `path`.  The whole file is checked
// as burstd checks it; throws BudgetConfError listing every problem, one
// "file:line: ..." per line.
std::vector<BudgetLimit> read_budget_conf(const std::string& path);

} // namespace burst
