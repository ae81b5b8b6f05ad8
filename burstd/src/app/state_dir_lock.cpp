#include "app/state_dir_lock.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace burst {

namespace {

std::string errno_text(int err) { return std::strerror(err); }

// The pid the holder wrote, or a phrase saying why there is none: it may
// have locked the file and not yet written it.
std::string recorded_holder(int fd)
{
    char buf[32] = {};
    ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
    std::string_view text(buf, n > 0 ? std::size_t(n) : 0);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.remove_suffix(1);
    bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
    return digits ? "pid " + std::string(text) : "a process that has not written its pid yet";
}

} // namespace

StateDirLock::StateDirLock(const std::string& state_dir) : path_((std::filesystem::path(state_dir) / kFileName).string())
{
    std::error_code ec;
    std::filesystem::create_directories(state_dir, ec);
    if (ec)
        throw StateDirLockError("StateDir " + state_dir + ": cannot create it: " + ec.message());
    // O_CLOEXEC: a slurmd the local provider execs must not inherit the lock
    // and keep it after burstd is gone.
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd_ < 0)
        throw StateDirLockError(path_ + ": cannot open the lock file: " + errno_text(errno));
    int rc;
    while ((rc = ::flock(fd_, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
    }
    if (rc != 0) {
        int err = errno;
        std::string holder = err == EWOULDBLOCK ? recorded_holder(fd_) : std::string();
        ::close(fd_);
        fd_ = -1;
        if (err == EWOULDBLOCK)
            throw StateDirLockError("another burstd (" + holder + ") holds " + path_ +
                                    ": one burstd per StateDir; stop that one first");
        throw StateDirLockError(path_ + ": cannot lock: " + errno_text(err));
    }
    std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) != ssize_t(pid.size())) {
        int err = errno;
        ::close(fd_);
        fd_ = -1;
        throw StateDirLockError(path_ + ": cannot record the pid: " + errno_text(err));
    }
}

StateDirLock::~StateDirLock()
{
    if (fd_ < 0)
        return;
    if (::ftruncate(fd_, 0) != 0) {
        // Harmless: the lock, not the pid, decides, and it goes with the fd.
    }
    ::close(fd_);
}

} // namespace burst
