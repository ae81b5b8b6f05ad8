#pragma once
// An HttpTransport for tests: answers each request with the next scripted
// response and records what was sent.

#include "provider/http/http_transport.hpp"

#include <deque>
#include <stdexcept>
#include <vector>

namespace burst {

class ScriptedTransport final : public HttpTransport {
public:
    void answer(long status, std::string body)
    {
        HttpResponse r;
        r.status = status;
        r.body = std::move(body);
        script_.push_back(std::move(r));
    }
    void fail(std::string why)
    {
        HttpResponse r;
        r.transport_error = std::move(why);
        script_.push_back(std::move(r));
    }
    HttpResponse perform(const HttpRequest& request) override
    {
        sent.push_back(request);
        if (script_.empty())
            throw std::logic_error("ScriptedTransport: unexpected request " + request.method + " " + request.path);
        HttpResponse r = std::move(script_.front());
        script_.pop_front();
        return r;
    }
    bool exhausted() const { return script_.empty(); }

    std::vector<HttpRequest> sent;

private:
    std::deque<HttpResponse> script_;
};

} // namespace burst
