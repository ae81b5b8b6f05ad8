#include "tools/burstsim/forecast_table.hpp"

#include <iomanip>
#include <sstream>
#include <string>

namespace burst {
namespace {

std::string fixed(double v, int digits)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

std::string ratio(double v, double baseline) { return baseline > 0 ? fixed(v / baseline, 3) : "-"; }

} // namespace

void print_forecast_table(std::ostream& out, const std::vector<GroupForecastScores>& groups)
{
    out << std::left << std::setw(12) << "group" << std::setw(36) << "forecaster" << std::right << std::setw(8)
        << "ticks" << std::setw(8) << "mean" << std::setw(6) << "max" << std::setw(8) << "lead_s" << std::setw(11)
        << "MSE" << std::setw(11) << "PMSE" << std::setw(11) << "PSE/tick" << std::setw(11) << "raw_MSE"
        << std::setw(11) << "raw_PMSE" << std::setw(10) << "MSE/last" << std::setw(9) << "PSE/max" << std::setw(7)
        << "over" << std::setw(7) << "under" << "\n";
    for (const auto& g : groups) {
        // evaluate_forecasters puts the two baselines first.
        const ForecastError& static_max = g.scores.at(0).held;
        const ForecastError& last = g.scores.at(1).held;
        for (const auto& s : g.scores)
            out << std::left << std::setw(12) << g.group << std::setw(36) << s.forecaster << std::right
                << std::setw(8) << g.ticks << std::setw(8) << fixed(g.mean_count, 2) << std::setw(6)
                << fixed(g.max_count, 0) << std::setw(8) << fixed(g.mean_lead, 0) << std::setw(11)
                << fixed(s.held.mse(), 4) << std::setw(11) << fixed(s.held.pmse(), 4) << std::setw(11)
                << fixed(s.held.over_squares_per_tick(), 4) << std::setw(11) << fixed(s.raw.mse(), 4)
                << std::setw(11) << fixed(s.raw.pmse(), 4) << std::setw(10) << ratio(s.held.mse(), last.mse())
                << std::setw(9) << ratio(s.held.over_squares_per_tick(), static_max.over_squares_per_tick())
                << std::setw(7) << fixed(s.held.over_share(), 3) << std::setw(7) << fixed(s.held.under_share(), 3)
                << "\n";
    }
}

} // namespace burst
