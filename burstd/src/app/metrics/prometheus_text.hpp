#pragma once
// Prometheus text exposition format 0.0.4: families with HELP and TYPE,
// samples with escaped label values.  Each family's samples must follow its
// header; family() refuses a name twice so a scrape never holds duplicates.

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace burst {

class PrometheusText {
public:
    using Labels = std::vector<std::pair<std::string, std::string>>;
    enum class Type { Counter, Gauge, Summary, Histogram };

    // Throws std::invalid_argument for a name that is not [a-zA-Z_:][a-zA-Z0-9_:]*
    // or that was already used.
    void family(const std::string& name, const std::string& help, Type type);
    // A sample of the last family (`suffix` for e.g. "_sum").  Throws
    // std::logic_error when no family was started.
    void sample(double value, const Labels& labels = {}, const std::string& suffix = "");
    const std::string& text() const { return out_; }

    static std::string escape_label(const std::string& value);
    static std::string escape_help(const std::string& help);
    static std::string format_value(double value);

private:
    std::string out_;
    std::string current_;
    std::vector<std::string> names_;
};

} // namespace burst
