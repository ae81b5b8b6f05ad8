#include "sim/report/svg_plot.hpp"

#include "common/plain_number.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace burst {
namespace {

constexpr double kWidth = 960, kPanelHeight = 270, kTop = 44;
constexpr double kLeft = 72, kRight = 64, kPanelTop = 34, kPanelBottom = 44;

struct Series {
    const char* css;
    const char* label;
    const char* colour;
    const char* dash;
    bool right_axis;
    double (*value)(const TimelineSample&);
};

const Series kSeries[] = {
    {"demand", "demand (cores)", "#1f77b4", "", false, [](const TimelineSample& s) { return double(s.demand); }},
    {"supply", "supply (cores)", "#2ca02c", "", false, [](const TimelineSample& s) { return double(s.supply); }},
    {"cloud-nodes", "cloud nodes (right axis)", "#ff7f0e", "6 3", true,
     [](const TimelineSample& s) { return double(s.cloud_nodes); }},
};

std::string escape(const std::string& text)
{
    std::string out;
    for (char c : text)
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default:
            // Control characters are not allowed in XML 1.0.
            if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n')
                out += c;
        }
    return out;
}

std::string num(double v)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << v;
    return s.str();
}

// 1, 2 or 5 × 10^k: the tick step that gives about `ticks` ticks over `span`.
double nice_step(double span, int ticks)
{
    const double raw = std::max(span, 1e-9) / ticks;
    const double mag = std::pow(10, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (raw <= m * mag)
            return m * mag;
    return 10 * mag;
}

struct TimeUnit {
    double seconds;
    const char* name;
};

TimeUnit unit_for(double span)
{
    if (span > 3 * 86400)
        return {86400, "days"};
    if (span > 3 * 3600)
        return {3600, "hours"};
    if (span > 3 * 60)
        return {60, "minutes"};
    return {1, "seconds"};
}

// Points of a step line, reduced to each pixel column's first, lowest,
// highest and last value.
std::string step_points(const std::vector<TimelineSample>& samples, double (*value)(const TimelineSample&),
                        Time origin, double t_span, double x0, double width, double y0, double height, double y_max)
{
    std::ostringstream out;
    auto x_of = [&](Time t) { return x0 + (t - origin) / t_span * width; };
    auto y_of = [&](double v) { return y0 + height - v / y_max * height; };
    long column = -1;
    double first = 0, low = 0, high = 0, last = 0, prev = 0;
    auto flush = [&] {
        if (column < 0)
            return;
        const std::string x = num(x0 + double(column) + 0.5);
        out << x << ',' << num(y_of(prev)) << ' ' << x << ',' << num(y_of(first)) << ' ';
        if (low != high)
            out << x << ',' << num(y_of(low)) << ' ' << x << ',' << num(y_of(high)) << ' ';
        out << x << ',' << num(y_of(last)) << ' ';
        prev = last;
    };
    for (const auto& s : samples) {
        const double v = value(s);
        const long col = std::clamp(long(std::floor(x_of(s.time) - x0)), 0L, long(width) - 1);
        if (col != column) {
            flush();
            if (column < 0)
                prev = v;
            column = col;
            first = low = high = v;
        }
        low = std::min(low, v);
        high = std::max(high, v);
        last = v;
    }
    flush();
    return out.str();
}

} // namespace

std::string render_plot_svg(const std::string& title, Time origin, const std::vector<PlotPanel>& panels)
{
    Time end = origin + 1;
    for (const auto& p : panels)
        if (!p.samples.empty())
            end = std::max(end, p.samples.back().time);
    const double t_span = end - origin;
    const TimeUnit unit = unit_for(t_span);
    const double height = kTop + kPanelHeight * double(std::max<std::size_t>(panels.size(), 1)) + 8;
    const double plot_w = kWidth - kLeft - kRight, plot_h = kPanelHeight - kPanelTop - kPanelBottom;
    // Panels share their axes so that policies compare at a glance.
    double cores = 1, nodes = 1;
    for (const auto& p : panels)
        for (const auto& s : p.samples) {
            cores = std::max({cores, double(s.demand), double(s.supply)});
            nodes = std::max(nodes, double(s.cloud_nodes));
        }

    std::ostringstream svg;
    svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(kWidth) << "\" height=\"" << num(height)
        << "\" viewBox=\"0 0 " << num(kWidth) << ' ' << num(height)
        << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
        << "<title>" << escape(title) << "</title>\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        << "<text x=\"" << num(kWidth / 2) << "\" y=\"26\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">"
        << escape(title) << "</text>\n";

    for (std::size_t p = 0; p < panels.size(); ++p) {
        const PlotPanel& panel = panels[p];
        const double top = kTop + kPanelHeight * double(p);
        const double y0 = top + kPanelTop, x0 = kLeft;
        const double core_step = nice_step(cores, 5), node_step = std::max(1.0, nice_step(nodes, 5));
        const double core_max = std::ceil(cores * 1.05 / core_step) * core_step;
        const double node_max = std::ceil(nodes * 1.05 / node_step) * node_step;

        svg << "<g class=\"panel\">\n"
            << "<text x=\"" << num(x0) << "\" y=\"" << num(top + 20) << "\" font-size=\"14\" font-weight=\"bold\">"
            << escape(panel.title) << "</text>\n";
        // Grid, ticks and labels.
        for (double v = 0; v <= core_max + core_step / 2; v += core_step) {
            const double y = y0 + plot_h - v / core_max * plot_h;
            svg << "<line x1=\"" << num(x0) << "\" y1=\"" << num(y) << "\" x2=\"" << num(x0 + plot_w) << "\" y2=\""
                << num(y) << "\" stroke=\"#e4e4e4\"/>\n"
                << "<text x=\"" << num(x0 - 6) << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">"
                << plain_number(v) << "</text>\n";
        }
        for (double v = 0; v <= node_max + node_step / 2; v += node_step) {
            const double y = y0 + plot_h - v / node_max * plot_h;
            svg << "<line x1=\"" << num(x0 + plot_w) << "\" y1=\"" << num(y) << "\" x2=\"" << num(x0 + plot_w + 5)
                << "\" y2=\"" << num(y) << "\" stroke=\"#ff7f0e\"/>\n"
                << "<text x=\"" << num(x0 + plot_w + 8) << "\" y=\"" << num(y + 4) << "\" fill=\"#b35900\">"
                << plain_number(v) << "</text>\n";
        }
        const double t_step = nice_step(t_span / unit.seconds, 8);
        for (double v = 0; v * unit.seconds <= t_span + 1e-9; v += t_step) {
            const double x = x0 + v * unit.seconds / t_span * plot_w;
            svg << "<line x1=\"" << num(x) << "\" y1=\"" << num(y0 + plot_h) << "\" x2=\"" << num(x) << "\" y2=\""
                << num(y0 + plot_h + 5) << "\" stroke=\"black\"/>\n"
                << "<text x=\"" << num(x) << "\" y=\"" << num(y0 + plot_h + 18) << "\" text-anchor=\"middle\">"
                << plain_number(v) << "</text>\n";
        }
        svg << "<rect x=\"" << num(x0) << "\" y=\"" << num(y0) << "\" width=\"" << num(plot_w) << "\" height=\""
            << num(plot_h) << "\" fill=\"none\" stroke=\"black\"/>\n"
            << "<text x=\"" << num(x0 + plot_w / 2) << "\" y=\"" << num(y0 + plot_h + 36)
            << "\" text-anchor=\"middle\">time since first submit (" << unit.name << ")</text>\n"
            << "<text transform=\"translate(" << num(18) << ',' << num(y0 + plot_h / 2)
            << ") rotate(-90)\" text-anchor=\"middle\">cores</text>\n"
            << "<text transform=\"translate(" << num(kWidth - 12) << ',' << num(y0 + plot_h / 2)
            << ") rotate(90)\" text-anchor=\"middle\" fill=\"#b35900\">cloud nodes</text>\n";
        // Series, then the legend above the plot's right end.
        for (const Series& s : kSeries) {
            svg << "<polyline class=\"" << s.css << "\" fill=\"none\" stroke=\"" << s.colour
                << "\" stroke-width=\"1.5\"";
            if (*s.dash)
                svg << " stroke-dasharray=\"" << s.dash << '"';
            svg << " points=\""
                << step_points(panel.samples, s.value, origin, t_span, x0, plot_w, y0, plot_h,
                               s.right_axis ? node_max : core_max)
                << "\"><title>" << s.label << "</title></polyline>\n";
        }
        double lx = x0 + plot_w - 3 * 175;
        for (const Series& s : kSeries) {
            svg << "<line x1=\"" << num(lx) << "\" y1=\"" << num(top + 16) << "\" x2=\"" << num(lx + 24)
                << "\" y2=\"" << num(top + 16) << "\" stroke=\"" << s.colour << "\" stroke-width=\"2\"";
            if (*s.dash)
                svg << " stroke-dasharray=\"" << s.dash << '"';
            svg << "/>\n<text class=\"legend\" x=\"" << num(lx + 30) << "\" y=\"" << num(top + 20) << "\">" << s.label
                << "</text>\n";
            lx += 175;
        }
        svg << "</g>\n";
    }
    svg << "</svg>\n";
    return svg.str();
}

} // namespace burst
