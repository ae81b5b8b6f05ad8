#include "policy/health/group_health.hpp"

#include <algorithm>

namespace burst {

std::string_view to_string(BreakerState state)
{
    switch (state) {
    case BreakerState::Closed: return "closed";
    case BreakerState::Open: return "open";
    case BreakerState::HalfOpen: return "half-open";
    case BreakerState::Disabled: return "disabled";
    }
    return "unknown";
}

std::string_view to_string(BreakerCause cause)
{
    switch (cause) {
    case BreakerCause::None: return "none";
    case BreakerCause::Capacity: return "capacity";
    case BreakerCause::Quota: return "quota";
    case BreakerCause::Boot: return "boot";
    case BreakerCause::Auth: return "auth";
    case BreakerCause::Invalid: return "invalid";
    case BreakerCause::Operator: return "operator";
    }
    return "unknown";
}

std::optional<BreakerState> breaker_state_from(std::string_view word)
{
    for (BreakerState s : {BreakerState::Closed, BreakerState::Open, BreakerState::HalfOpen, BreakerState::Disabled})
        if (to_string(s) == word)
            return s;
    return std::nullopt;
}

std::optional<BreakerCause> breaker_cause_from(std::string_view word)
{
    for (BreakerCause c : {BreakerCause::None, BreakerCause::Capacity, BreakerCause::Quota, BreakerCause::Boot,
                           BreakerCause::Auth, BreakerCause::Invalid, BreakerCause::Operator})
        if (to_string(c) == word)
            return c;
    return std::nullopt;
}

Admission GroupHealth::admit(Time now)
{
    switch (state_) {
    case BreakerState::Closed:
        return {AdmissionKind::Launch, ""};
    case BreakerState::Disabled:
        return {AdmissionKind::Refused, "stopped after a " + std::string(to_string(cause_)) + " error (" + reason_ +
                                            "); reload the configuration or run burstctl reset-group"};
    case BreakerState::Open:
        if (now < open_until_)
            break;
        state_ = BreakerState::HalfOpen;
        probe_in_flight_ = false;
        [[fallthrough]];
    case BreakerState::HalfOpen:
        if (probe_pending(now))
            return {AdmissionKind::Refused, "a probe launch is under way after " + reason_};
        probe_in_flight_ = true;
        probe_started_ = now;
        ++probes_;
        return {AdmissionKind::Probe, ""};
    }
    return {AdmissionKind::Refused, std::string(to_string(cause_)) + " back-off until " +
                                        std::to_string(static_cast<long long>(open_until_)) + " after " + reason_};
}

std::optional<std::uint32_t> GroupHealth::hire_limit(Time now) const
{
    switch (state_) {
    case BreakerState::Closed: return std::nullopt;
    case BreakerState::Disabled: return 0u;
    case BreakerState::Open: return now < open_until_ ? 0u : 1u;
    case BreakerState::HalfOpen: return probe_pending(now) ? 0u : 1u;
    }
    return 0u;
}

void GroupHealth::open(BreakerCause cause, const std::string& reason, Seconds cool_down, Time now)
{
    state_ = BreakerState::Open;
    cause_ = cause;
    reason_ = reason;
    cool_down_ = cool_down;
    open_until_ = now + cool_down;
    probe_in_flight_ = false;
    ++opened_;
}

void GroupHealth::reopen(const std::string& reason, Time now)
{
    const Seconds cap = std::max(settings_.max_cool_down,
                                 cause_ == BreakerCause::Quota ? settings_.quota_cool_down : settings_.cool_down);
    state_ = BreakerState::Open;
    reason_ = reason;
    cool_down_ = std::min(cap, std::max(cool_down_, settings_.cool_down) * 2);
    open_until_ = now + cool_down_;
    probe_in_flight_ = false;
}

void GroupHealth::launched(Time, bool probe)
{
    capacity_errors_ = 0;
    if (!probe || state_ != BreakerState::HalfOpen)
        return;
    // A boot problem is only shown gone by a node that registers.
    if (cause_ == BreakerCause::Boot)
        return;
    state_ = BreakerState::Closed;
    cause_ = BreakerCause::None;
    probe_in_flight_ = false;
}

void GroupHealth::launch_failed(const ProviderError& error, Time now, bool probe)
{
    const std::string why = std::string(to_string(error.kind)) + ": " + error.message;
    if (state_ == BreakerState::Disabled)
        return;
    if (error.kind == ProviderErrorKind::Auth || error.kind == ProviderErrorKind::Invalid) {
        open(error.kind == ProviderErrorKind::Auth ? BreakerCause::Auth : BreakerCause::Invalid, why, 0, now);
        state_ = BreakerState::Disabled;
        return;
    }
    if (probe && state_ == BreakerState::HalfOpen) {
        if (error.kind == ProviderErrorKind::Quota)
            cause_ = BreakerCause::Quota;
        reopen(why, now);
        return;
    }
    if (state_ != BreakerState::Closed)
        return; // admitted before the breaker opened: already backing off
    if (error.kind == ProviderErrorKind::Quota) {
        open(BreakerCause::Quota, why, settings_.quota_cool_down, now);
    } else if (error.kind == ProviderErrorKind::Capacity) {
        if (++capacity_errors_ >= std::max<std::uint32_t>(settings_.capacity_errors, 1)) {
            capacity_errors_ = 0;
            open(BreakerCause::Capacity, why, settings_.cool_down, now);
        }
    }
    // Throttled/transient failures that outlasted their retries say nothing
    // about the group's capacity: only that node's launch is lost.
}

void GroupHealth::registered(Time)
{
    boot_failures_ = 0;
    if (state_ == BreakerState::HalfOpen && cause_ == BreakerCause::Boot) {
        state_ = BreakerState::Closed;
        cause_ = BreakerCause::None;
        probe_in_flight_ = false;
    }
}

void GroupHealth::boot_failed(const std::string& why, Time now)
{
    if (state_ == BreakerState::Disabled)
        return;
    if (state_ == BreakerState::HalfOpen && cause_ == BreakerCause::Boot) {
        reopen("boot: " + why, now);
        return;
    }
    if (state_ != BreakerState::Closed)
        return;
    if (++boot_failures_ >= std::max<std::uint32_t>(settings_.boot_failures, 1)) {
        boot_failures_ = 0;
        open(BreakerCause::Boot, "boot: " + why, settings_.cool_down, now);
    }
}

void GroupHealth::reset()
{
    state_ = BreakerState::Closed;
    cause_ = BreakerCause::None;
    reason_.clear();
    open_until_ = 0;
    cool_down_ = 0;
    probe_in_flight_ = false;
    capacity_errors_ = 0;
    boot_failures_ = 0;
}

void GroupHealth::reload(GroupRecovery settings)
{
    settings_ = settings;
    if (state_ == BreakerState::Disabled)
        reset();
}

void GroupHealth::restore(const GroupHealthView& saved)
{
    if (saved.state != BreakerState::Open && saved.state != BreakerState::HalfOpen)
        return;
    state_ = BreakerState::Open;
    cause_ = saved.cause;
    reason_ = saved.reason;
    open_until_ = saved.open_until;
    cool_down_ = saved.cool_down;
    opened_ = saved.opened;
    probes_ = saved.probes;
    probe_in_flight_ = false;
}

GroupHealthView GroupHealth::view(Time now) const
{
    GroupHealthView v;
    v.state = state_;
    v.cause = cause_;
    v.reason = reason_;
    v.open_until = open_until_;
    v.cool_down = cool_down_;
    v.capacity_errors = capacity_errors_;
    v.boot_failures = boot_failures_;
    v.opened = opened_;
    v.probes = probes_;
    const bool probing = state_ == BreakerState::HalfOpen || (state_ == BreakerState::Open && now >= open_until_);
    if (state_ == BreakerState::Closed)
        v.mode = "hiring";
    else if (state_ == BreakerState::Disabled)
        v.mode = "stopped";
    else if (cause_ == BreakerCause::Boot)
        v.mode = "protected";
    else if (probing)
        v.mode = "probing";
    else if (cause_ == BreakerCause::Quota)
        v.mode = "quota";
    else
        v.mode = "backing-off";
    return v;
}

} // namespace burst
