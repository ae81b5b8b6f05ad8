#include "sim/engine/event_queue.hpp"

#include <limits>

namespace burst {

void EventQueue::push(Time time, EventKind kind, std::uint32_t target, std::uint64_t token)
{
    events_.push(Event{time, kind, seq_++, target, token});
}

Time EventQueue::next_time() const
{
    return events_.empty() ? std::numeric_limits<Time>::infinity() : events_.top().time;
}

bool EventQueue::next_is(Time time, EventKind kind) const
{
    return !events_.empty() && events_.top().time == time && events_.top().kind == kind;
}

std::optional<Event> EventQueue::pop_at(Time time)
{
    if (events_.empty() || events_.top().time != time)
        return std::nullopt;
    Event e = events_.top();
    events_.pop();
    return e;
}

} // namespace burst
