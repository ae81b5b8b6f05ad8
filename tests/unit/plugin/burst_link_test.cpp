#include "../../../plugin/burst_link.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

namespace {
std::vector<std::string> lines;
int too_long_count;

void on_line(void*, const char* line, size_t len, int too_long)
{
    if (too_long)
        too_long_count++;
    else
        lines.emplace_back(line, len);
}

struct Listener {
    std::string path;
    int fd = -1;
    explicit Listener(const std::string& p) : path(p)
    {
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        path.copy(addr.sun_path, sizeof(addr.sun_path) - 1);
        unlink(path.c_str());
        if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) || listen(fd, 4))
            FAIL("cannot listen");
    }
    ~Listener()
    {
        close(fd);
        unlink(path.c_str());
    }
};

std::string read_some(int fd)
{
    char buf[65536];
    ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}
}  // namespace

TEST_GROUP(BurstLink)
{
    burst_link link;
    std::string path;
    void setup() override
    {
        lines.clear();
        too_long_count = 0;
        path = "/tmp/burst_link_test." + std::to_string(getpid());
        burst_link_init(&link, path.c_str());
    }
    void teardown() override { burst_link_close(&link); }
};

TEST(BurstLink, NoListenerMeansFailureAndBackoff)
{
    LONGS_EQUAL(BURST_LINK_CONNECT_FAILED, burst_link_tick(&link, 100));
    CHECK(!burst_link_connected(&link));
    LONGS_EQUAL(BURST_LINK_IDLE, burst_link_tick(&link, 100));
    LONGS_EQUAL(BURST_LINK_CONNECT_FAILED, burst_link_tick(&link, 101));
    LONGS_EQUAL(BURST_LINK_IDLE, burst_link_tick(&link, 102));
    LONGS_EQUAL(-1, burst_link_queue(&link, "x\n", 2, 0));
    LONGS_EQUAL(1, link.dropped);
}

TEST(BurstLink, SendsQueuedMessagesAndDropsSnapshotsWhileBusy)
{
    Listener l(path);
    LONGS_EQUAL(BURST_LINK_CONNECTED, burst_link_tick(&link, 1));
    int peer = accept(l.fd, nullptr, nullptr);
    LONGS_EQUAL(0, burst_link_queue(&link, "hello\n", 6, 0));
    LONGS_EQUAL(-1, burst_link_queue(&link, "snap1\n", 6, 1));
    LONGS_EQUAL(0, burst_link_flush(&link, 1));
    LONGS_EQUAL(0, burst_link_queue(&link, "snap2\n", 6, 1));
    LONGS_EQUAL(0, burst_link_flush(&link, 1));
    STRCMP_EQUAL("hello\nsnap2\n", read_some(peer).c_str());
    LONGS_EQUAL(1, link.dropped);
    LONGS_EQUAL(2, link.sent);
    close(peer);
}

// A snapshot's buffer changes hands instead of being copied; while another
// message waits it is dropped and stays with the caller.
TEST(BurstLink, QueuedBufferIsTakenOverWhenNothingWaits)
{
    Listener l(path);
    burst_link_tick(&link, 1);
    int peer = accept(l.fd, nullptr, nullptr);
    size_t cap = 64;
    char* buf = static_cast<char*>(std::malloc(cap));
    char* const first = buf;
    std::memcpy(buf, "snap1\n", 6);
    LONGS_EQUAL(0, burst_link_queue_buffer(&link, &buf, 6, &cap, 1));
    CHECK(link.out == first);
    CHECK(buf != first);
    LONGS_EQUAL(0, burst_link_flush(&link, 1));
    STRCMP_EQUAL("snap1\n", read_some(peer).c_str());

    // The buffer handed back is the link's own, kept for the next one.
    buf = static_cast<char*>(std::realloc(buf, cap = 64));
    char* const second = buf;
    std::memcpy(buf, "snap2\n", 6);
    LONGS_EQUAL(0, burst_link_queue(&link, "end\n", 4, 0));
    LONGS_EQUAL(-1, burst_link_queue_buffer(&link, &buf, 6, &cap, 1));
    CHECK(buf == second);
    LONGS_EQUAL(0, burst_link_flush(&link, 1));
    LONGS_EQUAL(0, burst_link_queue_buffer(&link, &buf, 6, &cap, 1));
    CHECK(buf == first);
    LONGS_EQUAL(0, burst_link_flush(&link, 1));
    STRCMP_EQUAL("end\nsnap2\n", read_some(peer).c_str());
    LONGS_EQUAL(3, link.sent);
    LONGS_EQUAL(1, link.dropped);
    std::free(buf);
    close(peer);
}

TEST(BurstLink, FullSocketNeverBlocksAndBoundsTheQueue)
{
    Listener l(path);
    burst_link_tick(&link, 1);
    int peer = accept(l.fd, nullptr, nullptr);
    std::string big(8 * 1024 * 1024, 'x');
    big.back() = '\n';
    LONGS_EQUAL(0, burst_link_queue(&link, big.data(), big.size(), 1));
    LONGS_EQUAL(0, burst_link_flush(&link, 1));
    CHECK(burst_link_wants_write(&link));
    LONGS_EQUAL(-1, burst_link_queue(&link, big.data(), big.size(), 1));
    std::string small(BURST_LINK_SMALL_QUEUE_BYTES, 'y');
    LONGS_EQUAL(-1, burst_link_queue(&link, small.data(), small.size(), 0));
    LONGS_EQUAL(2, link.dropped);
    close(peer);
    while (burst_link_connected(&link))
        if (burst_link_flush(&link, 2) < 0 || burst_link_read(&link, 2, on_line, nullptr) < 0)
            break;
    CHECK(!burst_link_connected(&link));
    LONGS_EQUAL(3, link.dropped);  // the half-written snapshot
}

TEST(BurstLink, SplitsReceivedLinesAndSkipsOversizedOnes)
{
    Listener l(path);
    burst_link_tick(&link, 1);
    int peer = accept(l.fd, nullptr, nullptr);
    std::string data = "one\ntw";
    CHECK(send(peer, data.data(), data.size(), 0) > 0);
    LONGS_EQUAL(0, burst_link_read(&link, 1, on_line, nullptr));
    data = "o\n";
    CHECK(send(peer, data.data(), data.size(), 0) > 0);
    LONGS_EQUAL(0, burst_link_read(&link, 1, on_line, nullptr));
    LONGS_EQUAL(2, lines.size());
    STRCMP_EQUAL("two", lines[1].c_str());

    std::string huge(BURST_LINK_MAX_IN_LINE + 10, 'z');
    size_t off = 0;
    while (off < huge.size()) {
        ssize_t n = send(peer, huge.data() + off, huge.size() - off, MSG_DONTWAIT);
        if (n > 0)
            off += static_cast<size_t>(n);
        burst_link_read(&link, 1, on_line, nullptr);
    }
    data = "\nthree\n";
    CHECK(send(peer, data.data(), data.size(), 0) > 0);
    LONGS_EQUAL(0, burst_link_read(&link, 1, on_line, nullptr));
    LONGS_EQUAL(1, too_long_count);
    LONGS_EQUAL(3, lines.size());
    STRCMP_EQUAL("three", lines[2].c_str());

    close(peer);
    LONGS_EQUAL(-1, burst_link_read(&link, 5, on_line, nullptr));
    CHECK(!burst_link_connected(&link));
    LONGS_EQUAL(BURST_LINK_IDLE, burst_link_tick(&link, 5));
    LONGS_EQUAL(BURST_LINK_CONNECTED, burst_link_tick(&link, 6));
    LONGS_EQUAL(2, link.connects);
    LONGS_EQUAL(0, link.seq);
}
