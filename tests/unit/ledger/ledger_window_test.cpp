#include "ledger/ledger_window.hpp"

#include <random>
#include <string>
#include <vector>

#include "scratch_dir.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

LaunchIntent intent(const std::string& node, const std::string& group)
{
    return LaunchIntent{node, group, "local", "m5.large", false, ""};
}

std::string text(const LedgerRecord& r)
{
    return std::to_string(r.id) + " " + r.node + " " + std::string(to_string(r.state)) + " " +
           std::to_string(r.running_since) + " " + std::to_string(r.terminated_at);
}

std::string text(const std::vector<LedgerRecord>& records)
{
    std::string out;
    for (const auto& r : records)
        out += text(r) + "\n";
    return out;
}

std::string text(const std::vector<NodeBoot>& boots)
{
    std::string out;
    for (const auto& b : boots)
        out += b.node_group + " " + std::to_string(b.requested_at) + " " + std::to_string(b.running_since) + "\n";
    return out;
}

// Random launches, boots, failures and terminations over `steps`, with the
// window refreshed every few writes at a horizon that trails the clock: the
// window always equals what reading the whole ledger gives.
void churn(Ledger& ledger, std::size_t steps, unsigned seed, std::size_t refresh_every)
{
    std::mt19937 rng(seed);
    LedgerWindow window(ledger, 3);
    std::vector<LedgerRecord> open;
    Time now = 1000;
    for (std::size_t step = 1; step <= steps; ++step) {
        now += std::uniform_int_distribution<int>(0, 30)(rng);
        const int what = std::uniform_int_distribution<int>(0, 9)(rng);
        if (open.empty() || what < 3) {
            const std::string group = rng() % 2 ? "cpu" : "gpu";
            open.push_back(ledger.record_launch_intent(intent("c" + std::to_string(rng() % 20), group), now));
        } else {
            const std::size_t i = rng() % open.size();
            LedgerRecord& r = open[i];
            if (r.state == InstanceState::Requested && what < 6) {
                ledger.mark_launched(r.token, "i-" + r.token, "10.0.0.1", now);
                r.state = InstanceState::Launching;
            } else if (r.state == InstanceState::Launching && what < 7) {
                // a clock step makes some boots implausible
                ledger.mark_running(r.token, what == 3 ? r.requested_at - 5 : now);
                r.state = InstanceState::Running;
            } else if (what == 9 && r.state == InstanceState::Requested) {
                ledger.mark_failed(r.token, "no capacity", now);
                open.erase(open.begin() + std::ptrdiff_t(i));
            } else {
                ledger.mark_terminated(r.token, now);
                open.erase(open.begin() + std::ptrdiff_t(i));
            }
        }
        if (step % refresh_every == 0) {
            const Time horizon = now - 200;
            window.refresh(horizon);
            CHECK_EQUAL(text(ledger.open_or_ended_since(horizon)), text(window.records()));
            CHECK_EQUAL(text(recent_boots(ledger.all(), 3)), text(window.boots()));
        }
    }
}

} // namespace

TEST_GROUP(LedgerWindow)
{
    test::ScratchDir dir{"ledger-window-test"};
};

TEST(LedgerWindow, KeepsTheOpenAndRecentlyEndedRecordsAndTheLatestBootsAsTheWholeLedgerSays)
{
    Ledger ledger(dir.file("ledger.db"));
    churn(ledger, 400, 7, 5);
}

TEST(LedgerWindow, ReadsAfreshWhenMoreWritesHappenedThanTheLedgerRemembers)
{
    Ledger ledger(dir.file("ledger.db"), 4);
    const std::uint64_t cursor = ledger.change_count();
    for (int i = 0; i < 5; ++i)
        ledger.record_launch_intent(intent("c1", "cpu"), 10);
    CHECK_FALSE(ledger.changed_since(cursor).has_value());
    CHECK_EQUAL(4u, ledger.changed_since(cursor + 1)->size());
    churn(ledger, 300, 11, 7); // refreshes after 7 writes: never within memory
}

TEST(LedgerWindow, DropsClosedRecordsBehindTheHorizonAndReadsThemAgainWhenItMovesBack)
{
    Ledger ledger(dir.file("ledger.db"));
    const LedgerRecord old = ledger.record_launch_intent(intent("c1", "cpu"), 100);
    ledger.mark_launched(old.token, "i-1", "", 105);
    ledger.mark_running(old.token, 160);
    ledger.mark_terminated(old.token, 500);
    const LedgerRecord live = ledger.record_launch_intent(intent("c2", "cpu"), 900);
    LedgerWindow window(ledger, 8);

    window.refresh(400);
    CHECK_EQUAL(2u, window.records().size());
    window.refresh(600); // the old record ended before it
    CHECK_EQUAL(1u, window.records().size());
    CHECK_EQUAL(live.id, window.records().front().id);
    CHECK_EQUAL(1u, window.boots().size()); // its boot is still the group's latest
    DOUBLES_EQUAL(60, window.boots().front().running_since - window.boots().front().requested_at, 0);
    window.refresh(300); // e.g. a budget with a longer interval after a reload
    CHECK_EQUAL(2u, window.records().size());
}

TEST(LedgerWindow, FindsTheClosedRecordsOfInstancesAProviderStillLists)
{
    Ledger ledger(dir.file("ledger.db"));
    const LedgerRecord r = ledger.record_launch_intent(intent("c1", "cpu"), 100);
    ledger.mark_launched(r.token, "i-gone", "", 105);
    ledger.mark_terminated(r.token, 500);
    ledger.record_launch_intent(intent("c2", "cpu"), 600);
    const auto found = ledger.with_provider_ids({"i-gone", "i-unknown", ""});
    CHECK_EQUAL(1u, found.size());
    CHECK_EQUAL(r.id, found.front().id);
    CHECK_EQUAL(1u, ledger.closed_count());
}
