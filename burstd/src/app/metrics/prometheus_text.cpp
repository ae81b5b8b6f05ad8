#include "app/metrics/prometheus_text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace burst {

namespace {

bool valid_name(const std::string& name)
{
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':';
    });
}

} // namespace

std::string PrometheusText::escape_label(const std::string& value)
{
    std::string out;
    for (char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

std::string PrometheusText::escape_help(const std::string& help)
{
    std::string out;
    for (char c : help) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

std::string PrometheusText::format_value(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    char buf[64];
    if (value == std::floor(value) && std::fabs(value) < 1e15)
        std::snprintf(buf, sizeof buf, "%.0f", value);
    else
        std::snprintf(buf, sizeof buf, "%.17g", value);
    return buf;
}

void PrometheusText::family(const std::string& name, const std::string& help, Type type)
{
    if (!valid_name(name))
        throw std::invalid_argument("metric name '" + name + "' is not a Prometheus name");
    if (std::find(names_.begin(), names_.end(), name) != names_.end())
        throw std::invalid_argument("metric family '" + name + "' written twice");
    names_.push_back(name);
    current_ = name;
    out_ += "# HELP " + name + " " + escape_help(help) + "\n";
    const char* word = type == Type::Counter     ? " counter\n"
                       : type == Type::Gauge     ? " gauge\n"
                       : type == Type::Histogram ? " histogram\n"
                                                 : " summary\n";
    out_ += "# TYPE " + name + word;
}

void PrometheusText::sample(double value, const Labels& labels, const std::string& suffix)
{
    if (current_.empty())
        throw std::logic_error("metric sample before any family");
    out_ += current_ + suffix;
    if (!labels.empty()) {
        out_ += '{';
        for (std::size_t i = 0; i < labels.size(); ++i) {
            if (!valid_name(labels[i].first) || labels[i].first.find(':') != std::string::npos)
                throw std::invalid_argument("label name '" + labels[i].first + "' is not a Prometheus name");
            out_ += (i ? "," : "") + labels[i].first + "=\"" + escape_label(labels[i].second) + "\"";
        }
        out_ += '}';
    }
    out_ += " " + format_value(value) + "\n";
}

} // namespace burst
