#pragma once
// One burstd per state directory.  A second burstd started by mistake would
// unlink the live one's sockets and work on the same ledger and cloud
// account, so burstd locks <StateDir>/burstd.lock (flock, exclusive) before
// it touches a socket or the ledger, and holds it until it exits.  The
// kernel drops the lock with its holder however that dies, so a crash leaves
// nothing stale to clean up; the pid written into the file only names the
// holder to whoever is refused.

#include <stdexcept>
#include <string>

namespace burst {

class StateDirLockError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class StateDirLock {
public:
    static constexpr const char* kFileName = "burstd.lock";

    // Creates `state_dir` if missing, locks state_dir/burstd.lock and writes
    // this process's pid into it.  Throws StateDirLockError naming the file,
    // and the pid recorded in it when another process holds the lock.
    explicit StateDirLock(const std::string& state_dir);
    // Empties the file (a pid left in it would name a process that no
    // longer holds anything) and releases the lock.  The file stays: removing
    // it would let a burstd that opened it just before lock an unlinked inode
    // while a third one locks a new file.
    ~StateDirLock();
    StateDirLock(const StateDirLock&) = delete;
    StateDirLock& operator=(const StateDirLock&) = delete;

    const std::string& path() const { return path_; }

private:
    std::string path_;
    int fd_ = -1;
};

} // namespace burst
