#include "app/logger.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace burst {

Logger::Logger(std::ostream& out, LogLevel level, bool timestamps)
    : out_(out), level_(level), timestamps_(timestamps)
{
}

void Logger::set_level(LogLevel level)
{
    std::lock_guard<std::mutex> lock(mutex_);
    level_ = level;
}

LogLevel Logger::level() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return level_;
}

bool Logger::enabled(LogLevel level) const { return level <= this->level(); }

void Logger::write(LogLevel level, const std::string& message)
{
    std::lock_guard<std::mutex> lock(mutex_);
    if (level > level_)
        return;
    std::string line;
    if (timestamps_) {
        using namespace std::chrono;
        auto now = system_clock::now();
        std::time_t t = system_clock::to_time_t(now);
        auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
        std::tm tm{};
        localtime_r(&t, &tm);
        char stamp[40];
        std::strftime(stamp, sizeof stamp, "[%Y-%m-%dT%H:%M:%S", &tm);
        char frac[8];
        std::snprintf(frac, sizeof frac, ".%03d] ", int(ms));
        line = std::string(stamp) + frac;
    }
    if (level != LogLevel::Info)
        line += std::string(to_string(level)) + ": ";
    // A message must stay one line: an embedded newline would forge a second event.
    for (char c : message)
        line += (c == '\n' || c == '\r') ? ' ' : c;
    line += '\n';
    out_ << line << std::flush;
}

} // namespace burst
