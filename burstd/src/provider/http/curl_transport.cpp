#include "provider/http/curl_transport.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <thread>
#include <utility>

namespace burst {

// An io_context on its own thread, for a transport outside burstd's loop.
class CurlTransport::OwnLoop {
public:
    OwnLoop() : work_(io_.get_executor()), multi_(io_), thread_([this] { io_.run(); }) {}
    ~OwnLoop()
    {
        work_.reset();
        io_.stop();
        thread_.join();
        multi_.shutdown(); // the loop is gone: answer whatever is still in flight
    }
    CurlMulti& multi() { return multi_; }

private:
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
    CurlMulti multi_;
    std::thread thread_;
};

CurlTransport::CurlTransport(CurlMulti& multi, CurlTimeouts timeouts, std::string ca_file)
    : multi_(multi), options_{timeouts, std::move(ca_file)}
{
}

CurlTransport::CurlTransport(CurlTimeouts timeouts, std::string ca_file)
    : own_(std::make_unique<OwnLoop>()), multi_(own_->multi()), options_{timeouts, std::move(ca_file)}
{
}

CurlTransport::~CurlTransport() = default;

HttpResponse CurlTransport::perform(const HttpRequest& request)
{
    std::future<HttpResponse> answer = multi_.submit(request, options_);
    try {
        return answer.get();
    } catch (const std::future_error&) {
        HttpResponse r;
        r.transport_error = "HTTP transport dropped the request to " + request.origin + request.path;
        return r;
    }
}

} // namespace burst
