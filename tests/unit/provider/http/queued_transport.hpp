#pragma once
// An HttpTransport for provider tests: answers each request with the next
// queued response (status, headers, body) and records every request so tests
// can assert it field by field.

#include "provider/http/http_transport.hpp"

#include <deque>
#include <stdexcept>
#include <vector>

namespace burst {

class QueuedTransport final : public HttpTransport {
public:
    QueuedTransport& answer(long status, std::string body, std::vector<HttpHeader> headers = {})
    {
        HttpResponse r;
        r.status = status;
        r.body = std::move(body);
        r.headers = std::move(headers);
        queue_.push_back(std::move(r));
        return *this;
    }
    QueuedTransport& fail(std::string why)
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
            throw std::logic_error("QueuedTransport: unexpected " + request.method + " " + request.origin +
                                   request.path + "?" + request.query);
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
