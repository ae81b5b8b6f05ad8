#pragma once
// Whether one node group may launch now: a circuit breaker fed by the final
// outcome of every launch in the group.
//
//   closed  --N capacity failures in a row / quota error / N boot failures-->  open
//   open    --cool-down elapsed-->  half-open (exactly one probe launch admitted)
//   half-open --probe launched (capacity, quota) or registered (boot)-->  closed
//   half-open --probe failed-->  open again, cool-down doubled up to the maximum
//   any     --auth or invalid error-->  disabled (until reset: reload or burstctl)
//
// Open because of boot failures (instances launch but never register in
// Slurm) is "protected mode".  A probe that reports nothing within
// `probe_timeout` (its node was suspended, burstd lost track) no longer
// blocks the next one.  Pure: time comes in as arguments; not thread-safe
// (GroupHealthBoard locks).

#include "model/clock.hpp"
#include "model/group_recovery.hpp"
#include "model/provider_error.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace burst {

enum class BreakerState { Closed, Open, HalfOpen, Disabled };
enum class BreakerCause { None, Capacity, Quota, Boot, Auth, Invalid, Operator };

std::string_view to_string(BreakerState state);
std::string_view to_string(BreakerCause cause);
// The inverse of to_string; nullopt for any other word.
std::optional<BreakerState> breaker_state_from(std::string_view word);
std::optional<BreakerCause> breaker_cause_from(std::string_view word);

enum class AdmissionKind { Launch, Probe, Refused };

struct Admission {
    AdmissionKind kind = AdmissionKind::Launch;
    std::string reason; // why refused
    bool probe() const { return kind == AdmissionKind::Probe; }
    bool refused() const { return kind == AdmissionKind::Refused; }
};

// What `burstctl status` shows of a group.
struct GroupHealthView {
    BreakerState state = BreakerState::Closed;
    BreakerCause cause = BreakerCause::None;
    std::string mode;   // hiring, backing-off, probing, protected, quota, stopped
    std::string reason; // the error that opened the breaker
    Time open_until = 0;
    Seconds cool_down = 0;
    std::uint32_t capacity_errors = 0; // in a row, while closed
    std::uint32_t boot_failures = 0;   // in a row
    std::uint64_t opened = 0;          // times the breaker opened
    std::uint64_t probes = 0;
};

class GroupHealth {
public:
    GroupHealth(GroupRecovery settings, Seconds probe_timeout) : settings_(settings), probe_timeout_(probe_timeout) {}

    // Called once per launch about to start; a Probe admission must be
    // followed by launched() or launch_failed() with probe = true.
    Admission admit(Time now);
    // How many more nodes policies may hire now; nullopt = no limit.
    std::optional<std::uint32_t> hire_limit(Time now) const;

    void launched(Time now, bool probe);
    // The launch's final error, after retries and instance-type fallbacks.
    void launch_failed(const ProviderError& error, Time now, bool probe);
    // A launched node registered with Slurm: the group's instances boot.
    void registered(Time now);
    // A launched instance's node never registered within ResumeTimeout.
    void boot_failed(const std::string& why, Time now);
    // Back to closed with fresh counters (burstctl reset-group).
    void reset();
    // A configuration reload may have fixed credentials or templates.
    void reload(GroupRecovery settings);
    // What an earlier burstd left (GroupHealthBoard persists views): an open
    // or half-open breaker comes back open until its saved time, so a restart
    // does not launch into a provider that just refused; a probe the old
    // process had under way died with it, so the next one may start at once
    // after that time.  Other states are ignored.
    void restore(const GroupHealthView& saved);

    GroupHealthView view(Time now) const;

private:
    void open(BreakerCause cause, const std::string& reason, Seconds cool_down, Time now);
    void reopen(const std::string& reason, Time now); // a failed probe
    bool probe_pending(Time now) const { return probe_in_flight_ && now - probe_started_ < probe_timeout_; }

    GroupRecovery settings_;
    Seconds probe_timeout_;
    BreakerState state_ = BreakerState::Closed;
    BreakerCause cause_ = BreakerCause::None;
    std::string reason_;
    Time open_until_ = 0;
    Seconds cool_down_ = 0;
    bool probe_in_flight_ = false;
    Time probe_started_ = 0;
    std::uint32_t capacity_errors_ = 0;
    std::uint32_t boot_failures_ = 0;
    std::uint64_t opened_ = 0;
    std::uint64_t probes_ = 0;
};

} // namespace burst
