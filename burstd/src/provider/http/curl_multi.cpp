#include "provider/http/curl_multi.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <stdexcept>
#include <utility>

namespace burst {

namespace {

struct EasyDeleter {
    void operator()(CURL* h) const { curl_easy_cleanup(h); }
};
struct SlistDeleter {
    void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

size_t write_body(char* data, size_t size, size_t n, void* user)
{
    static_cast<HttpResponse*>(user)->body.append(data, size * n);
    return size * n;
}

// Header lines of the last response only: a redirect or "100 Continue"
// starts a new status line, which clears what came before.
size_t write_header(char* data, size_t size, size_t n, void* user)
{
    auto* r = static_cast<HttpResponse*>(user);
    std::string line(data, size * n);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
        line.pop_back();
    if (line.rfind("HTTP/", 0) == 0) {
        r->headers.clear();
    } else if (const auto colon = line.find(':'); colon != std::string::npos) {
        std::string value = line.substr(colon + 1);
        const auto b = value.find_first_not_of(" \t");
        r->headers.push_back({line.substr(0, colon), b == std::string::npos ? "" : value.substr(b)});
    }
    return size * n;
}

std::future<HttpResponse> failed(const std::string& why)
{
    std::promise<HttpResponse> p;
    HttpResponse r;
    r.transport_error = why;
    p.set_value(std::move(r));
    return p.get_future();
}

} // namespace

// One request in flight: everything libcurl points into lives here until the
// transfer is done.
struct CurlMulti::Transfer {
    std::unique_ptr<CURL, EasyDeleter> easy;
    std::unique_ptr<curl_slist, SlistDeleter> headers;
    HttpRequest request;
    std::string url;
    HttpResponse response;
    std::promise<HttpResponse> promise;
};

// A socket libcurl asked us to watch.  The descriptor never owns the fd
// (libcurl closes it); it is released when libcurl stops watching.
struct CurlMulti::Socket {
    explicit Socket(boost::asio::io_context& io, curl_socket_t fd) : descriptor(io, fd) {}
    boost::asio::posix::stream_descriptor descriptor;
    int what = CURL_POLL_NONE;
    bool reading = false;
    bool writing = false;
};

CurlMulti::CurlMulti(boost::asio::io_context& io) : io_(io), timer_(io)
{
    static std::once_flag global_init;
    std::call_once(global_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    multi_.reset(curl_multi_init());
    if (!multi_)
        throw std::runtime_error("curl_multi_init failed");
    curl_multi_setopt(multi_.get(), CURLMOPT_SOCKETFUNCTION, &CurlMulti::on_socket);
    curl_multi_setopt(multi_.get(), CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi_.get(), CURLMOPT_TIMERFUNCTION, &CurlMulti::on_timer);
    curl_multi_setopt(multi_.get(), CURLMOPT_TIMERDATA, this);
}

CurlMulti::~CurlMulti() { shutdown(); }

std::future<HttpResponse> CurlMulti::submit(const HttpRequest& request, const CurlRequestOptions& options)
{
    auto t = std::make_unique<Transfer>();
    t->request = request;
    t->url = request.origin + request.path + (request.query.empty() ? "" : "?" + request.query);
    t->easy.reset(curl_easy_init());
    if (!t->easy)
        return failed("curl_easy_init failed");
    for (const auto& hd : request.headers) {
        const std::string line = hd.value.empty() ? hd.name + ";" : hd.name + ": " + hd.value;
        curl_slist* next = curl_slist_append(t->headers.get(), line.c_str());
        if (!next)
            return failed("out of memory building headers");
        t->headers.release();
        t->headers.reset(next);
    }
    // libcurl adds "Expect: 100-continue" to large bodies; APIs gain nothing from it
    if (curl_slist* next = curl_slist_append(t->headers.get(), "Expect:")) {
        t->headers.release();
        t->headers.reset(next);
    }
    CURL* h = t->easy.get();
    const HttpRequest& r = t->request;
    curl_easy_setopt(h, CURLOPT_URL, t->url.c_str());
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, r.method.c_str());
    if (r.method == "HEAD")
        curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    if (!r.body.empty() || r.method == "POST" || r.method == "PUT" || r.method == "PATCH") {
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, r.body.data());
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
    }
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, t->headers.get());
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, write_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &t->response);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, write_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &t->response);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, options.timeouts.connect_seconds);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, options.timeouts.total_seconds);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!options.ca_file.empty())
        curl_easy_setopt(h, CURLOPT_CAINFO, options.ca_file.c_str());
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_PRIVATE, t.get());
    std::future<HttpResponse> result = t->promise.get_future();
    {
        // Queued here rather than inside the posted handler, so shutdown()
        // can answer it even if the io_context never runs that handler.
        std::lock_guard<std::mutex> lock(mutex_);
        if (closed_)
            return failed("HTTP transport shut down (" + r.origin + r.path + ")");
        queued_.push_back(std::move(t));
    }
    boost::asio::post(io_, [this] { start_queued(); });
    return result;
}

void CurlMulti::start_queued()
{
    std::vector<std::unique_ptr<Transfer>> batch;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        batch.swap(queued_);
    }
    for (auto& transfer : batch) {
        CURL* h = transfer->easy.get();
        const CURLMcode rc = curl_multi_add_handle(multi_.get(), h);
        if (rc != CURLM_OK) {
            transfer->response.transport_error = std::string("curl_multi_add_handle: ") + curl_multi_strerror(rc);
            transfer->promise.set_value(std::move(transfer->response));
            continue;
        }
        // Adding a handle only sets a timeout (via on_timer); the transfer
        // starts when that timer fires.
        transfers_[h] = std::move(transfer);
    }
}

int CurlMulti::on_socket(CURL*, curl_socket_t fd, int what, void* self, void*)
{
    static_cast<CurlMulti*>(self)->watch(fd, what);
    return 0;
}

int CurlMulti::on_timer(CURLM*, long timeout_ms, void* self)
{
    auto* me = static_cast<CurlMulti*>(self);
    me->timer_.cancel();
    if (timeout_ms < 0)
        return 0;
    me->timer_.expires_after(std::chrono::milliseconds(timeout_ms));
    me->timer_.async_wait([me](const boost::system::error_code& ec) {
        if (!ec)
            me->act(CURL_SOCKET_TIMEOUT, 0);
    });
    return 0;
}

void CurlMulti::watch(curl_socket_t fd, int what)
{
    auto it = sockets_.find(fd);
    if (what == CURL_POLL_REMOVE) {
        if (it != sockets_.end()) {
            boost::system::error_code ignored;
            it->second->descriptor.cancel(ignored);
            it->second->descriptor.release(); // libcurl closes the fd itself
            sockets_.erase(it);
        }
        return;
    }
    if (it == sockets_.end())
        it = sockets_.emplace(fd, std::make_shared<Socket>(io_, fd)).first;
    std::shared_ptr<Socket> s = it->second;
    s->what = what;
    if ((what & CURL_POLL_IN) && !s->reading)
        arm(s, false);
    if ((what & CURL_POLL_OUT) && !s->writing)
        arm(s, true);
}

// One readiness wait; re-armed after each event for as long as libcurl still
// wants that direction on the same socket object.
void CurlMulti::arm(const std::shared_ptr<Socket>& socket, bool write)
{
    (write ? socket->writing : socket->reading) = true;
    const auto kind = write ? boost::asio::posix::stream_descriptor::wait_write
                            : boost::asio::posix::stream_descriptor::wait_read;
    const curl_socket_t fd = socket->descriptor.native_handle();
    socket->descriptor.async_wait(kind, [this, socket, write, fd](const boost::system::error_code& ec) {
        (write ? socket->writing : socket->reading) = false;
        if (ec)
            return; // cancelled: libcurl stopped watching this socket
        act(fd, write ? CURL_CSELECT_OUT : CURL_CSELECT_IN);
        auto it = sockets_.find(fd);
        if (it == sockets_.end() || it->second != socket)
            return; // removed (or replaced by a new socket on the same fd) meanwhile
        const int want = write ? CURL_POLL_OUT : CURL_POLL_IN;
        if ((socket->what & want) && !(write ? socket->writing : socket->reading))
            arm(socket, write);
    });
}

void CurlMulti::act(curl_socket_t fd, int events)
{
    int running = 0;
    curl_multi_socket_action(multi_.get(), fd, events, &running);
    finish_done();
}

void CurlMulti::finish_done()
{
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi_.get(), &left)) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        CURL* h = msg->easy_handle;
        const CURLcode rc = msg->data.result;
        auto it = transfers_.find(h);
        curl_multi_remove_handle(multi_.get(), h);
        if (it == transfers_.end())
            continue;
        std::unique_ptr<Transfer> t = std::move(it->second);
        transfers_.erase(it);
        long connects = 0;
        curl_easy_getinfo(h, CURLINFO_NUM_CONNECTS, &connects);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            opened_ += connects;
        }
        if (rc != CURLE_OK) {
            t->response = HttpResponse{};
            t->response.transport_error =
                std::string(curl_easy_strerror(rc)) + " (" + t->url.substr(0, t->url.find('?')) + ")";
        } else {
            curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &t->response.status);
        }
        t->promise.set_value(std::move(t->response));
    }
}

void CurlMulti::shutdown()
{
    std::vector<std::unique_ptr<Transfer>> queued;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        closed_ = true;
        queued.swap(queued_);
    }
    for (auto& t : queued) {
        t->response.transport_error = "HTTP transport shut down before " + t->url.substr(0, t->url.find('?')) +
                                      " was sent";
        t->promise.set_value(std::move(t->response));
    }
    boost::system::error_code ignored;
    timer_.cancel();
    for (auto& [fd, s] : sockets_) {
        s->descriptor.cancel(ignored);
        s->descriptor.release();
    }
    sockets_.clear();
    for (auto& [h, t] : transfers_) {
        curl_multi_remove_handle(multi_.get(), h);
        t->response = HttpResponse{};
        t->response.transport_error = "HTTP transport shut down before " + t->url.substr(0, t->url.find('?')) +
                                      " answered";
        t->promise.set_value(std::move(t->response));
    }
    transfers_.clear();
}

long CurlMulti::connections_opened() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return opened_;
}

} // namespace burst
