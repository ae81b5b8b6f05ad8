#include "provider/http/curl_transport.hpp"

#include <boost/asio/io_context.hpp>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// A one-connection HTTP server on 127.0.0.1: reads one request (headers and
// Content-Length body), answers with the given raw response and records the
// request's text.
class LoopbackServer {
public:
    explicit LoopbackServer(std::string response, int delay_ms = 0) : response_(std::move(response))
    {
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
        socklen_t len = sizeof a;
        getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
        port_ = ntohs(a.sin_port);
        listen(fd_, 1);
        thread_ = std::thread([this, delay_ms] { serve(delay_ms); });
    }
    ~LoopbackServer()
    {
        shutdown(fd_, SHUT_RDWR);
        thread_.join();
        close(fd_);
    }
    std::string origin() const { return "http://127.0.0.1:" + std::to_string(port_); }
    std::string request; // valid after the exchange

private:
    void serve(int delay_ms)
    {
        const int c = accept(fd_, nullptr, nullptr);
        if (c < 0)
            return;
        char buf[4096];
        std::string in;
        ssize_t n;
        while ((n = read(c, buf, sizeof buf)) > 0) {
            in.append(buf, static_cast<size_t>(n));
            const auto end = in.find("\r\n\r\n");
            if (end == std::string::npos)
                continue;
            size_t body = 0;
            const auto cl = in.find("Content-Length: ");
            if (cl != std::string::npos && cl < end)
                body = std::stoul(in.substr(cl + 16));
            if (in.size() >= end + 4 + body)
                break;
        }
        request = in;
        if (delay_ms)
            std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        (void)!write(c, response_.data(), response_.size());
        close(c);
    }

    std::string response_;
    int fd_ = -1;
    unsigned short port_ = 0;
    std::thread thread_;
};

bool has(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

} // namespace

TEST_GROUP(CurlTransport){};

TEST(CurlTransport, SendsMethodHeadersAndBodyAndReadsTheResponse)
{
    LoopbackServer server("HTTP/1.1 201 Created\r\nX-Subject-Token: abc\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n"
                          "Content-Length: 11\r\nConnection: close\r\n\r\n{\"ok\":true}");
    CurlTransport t;
    HttpRequest req;
    req.origin = server.origin();
    req.method = "POST";
    req.path = "/v3/auth/tokens";
    req.query = "a=1";
    req.headers = {{"Content-Type", "application/json"}, {"X-Custom", "v"}};
    req.body = "{\"x\":1}";
    const HttpResponse r = t.perform(req);
    STRCMP_EQUAL("", r.transport_error.c_str());
    LONGS_EQUAL(201, r.status);
    STRCMP_EQUAL("{\"ok\":true}", r.body.c_str());
    STRCMP_EQUAL("abc", r.header("x-subject-token").c_str());
    STRCMP_EQUAL("Set-Cookie", r.headers.at(1).name.c_str());
    STRCMP_EQUAL("b=2", r.headers.at(2).value.c_str());
    CHECK(has(server.request, "POST /v3/auth/tokens?a=1 HTTP/1.1\r\n"));
    CHECK(has(server.request, "X-Custom: v\r\n"));
    CHECK(has(server.request, "\r\n\r\n{\"x\":1}"));
    CHECK(!has(server.request, "Expect:"));
}

TEST(CurlTransport, DeleteWithoutBody)
{
    LoopbackServer server("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
    CurlTransport t;
    HttpRequest req;
    req.origin = server.origin();
    req.method = "DELETE";
    req.path = "/v2.1/servers/x";
    const HttpResponse r = t.perform(req);
    LONGS_EQUAL(204, r.status);
    CHECK(has(server.request, "DELETE /v2.1/servers/x HTTP/1.1\r\n"));
}

TEST(CurlTransport, RefusedConnectionIsATransportErrorNotAnException)
{
    int port;
    {
        LoopbackServer probe("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        port = std::stoi(probe.origin().substr(17));
        CurlTransport t;
        HttpRequest req;
        req.origin = probe.origin();
        req.method = "GET";
        req.path = "/";
        t.perform(req);
    } // closed: nothing listens on the port any more
    CurlTransport t;
    HttpRequest req;
    req.origin = "http://127.0.0.1:" + std::to_string(port);
    req.method = "GET";
    req.path = "/";
    const HttpResponse r = t.perform(req);
    LONGS_EQUAL(0, r.status);
    CHECK(has(r.transport_error, "onnect"));
}

TEST(CurlTransport, SlowServerHitsTheTimeout)
{
    LoopbackServer server("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 1500);
    CurlTransport t({1, 1});
    HttpRequest req;
    req.origin = server.origin();
    req.method = "GET";
    req.path = "/slow";
    const HttpResponse r = t.perform(req);
    LONGS_EQUAL(0, r.status);
    CHECK(has(r.transport_error, "imeout"));
}

TEST(CurlTransport, ShutdownAnswersRequestsTheLoopWillNeverRun)
{
    // burstd stops its io_context before joining the provider workers: a
    // worker waiting on a request must get an error, not wait forever.
    boost::asio::io_context io; // never run
    CurlMulti multi(io);
    HttpRequest req;
    req.origin = "http://127.0.0.1:9";
    req.method = "GET";
    req.path = "/";
    std::future<HttpResponse> pending = multi.submit(req, {});
    multi.shutdown();
    CHECK(pending.wait_for(std::chrono::seconds(0)) == std::future_status::ready);
    const HttpResponse r = pending.get();
    LONGS_EQUAL(0, r.status);
    CHECK(has(r.transport_error, "shut down"));
    CHECK(has(multi.submit(req, {}).get().transport_error, "shut down"));
}
