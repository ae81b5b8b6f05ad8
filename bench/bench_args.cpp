#include "bench_args.hpp"

#include <algorithm>
#include <cstdlib>

namespace burst::bench {
namespace {

const std::vector<std::string> kSections = {"parse", "decide", "sim", "learn", "threads", "split", "bound", "buckets"};

// "1000,10000": positive counts in increasing order.
bool parse_sizes(const std::string& text, std::vector<std::size_t>& out)
{
    out.clear();
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        const std::string part = text.substr(at, comma - at);
        char* end = nullptr;
        const unsigned long long n = std::strtoull(part.c_str(), &end, 10);
        if (part.empty() || part[0] == '-' || *end != '\0' || n == 0 || n > 100000000 ||
            (!out.empty() && n <= out.back()))
            return false;
        out.push_back(std::size_t(n));
        at = comma + 1;
    }
    return !out.empty();
}

// "always,pfa(deps)": non-empty names.
bool parse_names(const std::string& text, std::vector<std::string>& out)
{
    out.clear();
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        if (comma == at)
            return false;
        out.push_back(text.substr(at, comma - at));
        at = comma + 1;
    }
    return true;
}

} // namespace

const char* const kUsage =
    "usage: burst_bench [--sizes N,N,...] [--policies P,P,...] [--cold] [TRACE_DIR [SECTION...]]\n"
    "  TRACE_DIR  SWF traces, searched recursively (default the source tree's\n"
    "             tests/data/traces/swf: " BURST_BENCH_TRACE_DIR ")\n"
    "  SECTION    parse, decide, sim, learn, threads, split, bound, buckets (default all)\n"
    "  --sizes    pending jobs of the decide and buckets sections' sites (default 1000,10000,100000,1000000)\n"
    "  --policies the decide section's rows (policy names, or pfa(deps); default all),\n"
    "             e.g. to run one under valgrind\n"
    "  --cold     write 256 MB before every timed decision, so that no size's jobs\n"
    "             are still in the caches from the call before\n"
    "  --help     this text\n";

bool BenchArgs::wants(const std::string& section) const
{
    return sections.empty() || std::find(sections.begin(), sections.end(), section) != sections.end();
}

std::string BenchArgs::unknown_policy(const std::vector<std::string>& known) const
{
    for (const auto& p : policies)
        if (std::find(known.begin(), known.end(), p) == known.end())
            return p;
    return "";
}

BenchArgs parse_bench_args(const std::vector<std::string>& args)
{
    BenchArgs b;
    std::vector<std::string> positional;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            b.help = true;
            return b;
        }
        if (a == "--sizes") {
            if (i + 1 == args.size() || !parse_sizes(args[i + 1], b.sizes)) {
                b.error = "--sizes needs increasing positive counts, e.g. 1000,10000";
                return b;
            }
            ++i;
        } else if (a == "--cold") {
            b.cold = true;
        } else if (a == "--policies") {
            if (i + 1 == args.size() || !parse_names(args[i + 1], b.policies)) {
                b.error = "--policies needs names separated by commas, e.g. always,pfa";
                return b;
            }
            ++i;
        } else if (a.size() > 1 && a[0] == '-') {
            b.error = "unknown option '" + a + "'";
            return b;
        } else {
            positional.push_back(a);
        }
    }
    if (!positional.empty()) {
        b.trace_dir = positional.front();
        b.sections.assign(positional.begin() + 1, positional.end());
    }
    for (const auto& s : b.sections)
        if (std::find(kSections.begin(), kSections.end(), s) == kSections.end()) {
            b.error = "unknown section '" + s + "' (known: parse, decide, sim, learn, threads, split, bound)";
            return b;
        }
    return b;
}

} // namespace burst::bench
