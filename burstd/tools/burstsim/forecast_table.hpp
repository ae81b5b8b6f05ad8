#pragma once
// The table burstsim --forecast-eval prints: per node group, each
// forecaster's MSE and PMSE and their ratios to the baselines'.

#include "sim/report/forecast_evaluation.hpp"

#include <ostream>
#include <vector>

namespace burst {

void print_forecast_table(std::ostream& out, const std::vector<GroupForecastScores>& groups);

} // namespace burst
