#include "tools/burstsim/burstsim_cli.hpp"
#include "sim/report/svg_plot.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

struct XmlDocFree {
    void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};
using XmlDoc = std::unique_ptr<xmlDoc, XmlDocFree>;

XmlDoc parse(const std::string& svg)
{
    return XmlDoc(xmlReadMemory(svg.data(), int(svg.size()), "plot.svg", nullptr, XML_PARSE_NONET | XML_PARSE_NOERROR |
                                                                                   XML_PARSE_NOWARNING));
}

std::string attr(xmlNode* node, const char* name)
{
    xmlChar* v = xmlGetProp(node, reinterpret_cast<const xmlChar*>(name));
    std::string out = v ? reinterpret_cast<const char*>(v) : "";
    xmlFree(v);
    return out;
}

std::string text_of(xmlNode* node)
{
    xmlChar* v = xmlNodeGetContent(node);
    std::string out = v ? reinterpret_cast<const char*>(v) : "";
    xmlFree(v);
    return out;
}

// Every element below `node`, depth first.
void walk(xmlNode* node, std::vector<xmlNode*>& out)
{
    for (xmlNode* n = node; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE) {
            out.push_back(n);
            walk(n->children, out);
        }
}

std::vector<std::pair<double, double>> points(const std::string& list)
{
    std::vector<std::pair<double, double>> out;
    std::istringstream in(list);
    std::string pair;
    while (in >> pair) {
        const auto comma = pair.find(',');
        out.emplace_back(std::stod(pair.substr(0, comma)), std::stod(pair.substr(comma + 1)));
    }
    return out;
}

std::vector<TimelineSample> ramp(std::size_t n)
{
    std::vector<TimelineSample> s;
    for (std::size_t i = 0; i < n; ++i)
        s.push_back(TimelineSample{100.0 + double(i) * 60, 10 + i % 50, 64 + (i % 50 > 20 ? 32u : 0u),
                                   std::uint32_t(i % 50 > 20 ? 4 : 0)});
    return s;
}

} // namespace

TEST_GROUP(SvgPlot){};

TEST(SvgPlot, IsWellFormedWithAPanelPerPolicyAndTheThreeSeries)
{
    const std::string svg =
        render_plot_svg("KTH & co <trace>: demand", 100, {PlotPanel{"never", ramp(300)}, PlotPanel{"always", ramp(10)}});
    XmlDoc doc = parse(svg);
    CHECK(doc != nullptr);
    xmlNode* root = xmlDocGetRootElement(doc.get());
    STRCMP_EQUAL("svg", reinterpret_cast<const char*>(root->name));
    std::vector<xmlNode*> all;
    walk(root, all);
    std::map<std::string, int> series;
    std::vector<std::string> texts;
    int panels = 0;
    for (xmlNode* n : all) {
        const std::string name = reinterpret_cast<const char*>(n->name);
        if (name == "polyline") {
            ++series[attr(n, "class")];
            const auto pts = points(attr(n, "points"));
            CHECK(pts.size() >= 2);
            for (const auto& [x, y] : pts) {
                CHECK(x >= 0 && x <= 960);
                CHECK(y >= 0);
            }
        } else if (name == "text")
            texts.push_back(text_of(n));
        else if (name == "g" && attr(n, "class") == "panel")
            ++panels;
    }
    LONGS_EQUAL(2, panels);
    LONGS_EQUAL(2, series["demand"]);
    LONGS_EQUAL(2, series["supply"]);
    LONGS_EQUAL(2, series["cloud-nodes"]);
    auto has = [&](const std::string& t) {
        for (const auto& x : texts)
            if (x == t)
                return true;
        return false;
    };
    CHECK(has("KTH & co <trace>: demand")); // escaped in the file, intact once parsed
    CHECK(has("never"));
    CHECK(has("always"));
    CHECK(has("demand (cores)"));
    CHECK(has("supply (cores)"));
    CHECK(has("cloud nodes (right axis)"));
    CHECK(has("time since first submit (hours)")); // 300 samples a minute apart
}

TEST(SvgPlot, ALongRunIsReducedToPixelColumnsKeepingPeaks)
{
    std::vector<TimelineSample> s = ramp(100000);
    s[50000].demand = 5000; // one spike
    const std::string svg = render_plot_svg("t", 100, {PlotPanel{"p", s}});
    CHECK(svg.size() < 400000);
    XmlDoc doc = parse(svg);
    std::vector<xmlNode*> all;
    walk(xmlDocGetRootElement(doc.get()), all);
    double top_of_demand = 1e9, plot_top = 0;
    for (xmlNode* n : all) {
        const std::string name = reinterpret_cast<const char*>(n->name);
        if (name == "polyline" && attr(n, "class") == "demand")
            for (const auto& p : points(attr(n, "points")))
                top_of_demand = std::min(top_of_demand, p.second);
        if (name == "rect" && attr(n, "fill") == "none")
            plot_top = std::stod(attr(n, "y"));
    }
    // One sample in 100000 sets the axis and is drawn: it reaches the top
    // fifth of the plot, where the other samples (at most 59 cores) never go.
    CHECK(top_of_demand < plot_top + 0.2 * 192);
}

TEST(SvgPlot, BurstsimWritesThePlotForEveryComparedPolicy)
{
    char name[] = "/tmp/burstsim-plot-XXXXXX.svg";
    int fd = mkstemps(name, 4);
    CHECK(fd >= 0);
    close(fd);
    std::ostringstream out, err;
    const int status = burstsim_main({"--workload", "blast:tasks=20:5,align=100:100", "--local-cores", "9",
                                      "--group", "gke,cpus=3,price=0.19,boot=157,max=5", "--compare",
                                      "never,boot-window", "--plot", name},
                                     out, err);
    std::ifstream in(name);
    std::stringstream svg;
    svg << in.rdbuf();
    std::remove(name);
    LONGS_EQUAL(0, status);
    XmlDoc doc = parse(svg.str());
    CHECK(doc != nullptr);
    CHECK(svg.str().find(">blast:tasks=20:5,align=100:100: demand, supply and cloud nodes<") != std::string::npos);
    CHECK(svg.str().find(">boot-window<") != std::string::npos);
    CHECK(svg.str().find(">never<") != std::string::npos);
}
