#pragma once
// Provider "local": an instance is a slurmd started on this machine for one
// Slurm node name (`slurmd -D -b -N <node> -f <slurm.conf>`; the node's
// NodeAddr/Port come from slurm.conf).  It exists so the whole burst path —
// ledger, reconciliation, Slurm power saving — runs for real in tests and on
// a laptop, crashes included:
//  * the slurmd is double-forked into its own session with a cleared signal
//    mask and default dispositions, so it outlives burstd and obeys SIGTERM
//    (slurmctld runs ResumeProgram with SIGTERM blocked);
//  * every instance is a JSON file in `state_dir` carrying its tags, token,
//    pid and the pid's kernel start time, written before the process is let
//    go, so list() after a burstd restart finds exactly the live ones and a
//    reused pid is never mistaken for ours;
//  * `boot_delay` seconds pass between launch and slurmd's start, like a
//    cloud instance booting; `launch_latency` / `terminate_latency` make the
//    calls themselves take as long as a cloud API's;
//  * reclaim() does to an instance what a cloud does to spot capacity it
//    takes back: the slurmd is killed without warning and list() reports the
//    instance gone and reclaimed until it is terminated.

#include "provider/provider.hpp"

#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace burst {

class LocalProviderConfigError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct LocalProviderConfig {
    std::string slurmd_path = "/usr/sbin/slurmd";
    std::string slurm_conf; // passed as -f; required
    std::string state_dir;  // created if missing; required
    Seconds boot_delay = 0;
    Seconds terminate_grace = 10; // SIGTERM, then SIGKILL after this long
    // How long a launch / terminate call takes, like a cloud API round trip.
    // The instance starts (or is stopped) halfway through, so a crash during
    // the call can leave it existing while burstd never heard the answer.
    Seconds launch_latency = 0;
    Seconds terminate_latency = 0;
    std::string address = "127.0.0.1";
};

class LocalProvider final : public Provider {
public:
    static constexpr std::string_view kName = "local";

    // Throws LocalProviderConfigError naming the field that is wrong.
    explicit LocalProvider(LocalProviderConfig config);

    std::string_view name() const override { return kName; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>& requests) override;
    ListResult list(const InstanceTags& owner) override;
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>& provider_ids) override;
    // SIGKILLs the instance's slurmd and marks it reclaimed (tests, demos).
    ProviderError reclaim(const std::string& provider_id);

    // What the state file of one instance holds.
    struct Record {
        std::string provider_id;
        std::string token;
        std::string instance_type;
        InstanceTags tags;
        long pid = 0;
        unsigned long long start_ticks = 0; // /proc/<pid>/stat field 22
        bool reclaimed = false;
    };

private:
    LaunchResult launch_one(const LaunchRequest& request);
    std::map<std::string, ProviderError> terminate_locked(const std::vector<std::string>& provider_ids);
    std::optional<Record> find_by_token(const std::string& token, ProviderError& error) const;
    std::string state_file(const std::string& provider_id) const;
    void write_record(const Record& record) const;

    LocalProviderConfig config_;
    std::mutex mutex_; // one launch/terminate at a time keeps token lookups exact
};

} // namespace burst
