#pragma once
// The table burstsim --forecast-eval prints: per node group, each
// forecaster's MSE, PMSE and over-provisioning per tick on the whole nodes
// it would hold, MSE and PMSE on its forecasts as made (raw), and ratios to
// the baselines' (burstsim(1), FORECASTERS, names every column).

#include "sim/report/forecast_evaluation.hpp"

#include <ostream>
#include <vector>

namespace burst {

void print_forecast_table(std::ostream& out, const std::vector<GroupForecastScores>& groups);

} // namespace burst
