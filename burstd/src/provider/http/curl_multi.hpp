#pragma once
// One libcurl multi handle driven by an Asio io_context: libcurl tells us
// which sockets to watch (CURLMOPT_SOCKETFUNCTION) and when to wake it
// (CURLMOPT_TIMERFUNCTION); stream_descriptors and a steady_timer on the
// io_context do the waiting, so every transfer of the daemon runs on its one
// event loop and idle connections (and TLS sessions) are kept in the multi
// handle's cache for the next request to the same host.
//
// submit() may be called from any thread; the transfer itself is only ever
// touched on the io_context's thread.  The io_context must run on ONE thread.
// A caller waiting on the future must not be that thread.

#include "provider/http/http_message.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <curl/curl.h>

#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace burst {

struct CurlTimeouts {
    long connect_seconds = 10;
    long total_seconds = 60;
};

struct CurlRequestOptions {
    CurlTimeouts timeouts;
    std::string ca_file; // PEM bundle instead of the system's; empty = the system's
};

class CurlMulti {
public:
    explicit CurlMulti(boost::asio::io_context& io);
    ~CurlMulti(); // shutdown()
    CurlMulti(const CurlMulti&) = delete;
    CurlMulti& operator=(const CurlMulti&) = delete;

    // Queues the request on the io_context.  The future never throws: network
    // and TLS failures, timeouts and shutdown come back as transport_error.
    std::future<HttpResponse> submit(const HttpRequest& request, const CurlRequestOptions& options);

    // Fails every transfer still in flight and every later submit.  Call it
    // while the io_context is not running (after run() returned) or on its
    // thread: the daemon calls it between io.run() and joining its workers,
    // so no worker waits for an answer that can no longer come.
    void shutdown();

    // Connections libcurl has opened so far (for tests of connection reuse).
    long connections_opened() const;

private:
    struct Transfer;
    struct Socket;

    static int on_socket(CURL* easy, curl_socket_t fd, int what, void* self, void* socket_data);
    static int on_timer(CURLM* multi, long timeout_ms, void* self);
    void start_queued();
    void watch(curl_socket_t fd, int what);
    void arm(const std::shared_ptr<Socket>& socket, bool write);
    void act(curl_socket_t fd, int events);
    void finish_done();

    struct MultiDeleter {
        void operator()(CURLM* m) const { curl_multi_cleanup(m); }
    };

    boost::asio::io_context& io_;
    std::unique_ptr<CURLM, MultiDeleter> multi_;
    boost::asio::steady_timer timer_;
    std::map<CURL*, std::unique_ptr<Transfer>> transfers_; // io thread only
    std::map<curl_socket_t, std::shared_ptr<Socket>> sockets_;  // io thread only
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<Transfer>> queued_; // submitted, not yet added; under mutex_
    bool closed_ = false;   // under mutex_
    long opened_ = 0;       // under mutex_
};

} // namespace burst
