#include "ingest/unix_listener.hpp"

#include <boost/asio/io_context.hpp>

#include <fstream>
#include <string>

#include "scratch_dir.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(UnixListener)
{
    test::ScratchDir scratch{"unix-listener-test"};
    boost::asio::io_context io;

    std::string error_of(const std::string& path)
    {
        try {
            listen_unix(io, path);
        } catch (const std::runtime_error& e) {
            return e.what();
        }
        return "";
    }
};

TEST(UnixListener, ReplacesTheSocketOfADaemonThatIsGone)
{
    const std::string path = scratch.file("gone.sock");
    {
        auto first = listen_unix(io, path);
    } // closed, its file left behind as by a crash
    auto second = listen_unix(io, path);
    CHECK(second.is_open());
}

TEST(UnixListener, NeverTakesTheSocketOfADaemonStillListening)
{
    const std::string path = scratch.file("live.sock");
    auto live = listen_unix(io, path);
    STRCMP_EQUAL((path + ": another process is listening on it; refusing to replace it").c_str(),
                 error_of(path).c_str());
    CHECK(live.is_open());
}

TEST(UnixListener, NeverReplacesAFileThatIsNotASocket)
{
    const std::string path = scratch.file("data");
    std::ofstream(path) << "keep me";
    STRCMP_EQUAL((path + ": exists and is not a socket; refusing to replace it").c_str(), error_of(path).c_str());
}
