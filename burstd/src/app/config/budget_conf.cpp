#include "app/config/budget_conf.hpp"

#include "app/config/config_parser.hpp"

namespace burst {

std::vector<BudgetLimit> budget_limits(const std::vector<BudgetConfig>& budgets)
{
    std::vector<BudgetLimit> limits;
    limits.reserve(budgets.size());
    for (const auto& b : budgets)
        limits.push_back(BudgetLimit{b.account, b.amount, b.interval});
    return limits;
}

std::vector<BudgetLimit> read_budget_conf(const std::string& path)
{
    ConfigParseResult parsed = load_config(path);
    if (!parsed.ok()) {
        std::string all;
        for (const auto& e : parsed.errors)
            all += (all.empty() ? "" : "\n") + e;
        throw BudgetConfError(all);
    }
    return budget_limits(parsed.config.budgets);
}

} // namespace burst
