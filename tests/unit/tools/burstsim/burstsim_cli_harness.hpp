#pragma once
// Runs burstsim's main in-process, as the burstsim tool does, and keeps
// files for one test.  Include after the std headers and before CppUTest's.

#include "tools/burstsim/burstsim_cli.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <CppUTest/TestHarness.h>

namespace burst::test {

// A file (a trace, shares, a burstd.conf) that exists for one test.
class TempTrace {
public:
    explicit TempTrace(const std::string& text, const std::string& suffix = ".swf")
    {
        std::string name = "/tmp/burstsim-test-XXXXXX" + suffix;
        int fd = mkstemps(name.data(), int(suffix.size()));
        if (fd < 0)
            FAIL("mkstemps");
        close(fd);
        path_ = name;
        std::ofstream(path_) << text;
    }
    ~TempTrace() { std::remove(path_.c_str()); }
    TempTrace(const TempTrace&) = delete;
    TempTrace& operator=(const TempTrace&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

struct Run {
    int status;
    std::string out, err;
};

inline Run invoke(const std::vector<std::string>& args)
{
    std::ostringstream out, err;
    int status = burstsim_main(args, out, err);
    return Run{status, out.str(), err.str()};
}

// The number in the column named `column` of burstsim's table row labelled `row`.
inline double cell(const std::string& table, const std::string& row, const std::string& column)
{
    std::istringstream in(table);
    std::string line;
    std::vector<std::string> header;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string x; words >> x;)
            w.push_back(x);
        if (w.empty())
            continue;
        if (w[0] == "policy") {
            header = w;
            continue;
        }
        if (w[0] != row)
            continue;
        for (std::size_t i = 0; i < header.size() && i < w.size(); ++i)
            if (header[i] == column)
                return std::stod(w[i]);
    }
    FAIL(("no cell " + row + "/" + column).c_str());
    return 0;
}

} // namespace burst::test
