#pragma once
// One line per event, Slurm-style ("error: ...", "verbose: ..."), to stderr.
// Under systemd (JOURNAL_STREAM set) journald stamps the time; otherwise the
// line starts with one, as slurmctld's log does.  Callers never pass secrets.

#include "app/config/log_level.hpp"

#include <mutex>
#include <ostream>
#include <string>

namespace burst {

class Logger {
public:
    // `out` must outlive the logger; tests pass a std::ostringstream.
    Logger(std::ostream& out, LogLevel level, bool timestamps);

    void set_level(LogLevel level);
    LogLevel level() const;
    bool enabled(LogLevel level) const;

    void error(const std::string& message) { write(LogLevel::Error, message); }
    void info(const std::string& message) { write(LogLevel::Info, message); }
    void verbose(const std::string& message) { write(LogLevel::Verbose, message); }
    void debug(const std::string& message) { write(LogLevel::Debug, message); }

private:
    void write(LogLevel level, const std::string& message);

    std::ostream& out_;
    LogLevel level_;
    bool timestamps_;
    mutable std::mutex mutex_; // provider calls on worker threads log too
};

} // namespace burst
