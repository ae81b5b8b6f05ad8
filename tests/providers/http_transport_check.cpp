// Drives CurlTransport the way burstd does, for
// tests/providers/test_curl_multi.sh: one io_context thread runs one
// CurlMulti, and THREADS worker threads (like burstd's provider pool) each
// send REQUESTS GETs of PATH through their own CurlTransport on it.
//
//   http-transport-check --origin https://127.0.0.1:PORT [--ca-file PEM]
//       [--threads N] [--requests M] [--timeout SECONDS] PATH
// Prints one "status CODE" or "error MESSAGE" line per request (in completion
// order), then "connections N" (connections libcurl opened) and
// "elapsed_ms N".  Exit status 2 for bad arguments.

#include "provider/http/curl_multi.hpp"
#include "provider/http/curl_transport.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace burst;

namespace {

[[noreturn]] void usage(const std::string& why)
{
    std::cerr << "http-transport-check: " << why << "\n"
              << "usage: http-transport-check --origin URL [--ca-file PEM] [--threads N] [--requests M] "
                 "[--timeout S] PATH\n";
    std::exit(2);
}

long number(const std::string& opt, const std::string& v)
{
    char* end = nullptr;
    const long n = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end || n < 1)
        usage(opt + ": expected a positive number, got '" + v + "'");
    return n;
}

} // namespace

int main(int argc, char** argv)
{
    std::string origin, ca_file, path;
    long threads = 1, requests = 1, timeout = 10;
    for (int i = 1; i < argc; ++i) {
        const std::string opt = argv[i];
        if (opt.rfind("--", 0) != 0) {
            path = opt;
            continue;
        }
        if (i + 1 >= argc)
            usage(opt + " needs a value");
        const std::string v = argv[++i];
        if (opt == "--origin")
            origin = v;
        else if (opt == "--ca-file")
            ca_file = v;
        else if (opt == "--threads")
            threads = number(opt, v);
        else if (opt == "--requests")
            requests = number(opt, v);
        else if (opt == "--timeout")
            timeout = number(opt, v);
        else
            usage("unknown option " + opt);
    }
    if (origin.empty() || path.empty())
        usage("--origin and PATH are required");

    boost::asio::io_context io;
    auto work = boost::asio::make_work_guard(io);
    CurlMulti multi(io);
    std::thread loop([&io] { io.run(); });

    std::mutex out;
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (long t = 0; t < threads; ++t)
        workers.emplace_back([&] {
            CurlTransport transport(multi, CurlTimeouts{timeout, timeout}, ca_file);
            for (long r = 0; r < requests; ++r) {
                HttpRequest req;
                req.origin = origin;
                req.method = "GET";
                req.path = path;
                const HttpResponse resp = transport.perform(req);
                std::lock_guard<std::mutex> lock(out);
                if (resp.transport_error.empty())
                    std::cout << "status " << resp.status << "\n";
                else
                    std::cout << "error " << resp.transport_error << "\n";
            }
        });
    for (auto& w : workers)
        w.join();
    const auto elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    work.reset();
    io.stop();
    loop.join();
    multi.shutdown();
    std::cout << "connections " << multi.connections_opened() << "\nelapsed_ms " << elapsed << "\n";
    return 0;
}
