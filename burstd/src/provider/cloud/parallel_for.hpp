#pragma once
// Runs work(i) for every i in [0, n) on up to `ways` threads (the caller's
// among them), for clouds whose API takes one resource per call.  Fewer
// threads than asked when the system has none to spare.  The first
// exception work throws is rethrown once every thread has stopped; items
// not yet started are then skipped.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace burst {

template <typename Work>
void parallel_for(std::size_t n, std::size_t ways, Work&& work)
{
    std::atomic<std::size_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto drain = [&] {
        try {
            for (std::size_t i = next++; i < n; i = next++)
                work(i);
        } catch (...) {
            next = n;
            const std::lock_guard<std::mutex> lock(failure_mutex);
            if (!failure)
                failure = std::current_exception();
        }
    };
    std::vector<std::thread> helpers;
    try {
        for (std::size_t k = 1; k < std::min(ways, n); ++k)
            helpers.emplace_back(drain);
    } catch (...) {
        // no thread to spare: the threads there are (at least this one) take every item
    }
    drain();
    for (auto& t : helpers)
        t.join();
    if (failure)
        std::rethrow_exception(failure);
}

} // namespace burst
