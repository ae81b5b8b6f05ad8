#pragma once
// An HttpTransport for the OpenStack tests: answers each request with the
// next queued response (status, headers, body) and records what was sent.

#include "provider/http/http_transport.hpp"

#include <deque>
#include <stdexcept>
#include <vector>

namespace burst {

class ReplayTransport final : public HttpTransport {
public:
    ReplayTransport& answer(long status, std::string body, std::vector<HttpHeader> headers = {})
    {
        HttpResponse r;
        r.status = status;
        r.body = std::move(body);
        r.headers = std::move(headers);
        queue_.push_back(std::move(r));
        return *this;
    }
    ReplayTransport& fail(std::string why)
    {
        HttpResponse r;
        r.transport_error = std::move(why);
        queue_.push_back(std::move(r));
        return *this;
    }
    HttpResponse perform(const HttpRequest& request) override
    {
        sent.push_back(request);
        if (queue_.empty())
            throw std::logic_error("ReplayTransport: unexpected " + request.method + " " + request.path);
        HttpResponse r = std::move(queue_.front());
        queue_.pop_front();
        return r;
    }
    bool exhausted() const { return queue_.empty(); }

    std::vector<HttpRequest> sent;

private:
    std::deque<HttpResponse> queue_;
};

} // namespace burst
