#pragma once
// A private directory under $TMPDIR, removed with everything in it when the
// test ends, so that files other code creates beside ours (SQLite's -wal and
// -shm, a provider's state) never outlive the test.

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace burst::test {

struct ScratchDir {
    std::filesystem::path path;

    explicit ScratchDir(const std::string& prefix)
    {
        std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
        if (!mkdtemp(tmpl.data()))
            throw std::runtime_error("mkdtemp " + tmpl + " failed");
        path = tmpl;
    }
    ~ScratchDir() { std::filesystem::remove_all(path); }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    std::string file(const std::string& name) const { return (path / name).string(); }
};

} // namespace burst::test
