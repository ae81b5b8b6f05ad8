#include "model/pending_reason.hpp"

#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace burst {
namespace {

// Never shrinks: a long-running burstd keeps every reason it has seen, which
// the snapshot parser holds to names of Slurm's enum of them.
struct Table {
    std::mutex mutex;
    std::map<std::string, std::uint32_t, std::less<>> codes;
    // By index: the texts are the map's keys, which never move.
    std::vector<const std::string*> texts{&empty};
    static inline const std::string empty;
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
        // The index is 31 bits of the code; one more text than that is an
        // error, not a wrapped code shared by two.
        if (t.texts.size() > std::numeric_limits<std::uint32_t>::max() >> 1)
            throw std::length_error("more than " + std::to_string(t.texts.size()) + " distinct pending reasons");
        const std::uint32_t code =
            std::uint32_t(t.texts.size()) << 1 | (names_a_dependency(text) ? kDependencyBit : 0);
        it = t.codes.emplace(std::string(text), code).first;
        t.texts.push_back(&it->first);
    }
    code_ = it->second;
    last_text.assign(text);
    last_code = code_;
}

const std::string& PendingReason::text() const
{
    Table& t = table();
    const std::lock_guard<std::mutex> lock(t.mutex);
    return *t.texts[code_ >> 1];
}

} // namespace burst
