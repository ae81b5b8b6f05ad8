#pragma once
// Slurm's reason a job waits ("Resources", "Priority", "Dependency", ...), as
// one interned value of 4 bytes.  Every distinct text is kept for the life
// of the process; the plugin sends job_reason_string() of Slurm's enum, so a
// site has a few dozen of them.  What is asked of a reason is equality,
// is_dependency() and blocks_start(), never its text back.
//
// Why: SiteView::of asks every waiting job whether its reason holds it
// back, on every decision (a million of them at the largest sites).  With a
// std::string in the Job that read a second cache line of every job (64 MB
// per decision at a million jobs); as a value this small the reason sits in
// the Job's first line, and whether it is a dependency is worked out once,
// when its text is interned, and carried in the value itself, so it cannot
// disagree with the text; so is whether the reason keeps the job off every
// node however many are free.

#include <cstdint>
#include <string>
#include <string_view>

namespace burst {

class PendingReason {
public:
    // No reason ("").
    PendingReason() = default;
    // Interns `text`; thread-safe.  Implicit: a text is what a reason is.
    PendingReason(std::string_view text);
    PendingReason(const char* text) : PendingReason(std::string_view(text)) {}
    PendingReason(const std::string& text) : PendingReason(std::string_view(text)) {}

    bool empty() const { return code_ == 0; }
    // The text as Slurm wrote it (burstctl explain).
    std::string text() const;
    // Slurm's Dependency or DependencyNeverSatisfied: the job waits for
    // other jobs to end, not for a node.
    bool is_dependency() const { return (code_ & kDependencyBit) != 0; }
    // Slurm starts the job on no node, free or hired, until something else
    // changes: a dependency, a hold, a begin time still ahead, an account's
    // or QOS's limit, a license, a burst buffer, an array's task limit.
    // Reasons a node might settle (Resources, Priority, None, Reservation,
    // the partition's state, limits and Allow lists, which a cloud
    // partition need not share) and texts Slurm 22.05 does not know do not
    // block.  A partition QOS's limit reads as a QOS limit and blocks.
    bool blocks_start() const { return (code_ & kBlocksStartBit) != 0; }

    friend bool operator==(PendingReason a, PendingReason b) { return a.code_ == b.code_; }
    friend bool operator!=(PendingReason a, PendingReason b) { return a.code_ != b.code_; }

private:
    // The text's number in the process-wide table, shifted left by two,
    // with is_dependency() and blocks_start() in the low bits: the tests
    // then read no memory but the Job's own line.  0 is "" (no reason).
    static constexpr std::uint32_t kDependencyBit = 1;
    static constexpr std::uint32_t kBlocksStartBit = 2;
    static constexpr unsigned kFlagBits = 2;
    std::uint32_t code_ = 0;
};

} // namespace burst
