#include "model/pending_reason.hpp"

#include "common/text.hpp"

#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace burst {
namespace {

// Never shrinks: a long-running burstd keeps every reason it has seen, which
// the snapshot parser holds to names of Slurm's enum of them.  Texts are
// numbered from 1 in the order they come (0 is "").
struct Table {
    std::mutex mutex;
    std::map<std::string, std::uint32_t, std::less<>> codes;
    std::vector<const std::string*> texts; // by number - 1 (map keys stay put)
};

Table& table()
{
    static Table t;
    return t;
}

bool names_a_dependency(std::string_view text)
{
    return text.substr(0, 10) == "Dependency";
}

// Slurm 22.05's job_reason_string() texts that no free node settles.  Not
// "Reservation": Slurm also gives it to a job without one whose nodes are
// reserved, which a cloud node may run.  Not the partition's own refusals
// (AccountNotAllowed, QOSNotAllowed, MaxMemPerLimit): a cloud partition
// need not share them.
bool names_a_block(std::string_view text)
{
    static constexpr std::string_view kBlocks[] = {
        "BeginTime",          "JobHeldAdmin",      "JobHeldUser", "JobHoldMaxRequeue", "Licenses",
        "ReservationDeleted", "InvalidAccount",    "InvalidQOS",  "JobArrayTaskLimit", "AccountingPolicy",
        "FedJobLock",         "DeadLine"};
    for (std::string_view block : kBlocks)
        if (text == block)
            return true;
    // Association and QOS limits (AssociationJobLimit, AssocGrpCpuLimit,
    // QOSMaxJobsPerUserLimit, ...), the per-account ones (MaxCpuPerAccount,
    // ...) and burst buffers.
    return names_a_dependency(text) || starts_with(text, "Assoc") ||
           (starts_with(text, "QOS") && text != "QOSNotAllowed") || starts_with(text, "BurstBuffer") ||
           (starts_with(text, "Max") && ends_with(text, "PerAccount"));
}

} // namespace

PendingReason::PendingReason(std::string_view text)
{
    if (text.empty())
        return;
    // A snapshot's jobs mostly repeat a handful of reasons: the last one
    // interned on this thread settles most without the lock.  A text's code
    // never changes, so the copy cannot go stale.
    thread_local std::string last_text;
    thread_local std::uint32_t last_code = 0;
    if (last_code != 0 && text == last_text) {
        code_ = last_code;
        return;
    }
    Table& t = table();
    const std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.codes.find(text);
    if (it == t.codes.end()) {
        // The number is 30 bits of the code; one more text than that is an
        // error, not a wrapped code shared by two.
        const std::size_t number = t.codes.size() + 1;
        if (number > std::numeric_limits<std::uint32_t>::max() >> kFlagBits)
            throw std::length_error("more than " + std::to_string(number - 1) + " distinct pending reasons");
        const std::uint32_t code = std::uint32_t(number) << kFlagBits |
                                   (names_a_dependency(text) ? kDependencyBit : 0) |
                                   (names_a_block(text) ? kBlocksStartBit : 0);
        it = t.codes.emplace(std::string(text), code).first;
        t.texts.push_back(&it->first);
    }
    code_ = it->second;
    last_text.assign(text);
    last_code = code_;
}

std::string PendingReason::text() const
{
    if (code_ == 0)
        return "";
    Table& t = table();
    const std::lock_guard<std::mutex> lock(t.mutex);
    return *t.texts[(code_ >> kFlagBits) - 1];
}

} // namespace burst
