#pragma once
// Runs burstsim's main in-process, as the burstsim tool does, and keeps
// files for one test.  Include after the std headers and before CppUTest's.

#include "app/budget_conf.hpp"
#include "sim/burstsim_cli.hpp"

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
    int status = burstsim_main(args, out, err, read_budget_conf);
    return Run{status, out.str(), err.str()};
}

} // namespace burst::test
