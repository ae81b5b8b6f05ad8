#include "provider/local/local_provider.hpp"

#include <jansson.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace burst {

namespace fs = std::filesystem;

namespace {

struct JsonDeleter {
    void operator()(json_t* j) const { json_decref(j); }
};
using JsonPtr = std::unique_ptr<json_t, JsonDeleter>;

class Fd {
public:
    explicit Fd(int fd = -1) : fd_(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() { reset(); }
    int get() const { return fd_; }
    void reset()
    {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = -1;
    }

private:
    int fd_;
};

std::string errno_text(const std::string& what)
{
    return what + ": " + std::strerror(errno);
}

// Node names become file names and argv words: keep them to Slurm's usual alphabet.
bool safe_word(const std::string& s)
{
    if (s.empty() || s.size() > 128 || s[0] == '.' || s[0] == '-')
        return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
            return false;
    return true;
}

std::string random_hex(int bytes)
{
    std::random_device rd;
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (int i = 0; i < bytes; ++i) {
        unsigned v = rd() & 0xff;
        out += kHex[v >> 4];
        out += kHex[v & 0xf];
    }
    return out;
}

struct ProcStat {
    char state = '?';
    unsigned long long start_ticks = 0;
};

// /proc/<pid>/stat: "pid (comm) state ppid ... starttime(22) ..."; comm may
// contain spaces and parentheses, so fields are counted after the last ')'.
std::optional<ProcStat> read_proc_stat(long pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line))
        return std::nullopt;
    auto close = line.rfind(')');
    if (close == std::string::npos)
        return std::nullopt;
    std::istringstream rest(line.substr(close + 1));
    ProcStat st;
    rest >> st.state;
    std::string field;
    for (int i = 4; i < 22 && rest >> field; ++i) {
    }
    if (!(rest >> st.start_ticks))
        return std::nullopt;
    return st;
}

// The very process we started: alive, not a zombie, same kernel start time.
bool is_ours(const LocalProvider::Record& r)
{
    auto st = read_proc_stat(r.pid);
    return st && st->state != 'Z' && st->state != 'X' && st->start_ticks == r.start_ticks;
}

void sleep_for(Seconds s)
{
    std::this_thread::sleep_for(std::chrono::duration<double>(s));
}

constexpr const char* kInstanceMarker = "BURST_LOCAL_INSTANCE";

// Pids whose environment holds every one of `entries` ("KEY=value").
std::vector<long> processes_with(const std::vector<std::string>& entries)
{
    std::vector<long> pids;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        std::ifstream in(entry.path() / "environ", std::ios::binary);
        std::string env((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::size_t found = 0;
        for (const auto& want : entries) {
            const std::string needle = want + '\0';
            found += env.compare(0, needle.size(), needle) == 0 ||
                     env.find('\0' + needle) != std::string::npos;
        }
        if (found == entries.size())
            pids.push_back(std::stol(name));
    }
    return pids;
}

std::optional<LocalProvider::Record> parse_record(const fs::path& file, std::string& error)
{
    json_error_t jerr;
    JsonPtr root(json_load_file(file.c_str(), 0, &jerr));
    if (!root) {
        error = file.string() + ":" + std::to_string(jerr.line) + ": " + jerr.text;
        return std::nullopt;
    }
    LocalProvider::Record r;
    auto text = [&](const char* key, std::string& out) {
        json_t* v = json_object_get(root.get(), key);
        if (!json_is_string(v)) {
            error = file.string() + ": field '" + key + "' missing or not a string";
            return false;
        }
        out = json_string_value(v);
        return true;
    };
    json_t* pid = json_object_get(root.get(), "pid");
    json_t* ticks = json_object_get(root.get(), "start_ticks");
    if (!text("provider_id", r.provider_id) || !text("token", r.token) ||
        !text("instance_type", r.instance_type) || !text("cluster", r.tags.cluster) ||
        !text("node", r.tags.node) || !text("burstd_id", r.tags.burstd_id))
        return std::nullopt;
    if (!json_is_integer(pid) || json_integer_value(pid) <= 1 || !json_is_string(ticks)) {
        error = file.string() + ": fields 'pid' (integer > 1) and 'start_ticks' (string) expected";
        return std::nullopt;
    }
    r.pid = static_cast<long>(json_integer_value(pid));
    r.reclaimed = json_is_true(json_object_get(root.get(), "reclaimed"));
    try {
        r.start_ticks = std::stoull(json_string_value(ticks));
    } catch (const std::exception&) {
        error = file.string() + ": 'start_ticks' is not a number";
        return std::nullopt;
    }
    if (file.stem() != r.provider_id) {
        error = file.string() + ": provider_id '" + r.provider_id + "' does not match the file name";
        return std::nullopt;
    }
    return r;
}

} // namespace

LocalProvider::LocalProvider(LocalProviderConfig config) : config_(std::move(config))
{
    if (config_.slurm_conf.empty())
        throw LocalProviderConfigError("local provider: slurm_conf is required");
    if (::access(config_.slurmd_path.c_str(), X_OK) != 0)
        throw LocalProviderConfigError("local provider: slurmd_path " + config_.slurmd_path +
                                       " is not an executable file");
    if (config_.state_dir.empty())
        throw LocalProviderConfigError("local provider: state_dir is required");
    if (config_.boot_delay < 0 || config_.terminate_grace < 0 || config_.launch_latency < 0 ||
        config_.terminate_latency < 0)
        throw LocalProviderConfigError(
            "local provider: boot_delay, terminate_grace, launch_latency and terminate_latency must be >= 0");
    std::error_code ec;
    fs::create_directories(config_.state_dir, ec);
    if (ec || !fs::is_directory(config_.state_dir))
        throw LocalProviderConfigError("local provider: state_dir " + config_.state_dir +
                                       " cannot be created: " + ec.message());
}

std::string LocalProvider::state_file(const std::string& provider_id) const
{
    return (fs::path(config_.state_dir) / (provider_id + ".json")).string();
}

// Write-to-temp, fsync, rename, fsync the directory: the file is either
// absent or complete, and on disk before the process is allowed to start.
void LocalProvider::write_record(const Record& r) const
{
    JsonPtr root(json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:s}", "provider_id", r.provider_id.c_str(),
                           "token", r.token.c_str(), "instance_type", r.instance_type.c_str(), "cluster",
                           r.tags.cluster.c_str(), "node", r.tags.node.c_str(), "burstd_id",
                           r.tags.burstd_id.c_str(), "pid", static_cast<json_int_t>(r.pid), "start_ticks",
                           std::to_string(r.start_ticks).c_str()));
    if (!root)
        throw std::runtime_error("cannot encode the state of " + r.provider_id);
    if (r.reclaimed)
        json_object_set_new(root.get(), "reclaimed", json_true());
    std::unique_ptr<char, decltype(&std::free)> text(json_dumps(root.get(), JSON_COMPACT), &std::free);
    std::string final_path = state_file(r.provider_id);
    std::string tmp = final_path + ".tmp";
    {
        Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
        if (fd.get() < 0)
            throw std::runtime_error(errno_text("cannot create " + tmp));
        std::string body = std::string(text.get()) + "\n";
        if (::write(fd.get(), body.data(), body.size()) != static_cast<ssize_t>(body.size()) ||
            ::fsync(fd.get()) != 0)
            throw std::runtime_error(errno_text("cannot write " + tmp));
    }
    if (::rename(tmp.c_str(), final_path.c_str()) != 0)
        throw std::runtime_error(errno_text("cannot rename " + tmp));
    Fd dir(::open(config_.state_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() >= 0)
        ::fsync(dir.get());
}

std::optional<LocalProvider::Record> LocalProvider::find_by_token(const std::string& token,
                                                                  ProviderError& error) const
{
    for (const auto& entry : fs::directory_iterator(config_.state_dir)) {
        if (entry.path().extension() != ".json")
            continue;
        std::string why;
        auto r = parse_record(entry.path(), why);
        if (!r) {
            // An unreadable record might be this token's: launching again could double it.
            error = {ProviderErrorKind::Invalid, "local provider: " + why, 0};
            return std::nullopt;
        }
        if (r->token == token)
            return r;
    }
    return std::nullopt;
}

std::vector<LaunchResult> LocalProvider::launch(const std::vector<LaunchRequest>& requests)
{
    // The simulated round trip is spent outside the lock, as concurrent API
    // calls to a cloud would be.
    sleep_for(config_.launch_latency / 2);
    std::vector<LaunchResult> results;
    {
        std::lock_guard lock(mutex_);
        for (const auto& req : requests)
            results.push_back(launch_one(req));
    }
    sleep_for(config_.launch_latency / 2);
    return results;
}

LaunchResult LocalProvider::launch_one(const LaunchRequest& req)
{
    LaunchResult result;
    result.node = req.node;
    auto fail = [&](ProviderErrorKind kind, const std::string& msg) {
        result.error = {kind, "local provider: " + msg, 0};
        return result;
    };
    auto invalid = [&](const std::string& msg) { return fail(ProviderErrorKind::Invalid, msg); };
    if (!safe_word(req.node))
        return invalid("node name '" + req.node + "' is not a plain Slurm node name");
    if (req.idempotency_token.empty())
        return invalid("launch of " + req.node + " without an idempotency token");
    if (req.tags.node != req.node)
        return invalid("node tag '" + req.tags.node + "' differs from the node '" + req.node + "'");

    ProviderError lookup_error;
    if (auto existing = find_by_token(req.idempotency_token, lookup_error)) {
        if (existing->tags.node != req.node)
            return invalid("token " + req.idempotency_token + " already launched node " + existing->tags.node);
        result.provider_id = existing->provider_id;
        result.address = config_.address;
        return result;
    }
    if (lookup_error) {
        result.error = lookup_error;
        return result;
    }

    Record rec;
    rec.provider_id = "local-" + req.node + "-" + random_hex(6);
    rec.token = req.idempotency_token;
    rec.instance_type = req.instance_type;
    rec.tags = req.tags;

    // Everything the children need is prepared here: after fork() only
    // async-signal-safe calls are allowed (burstd is multi-threaded).
    std::vector<std::string> args = {config_.slurmd_path, "-D", "-b", "-N", req.node, "-f", config_.slurm_conf};
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    // Inherited by slurmd's step daemons: reclaim() finds them by it.
    std::string marker = std::string(kInstanceMarker) + "=" + rec.provider_id;
    std::vector<char*> envp;
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, kInstanceMarker, std::strlen(kInstanceMarker)) != 0)
            envp.push_back(*e);
    envp.push_back(marker.data());
    envp.push_back(nullptr);
    std::string log_path = (fs::path(config_.state_dir) / (rec.provider_id + ".log")).string();
    Fd devnull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    Fd log(::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
    int pid_pipe[2], go_pipe[2];
    if (devnull.get() < 0 || log.get() < 0 || ::pipe2(pid_pipe, O_CLOEXEC) != 0)
        return fail(ProviderErrorKind::Transient, errno_text("spawn setup"));
    Fd pid_read(pid_pipe[0]), pid_write(pid_pipe[1]);
    if (::pipe2(go_pipe, O_CLOEXEC) != 0)
        return fail(ProviderErrorKind::Transient, errno_text("spawn setup"));
    Fd go_read(go_pipe[0]), go_write(go_pipe[1]);
    struct timespec delay;
    delay.tv_sec = static_cast<time_t>(config_.boot_delay);
    delay.tv_nsec = static_cast<long>((config_.boot_delay - static_cast<double>(delay.tv_sec)) * 1e9);
    // slurmd -b reports as its uptime the ticks of the kernel's uptime clock
    // since slurmd started (whole seconds), and slurmctld takes its boot time
    // to be now - uptime, with now from time().  A slurmd started in the
    // wall-clock second of Slurm's boot request can count one tick more than
    // the whole seconds the wall clock has moved when it registers, and then
    // "booted" a second before it was asked to: slurmctld waits for a boot
    // that never comes and sets the node DOWN at ResumeTimeout.  The request
    // precedes a launch by ResumeProgram (not one by EarlyLaunch,
    // burstd.conf(5)), so slurmd starts in a later second than the launch,
    // 20 ms in, as time() is a coarse clock that can lag by a timer tick.
    struct timespec launched;
    ::clock_gettime(CLOCK_REALTIME, &launched);
    const struct timespec next_second = {launched.tv_sec + 1, 20'000'000};

    pid_t child = ::fork();
    if (child < 0)
        return fail(ProviderErrorKind::Transient, errno_text("fork"));
    if (child == 0) {
        pid_t grandchild = ::fork();
        if (grandchild != 0) {
            // Intermediate: report the grandchild's pid and leave, so the
            // instance is reparented away from burstd.
            long gp = grandchild;
            ssize_t ignored = ::write(pid_write.get(), &gp, sizeof gp);
            (void)ignored;
            ::_exit(grandchild > 0 ? 0 : 1);
        }
        ::close(go_pipe[1]);
        ::setsid();
        char go = 0;
        // Start only once burstd has recorded us; EOF means it died first.
        while (::read(go_pipe[0], &go, 1) < 0 && errno == EINTR) {
        }
        if (go != 'g')
            ::_exit(127);
        struct sigaction dfl;
        std::memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        for (int sig = 1; sig < NSIG; ++sig)
            ::sigaction(sig, &dfl, nullptr);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        ::dup2(devnull.get(), 0);
        ::dup2(log.get(), 1);
        ::dup2(log.get(), 2);
        ::syscall(SYS_close_range, 3U, ~0U, 0U);
        struct timespec left = delay;
        while (::nanosleep(&left, &left) != 0 && errno == EINTR) {
        }
        while (::clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &next_second, nullptr) == EINTR) {
        }
        ::execve(argv[0], argv.data(), envp.data());
        ::_exit(127);
    }

    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    long gp = 0;
    if (::read(pid_read.get(), &gp, sizeof gp) != static_cast<ssize_t>(sizeof gp) || gp <= 0)
        return fail(ProviderErrorKind::Transient, "could not start a process for " + req.node);
    rec.pid = gp;
    auto st = read_proc_stat(gp);
    try {
        if (!st)
            throw std::runtime_error("process " + std::to_string(gp) + " vanished before it was recorded");
        rec.start_ticks = st->start_ticks;
        write_record(rec);
    } catch (const std::exception& e) {
        ::kill(static_cast<pid_t>(gp), SIGKILL);
        return fail(ProviderErrorKind::Transient, e.what());
    }
    if (::write(go_write.get(), "g", 1) != 1)
        return fail(ProviderErrorKind::Transient, errno_text("releasing " + rec.provider_id));
    result.provider_id = rec.provider_id;
    result.address = config_.address;
    return result;
}

ListResult LocalProvider::list(const InstanceTags& owner)
{
    ListResult out;
    std::error_code ec;
    fs::directory_iterator it(config_.state_dir, ec);
    if (ec) {
        out.error = {ProviderErrorKind::Transient, "local provider: cannot read " + config_.state_dir + ": " + ec.message(), 0};
        return out;
    }
    for (const auto& entry : it) {
        if (entry.path().extension() != ".json")
            continue;
        std::string why;
        auto r = parse_record(entry.path(), why);
        if (!r) {
            out.error = {ProviderErrorKind::Invalid, "local provider: " + why, 0};
            continue;
        }
        if (r->tags.cluster != owner.cluster || r->tags.burstd_id != owner.burstd_id)
            continue;
        const bool alive = is_ours(*r);
        if (!alive && !r->reclaimed)
            continue;
        ProviderInstance inst;
        inst.provider_id = r->provider_id;
        inst.node = r->tags.node;
        inst.state = r->reclaimed ? "reclaimed" : "running";
        inst.address = config_.address;
        inst.reclaimed = r->reclaimed;
        inst.gone = !alive;
        out.instances.push_back(std::move(inst));
    }
    return out;
}

ProviderError LocalProvider::reclaim(const std::string& provider_id)
{
    std::lock_guard lock(mutex_);
    if (!safe_word(provider_id))
        return {ProviderErrorKind::Invalid, "local provider: '" + provider_id + "' is not an instance id", 0};
    std::string why;
    auto r = parse_record(state_file(provider_id), why);
    if (!r)
        return {ProviderErrorKind::Invalid, "local provider: " + why, 0};
    // The whole machine goes: slurmd, its step daemons (they leave slurmd's
    // session but keep its environment) and the jobs' tasks on this node.
    const std::vector<std::string> daemons = {std::string(kInstanceMarker) + "=" + r->provider_id};
    const std::vector<std::string> tasks = {"SLURMD_NODENAME=" + r->tags.node,
                                            "SLURM_CLUSTER_NAME=" + r->tags.cluster};
    if (is_ours(*r))
        ::kill(static_cast<pid_t>(r->pid), SIGKILL);
    for (int i = 0; i < 250; ++i) {
        std::vector<long> left = processes_with(daemons);
        for (long pid : processes_with(tasks))
            left.push_back(pid);
        if (left.empty() && !is_ours(*r))
            break;
        for (long pid : left)
            ::kill(static_cast<pid_t>(pid), SIGKILL);
        sleep_for(0.02);
    }
    if (is_ours(*r))
        return {ProviderErrorKind::Transient, "local provider: pid " + std::to_string(r->pid) + " survived SIGKILL", 0};
    r->reclaimed = true;
    try {
        write_record(*r);
    } catch (const std::exception& e) {
        return {ProviderErrorKind::Transient, std::string("local provider: ") + e.what(), 0};
    }
    return {};
}

std::map<std::string, ProviderError> LocalProvider::terminate(const std::vector<std::string>& provider_ids)
{
    sleep_for(config_.terminate_latency / 2);
    std::map<std::string, ProviderError> errors = terminate_locked(provider_ids);
    sleep_for(config_.terminate_latency / 2);
    return errors;
}

std::map<std::string, ProviderError> LocalProvider::terminate_locked(const std::vector<std::string>& provider_ids)
{
    std::lock_guard lock(mutex_);
    std::map<std::string, ProviderError> errors;
    for (const auto& id : provider_ids) {
        if (!safe_word(id)) {
            errors[id] = {ProviderErrorKind::Invalid, "local provider: '" + id + "' is not an instance id", 0};
            continue;
        }
        fs::path file = state_file(id);
        if (!fs::exists(file))
            continue; // already gone: terminating is idempotent
        std::string why;
        auto r = parse_record(file, why);
        if (!r) {
            errors[id] = {ProviderErrorKind::Invalid, "local provider: " + why, 0};
            continue;
        }
        if (is_ours(*r)) {
            ::kill(static_cast<pid_t>(r->pid), SIGTERM);
            auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(config_.terminate_grace);
            while (is_ours(*r) && std::chrono::steady_clock::now() < deadline)
                sleep_for(0.02);
            if (is_ours(*r)) {
                ::kill(static_cast<pid_t>(r->pid), SIGKILL);
                for (int i = 0; i < 100 && is_ours(*r); ++i)
                    sleep_for(0.02);
            }
            if (is_ours(*r)) {
                errors[id] = {ProviderErrorKind::Transient,
                              "local provider: pid " + std::to_string(r->pid) + " survived SIGKILL", 0};
                continue;
            }
        }
        std::error_code ec;
        fs::remove(file, ec);
        fs::remove(fs::path(config_.state_dir) / (id + ".log"), ec);
    }
    return errors;
}

} // namespace burst
