#pragma once
// `burstsim --plot out.svg`: demand (cores of eligible, unfinished jobs),
// supply (local + powered-on cloud cores) and powered-on cloud nodes over
// time, one panel per policy run, drawn as plain SVG so no plotting tool is
// needed.  Long runs are reduced to each pixel column's lowest and highest
// value, so peaks survive.

#include "sim/engine/simulator.hpp"

#include <string>
#include <vector>

namespace burst {

struct PlotPanel {
    std::string title; // the policy (and its λ)
    std::vector<TimelineSample> samples;
};

// `title` names the trace; times are shown relative to `origin` (s).
std::string render_plot_svg(const std::string& title, Time origin, const std::vector<PlotPanel>& panels);

} // namespace burst
