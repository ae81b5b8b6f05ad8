#include "app/state_dir_lock.hpp"

#include "scratch_dir.hpp"

#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

std::string contents(const std::string& path)
{
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// The message a StateDirLock on `dir` is refused with, or "" when it locks.
std::string refusal(const std::string& dir)
{
    try {
        StateDirLock lock(dir);
        return "";
    } catch (const StateDirLockError& e) {
        return e.what();
    }
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_GROUP(StateDirLock){};

TEST(StateDirLock, CreatesTheStateDirAndRecordsItsPid)
{
    test::ScratchDir scratch("burst-lock");
    std::string dir = scratch.file("state/nested");
    StateDirLock lock(dir);
    STRCMP_EQUAL((dir + "/burstd.lock").c_str(), lock.path().c_str());
    STRCMP_EQUAL((std::to_string(getpid()) + "\n").c_str(), contents(lock.path()).c_str());
}

// Locks are per open file: a second lock in the same process is refused just
// as a second burstd's would be.
TEST(StateDirLock, ASecondLockIsRefusedNamingTheHoldersPidAndTheFile)
{
    test::ScratchDir scratch("burst-lock");
    StateDirLock first(scratch.path.string());
    std::string why = refusal(scratch.path.string());
    CHECK_TRUE_TEXT(contains(why, "another burstd (pid " + std::to_string(getpid()) + ") holds " + first.path()),
                    why.c_str());
    // The refused one leaves the holder's pid in place.
    STRCMP_EQUAL((std::to_string(getpid()) + "\n").c_str(), contents(first.path()).c_str());
}

TEST(StateDirLock, IsReleasedAndEmptiedWhenDestroyed)
{
    test::ScratchDir scratch("burst-lock");
    std::optional<StateDirLock> first(std::in_place, scratch.path.string());
    first.reset();
    STRCMP_EQUAL("", contents(scratch.file("burstd.lock")).c_str());
    STRCMP_EQUAL("", refusal(scratch.path.string()).c_str());
}

// What kill -9 does to a burstd: no destructor runs, the kernel drops the lock.
TEST(StateDirLock, DiesWithAKilledHolder)
{
    test::ScratchDir scratch("burst-lock");
    int ready[2];
    CHECK_EQUAL(0, pipe(ready));
    pid_t child = fork();
    if (child == 0) {
        close(ready[0]);
        try {
            StateDirLock lock(scratch.path.string());
            (void)!write(ready[1], "y", 1);
            pause();
        } catch (...) {
        }
        _exit(1);
    }
    close(ready[1]);
    char c = 0;
    CHECK_EQUAL(1, read(ready[0], &c, 1));
    close(ready[0]);
    std::string why = refusal(scratch.path.string());
    CHECK_TRUE_TEXT(contains(why, "(pid " + std::to_string(child) + ")"), why.c_str());
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    CHECK_TRUE(WIFSIGNALED(status));
    StateDirLock next(scratch.path.string());
    STRCMP_EQUAL((std::to_string(getpid()) + "\n").c_str(), contents(next.path()).c_str());
}

TEST(StateDirLock, AStateDirThatIsAFileIsRefusedByName)
{
    test::ScratchDir scratch("burst-lock");
    std::ofstream(scratch.file("notadir")) << "x";
    std::string why = refusal(scratch.file("notadir"));
    CHECK_TRUE_TEXT(contains(why, "StateDir " + scratch.file("notadir") + ": cannot create it"), why.c_str());
}
