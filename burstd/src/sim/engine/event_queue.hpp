#pragma once
// The replay's timed events: what happens at an instant to a job or a cloud
// node.  They come out in time order, events at the same instant by kind,
// then in the order they were pushed, so a seed replays the same run
// anywhere.  An event carries the token its target had when it was pushed
// (a job's run, a node's life or idle period): the replay drops the events
// whose target has moved on.

#include "model/clock.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <vector>

namespace burst {

// Interruptions after job ends: a job ending at the very instant its node
// is taken back has finished.  Releases of held jobs last, before the
// scheduling pass at their instant.
enum class EventKind : std::uint8_t { LaunchFailed, JobEnd, NodeReady, SuspendCheck, Interruption, Eligible };

struct Event {
    Time time;
    EventKind kind;
    std::uint64_t seq;     // pushed before every event of a higher seq
    std::uint32_t target;  // a job (JobEnd, Eligible) or a cloud node
    std::uint64_t token;
    bool operator>(const Event& o) const
    {
        if (time != o.time)
            return time > o.time;
        if (kind != o.kind)
            return kind > o.kind;
        return seq > o.seq;
    }
};

class EventQueue {
public:
    void push(Time time, EventKind kind, std::uint32_t target, std::uint64_t token = 0);
    bool empty() const { return events_.empty(); }
    // The first event's time; infinity when there is none.
    Time next_time() const;
    // Whether the first event is of `kind` at `time`.
    bool next_is(Time time, EventKind kind) const;
    // Takes out the first event if it is at `time`.
    std::optional<Event> pop_at(Time time);

private:
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
    std::uint64_t seq_ = 0;
};

} // namespace burst
