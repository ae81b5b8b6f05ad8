#pragma once
// An HttpTransport for tests of providers that call from several threads at
// once.  `answer` makes each response; the first requests that `gathered`
// picks wait (up to `patience`) until `gather` of them are in flight, so
// calls made at once show as that many in flight and calls made one after
// another as one.

#include "provider/http/http_transport.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>

namespace burst {

class GatheringTransport final : public HttpTransport {
public:
    using Answer = std::function<HttpResponse(const HttpRequest&)>;
    using Pick = std::function<bool(const HttpRequest&)>;

    GatheringTransport(Answer answer, Pick gathered, std::size_t gather, std::chrono::milliseconds patience)
        : answer_(std::move(answer)), gathered_(std::move(gathered)), gather_(gather), patience_(patience)
    {
    }

    HttpResponse perform(const HttpRequest& request) override
    {
        if (!gathered_(request))
            return answer_(request);
        std::unique_lock<std::mutex> lock(mutex_);
        ++picked;
        most_in_flight = std::max(most_in_flight, ++in_flight_);
        if (in_flight_ >= gather_) {
            done_ = true;
            cv_.notify_all();
        }
        if (!cv_.wait_for(lock, patience_, [&] { return done_; }))
            done_ = true; // they do not come: the rest go on at once
        --in_flight_;
        lock.unlock();
        return answer_(request);
    }

    std::size_t picked = 0;         // requests `gathered` picked
    std::size_t most_in_flight = 0; // of those, the most in flight at once

private:
    Answer answer_;
    Pick gathered_;
    std::size_t gather_;
    std::chrono::milliseconds patience_;
    bool done_ = false;
    std::size_t in_flight_ = 0;
    std::mutex mutex_;
    std::condition_variable cv_;
};

} // namespace burst
