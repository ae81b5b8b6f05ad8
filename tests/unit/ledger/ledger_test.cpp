#include "ledger/ledger.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include "scratch_dir.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
namespace fs = std::filesystem;

namespace {

LaunchIntent intent(const std::string& node)
{
    return LaunchIntent{node, "cpu", "local", "m5.large", false, ""};
}

bool contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

} // namespace

TEST_GROUP(Ledger)
{
    test::ScratchDir dir{"ledger-test"};
    std::string db() const { return (dir.path / "ledger.db").string(); }
};

TEST(Ledger, WalksALaunchThroughItsLifeWithTimestamps)
{
    Ledger ledger(db());
    LedgerRecord r = ledger.record_launch_intent(intent("c1"), 100);
    CHECK(r.state == InstanceState::Requested);
    CHECK(r.token.size() > 20);
    ledger.mark_launched(r.token, "i-1", "", 105);
    ledger.mark_launched(r.token, "i-1", "10.0.0.5", 107);
    ledger.mark_running(r.token, 110);
    ledger.record_terminate_intent(r.token, "idle", 200);
    ledger.mark_terminated(r.token, 205);

    auto got = ledger.find(r.token);
    CHECK(got.has_value());
    CHECK(got->state == InstanceState::Terminated);
    STRCMP_EQUAL("i-1", got->provider_id.c_str());
    STRCMP_EQUAL("10.0.0.5", got->address.c_str());
    STRCMP_EQUAL("local", got->provider.c_str());
    STRCMP_EQUAL("m5.large", got->instance_type.c_str());
    DOUBLES_EQUAL(100, got->requested_at, 0);
    DOUBLES_EQUAL(105, got->launched_at, 0);
    DOUBLES_EQUAL(110, got->running_since, 0);
    DOUBLES_EQUAL(200, got->terminate_requested_at, 0);
    DOUBLES_EQUAL(205, got->terminated_at, 0);
    STRCMP_EQUAL("idle", got->last_error.c_str());
    CHECK_FALSE(got->open());
}

TEST(Ledger, GeneratesADifferentTokenForEveryIntent)
{
    Ledger ledger(db());
    auto a = ledger.record_launch_intent(intent("c1"), 1);
    auto b = ledger.record_launch_intent(intent("c1"), 1);
    CHECK(a.token != b.token);
    CHECK(a.id != b.id);
}

TEST(Ledger, RecordsTheErrorOfAFailedLaunch)
{
    Ledger ledger(db());
    auto r = ledger.record_launch_intent(intent("c1"), 1);
    ledger.mark_failed(r.token, "capacity: InsufficientInstanceCapacity", 2);
    auto got = ledger.find(r.token);
    CHECK(got->state == InstanceState::Failed);
    STRCMP_EQUAL("capacity: InsufficientInstanceCapacity", got->last_error.c_str());
    CHECK_FALSE(got->open());
}

TEST(Ledger, RefusesTransitionsThatSkipOrReverseStates)
{
    Ledger ledger(db());
    auto r = ledger.record_launch_intent(intent("c1"), 1);
    CHECK_THROWS(LedgerError, ledger.mark_running(r.token, 2));
    CHECK_THROWS(LedgerError, ledger.mark_launched(r.token, "", "", 2));
    ledger.mark_launched(r.token, "i-1", "", 2);
    CHECK_THROWS(LedgerError, ledger.mark_launched(r.token, "i-2", "", 3));
    ledger.mark_terminated(r.token, 4);
    ledger.mark_terminated(r.token, 5); // repeating is harmless
    CHECK_THROWS(LedgerError, ledger.mark_failed(r.token, "late", 6));
    CHECK_THROWS(LedgerError, ledger.record_terminate_intent(r.token, "", 6));
    CHECK_THROWS(LedgerError, ledger.mark_launched(r.token, "i-1", "", 6));
    DOUBLES_EQUAL(4, ledger.find(r.token)->terminated_at, 0);
}

TEST(Ledger, ExplainsARefusalWithTheTokenAndCurrentState)
{
    Ledger ledger(db());
    auto r = ledger.record_launch_intent(intent("c1"), 1);
    ledger.mark_launched(r.token, "i-1", "", 2);
    try {
        ledger.mark_launched(r.token, "i-2", "", 3);
        FAIL("expected LedgerError");
    } catch (const LedgerError& e) {
        CHECK(contains(e.what(), "already has provider id i-1"));
    }
    try {
        ledger.mark_running("no-such-token", 3);
        FAIL("expected LedgerError");
    } catch (const LedgerError& e) {
        CHECK(contains(e.what(), "unknown token no-such-token"));
        CHECK(contains(e.what(), db()));
    }
}

TEST(Ledger, QueriesByNodeStateAndOpenness)
{
    Ledger ledger(db());
    auto a = ledger.record_launch_intent(intent("c1"), 1);
    auto b = ledger.record_launch_intent(intent("c2"), 2);
    auto c = ledger.record_launch_intent(intent("c1"), 3);
    ledger.mark_failed(a.token, "x", 4);
    ledger.mark_launched(b.token, "i-b", "", 5);

    auto c1 = ledger.for_node("c1");
    LONGS_EQUAL(2, c1.size());
    STRCMP_EQUAL(a.token.c_str(), c1[0].token.c_str());
    STRCMP_EQUAL(c.token.c_str(), c1[1].token.c_str());
    LONGS_EQUAL(1, ledger.in_state(InstanceState::Launching).size());
    LONGS_EQUAL(1, ledger.in_state(InstanceState::Requested).size());
    LONGS_EQUAL(2, ledger.open_records().size());
    LONGS_EQUAL(3, ledger.all().size());
}

TEST(Ledger, KeepsEverythingAcrossCloseAndReopen)
{
    std::string token;
    {
        Ledger ledger(db());
        auto r = ledger.record_launch_intent(intent("c7"), 10);
        ledger.mark_launched(r.token, "i-7", "127.0.0.1", 11);
        token = r.token;
    }
    Ledger again(db());
    auto got = again.find(token);
    CHECK(got.has_value());
    CHECK(got->state == InstanceState::Launching);
    STRCMP_EQUAL("c7", got->node.c_str());
    STRCMP_EQUAL("i-7", got->provider_id.c_str());
}

TEST(Ledger, AnIntentSurvivesAProcessThatDiesWithoutClosing)
{
    Ledger before(db()); // the parent holds the ledger open too, like a second reader
    pid_t child = fork();
    if (child == 0) {
        try {
            Ledger ledger(db());
            auto r = ledger.record_launch_intent(intent("c9"), 42);
            std::FILE* f = std::fopen((dir.path / "token").c_str(), "w");
            std::fputs(r.token.c_str(), f);
            std::fclose(f);
        } catch (...) {
            _exit(2);
        }
        _exit(0); // no destructors, no sqlite3_close: a crash as far as SQLite can tell
    }
    int status = 0;
    waitpid(child, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    std::ifstream in(dir.path / "token");
    std::string token;
    in >> token;

    Ledger after(db());
    auto got = after.find(token);
    CHECK(got.has_value());
    CHECK(got->state == InstanceState::Requested);
    STRCMP_EQUAL("c9", got->node.c_str());
    DOUBLES_EQUAL(42, got->requested_at, 0);
}

TEST(Ledger, RejectsALedgerFromANewerBurstdNamingTheFile)
{
    { Ledger ledger(db()); }
    {
        SqliteConnection raw(db(), false);
        raw.exec("UPDATE schema_version SET version = 99");
    }
    try {
        Ledger ledger(db());
        FAIL("expected LedgerError");
    } catch (const LedgerError& e) {
        CHECK(contains(e.what(), db()));
        CHECK(contains(e.what(), "schema version 99"));
        CHECK(contains(e.what(), "newer burstd"));
    }
}

TEST(Ledger, RejectsAFileThatIsNotADatabaseNamingThePath)
{
    {
        std::ofstream out(db());
        out << "this is not sqlite, just some text that is long enough to look like a header..."
            << std::string(4096, 'x');
    }
    try {
        Ledger ledger(db());
        FAIL("expected LedgerError");
    } catch (const LedgerError& e) {
        CHECK(contains(e.what(), db()));
        CHECK(contains(e.what(), "not a database"));
    }
}

TEST(Ledger, RejectsAnotherProgramsSqliteDatabase)
{
    {
        SqliteConnection raw(db(), true);
        raw.exec("CREATE TABLE cookies (name TEXT)");
    }
    try {
        Ledger ledger(db());
        FAIL("expected LedgerError");
    } catch (const LedgerError& e) {
        CHECK(contains(e.what(), "not a burstd ledger"));
    }
}

TEST(Ledger, RejectsAPathInAMissingDirectory)
{
    CHECK_THROWS(LedgerError, Ledger((dir.path / "missing" / "ledger.db").string()));
}

TEST(Ledger, NamesEveryStateAndParsesItBack)
{
    for (InstanceState s : {InstanceState::Requested, InstanceState::Launching, InstanceState::Running,
                            InstanceState::Terminating, InstanceState::Terminated, InstanceState::Failed})
        CHECK(parse_instance_state(to_string(s)) == s);
    CHECK_FALSE(parse_instance_state("exploded").has_value());
}

TEST(Ledger, KeepsOpenBreakersAndForgetsClosedOnes)
{
    {
        Ledger ledger(db());
        ledger.save_breaker(BreakerRecord{"cloud", "open", "quota", "quota: VcpuLimitExceeded", 5000, 600, 2, 1});
        ledger.save_breaker(BreakerRecord{"gpu", "half-open", "capacity", "capacity: none", 4000, 60, 1, 1});
        ledger.save_breaker(BreakerRecord{"gpu", "closed", "none", "", 0, 0, 1, 1});
    }
    Ledger after(db());
    auto b = after.breakers();
    LONGS_EQUAL(1, b.size());
    STRCMP_EQUAL("cloud", b[0].node_group.c_str());
    STRCMP_EQUAL("open", b[0].state.c_str());
    STRCMP_EQUAL("quota", b[0].cause.c_str());
    STRCMP_EQUAL("quota: VcpuLimitExceeded", b[0].reason.c_str());
    DOUBLES_EQUAL(5000, b[0].open_until, 0);
    DOUBLES_EQUAL(600, b[0].cool_down, 0);
    LONGS_EQUAL(2, b[0].opened);
}

TEST(Ledger, RecordsTheZoneOfEveryLaunch)
{
    Ledger ledger(db());
    const std::string a =
        ledger.record_launch_intent(LaunchIntent{"c1", "cloud", "gcp", "n2-standard-2", false, "us-central1-b"}, 7)
            .token;
    const std::string b = ledger.record_launch_intent(intent("c2"), 8).token;
    STRCMP_EQUAL("us-central1-b", ledger.find(a)->zone.c_str());
    STRCMP_EQUAL("", ledger.find(b)->zone.c_str());
    ledger.mark_launched(a, "projects/p/zones/us-central1-b/instances/c1", "10.0.0.1", 9);
    STRCMP_EQUAL("us-central1-b", ledger.for_node("c1").at(0).zone.c_str());
}

TEST(Ledger, MigratesAVersionOneLedgerKeepingItsRecords)
{
    std::string token;
    {
        Ledger ledger(db());
        token = ledger.record_launch_intent(LaunchIntent{"c1", "cloud", "aws", "c5.large", false, ""}, 7).token;
    }
    {
        SqliteConnection raw(db(), false);
        raw.exec("DROP TABLE group_breakers");
        raw.exec("ALTER TABLE instances DROP COLUMN zone");
        raw.exec("DROP TABLE spend_accounts");
        raw.exec("DROP TABLE spend_intervals");
        raw.exec("DROP TABLE thread_scaling");
        raw.exec("DROP TABLE scavenger_jobs");
        raw.exec("UPDATE schema_version SET version = 1");
    }
    Ledger ledger(db());
    CHECK(ledger.find(token).has_value());
    STRCMP_EQUAL("", ledger.find(token)->zone.c_str()); // recorded before zones: the provider's default
    CHECK(ledger.breakers().empty());
    ledger.save_breaker(BreakerRecord{"cloud", "open", "boot", "boot: never registered", 100, 60, 1, 0});
    LONGS_EQUAL(1, ledger.breakers().size());
    CHECK(ledger.spend_bookings().empty());
    ledger.save_spend_bookings({SpendBooking{3600, 7200, 7300, {{"bio", 0.1}}}});
    LONGS_EQUAL(1, ledger.spend_bookings().size());
    CHECK(ledger.thread_scaling().empty());
    ledger.save_thread_scaling({{"00000000000000aa", "model text"}});
    LONGS_EQUAL(1, ledger.thread_scaling().size());
    CHECK(ledger.scavengers().empty());
    ledger.save_scavenger(ScavengerRecord{42, {"local", "cloud"}, false, "", 0});
    LONGS_EQUAL(1, ledger.scavengers().size());
    SqliteConnection raw(db(), false);
    auto v = raw.prepare("SELECT version FROM schema_version");
    CHECK(v.step());
    LONGS_EQUAL(Ledger::kSchemaVersion, v.integer(0));
    LONGS_EQUAL(6, Ledger::kSchemaVersion);
}

TEST(Ledger, KeepsScavengerJobsPartitionsAndPinsAcrossAReopen)
{
    {
        Ledger ledger(db());
        ledger.save_scavenger(ScavengerRecord{7, {"local", "cloud"}, false, "", 0});
        ledger.save_scavenger(ScavengerRecord{9, {"cloud"}, true, "", 0});
        ledger.save_scavenger(ScavengerRecord{8, {"cloud", "gpu"}, false, "", 0});
        ledger.save_scavenger(ScavengerRecord{9, {"cloud"}, true, "c3", 1234.5}); // pinned since
        ledger.forget_scavengers({8, 99});
    }
    Ledger ledger(db());
    const auto kept = ledger.scavengers();
    LONGS_EQUAL(2, kept.size());
    LONGS_EQUAL(7, kept[0].job);
    LONGS_EQUAL(2, kept[0].asked.size());
    STRCMP_EQUAL("local", kept[0].asked[0].c_str());
    STRCMP_EQUAL("cloud", kept[0].asked[1].c_str());
    CHECK_FALSE(kept[0].held);
    STRCMP_EQUAL("", kept[0].node.c_str());
    LONGS_EQUAL(9, kept[1].job);
    CHECK(kept[1].held);
    STRCMP_EQUAL("c3", kept[1].node.c_str());
    DOUBLES_EQUAL(1234.5, kept[1].pinned_at, 0);
}

TEST(Ledger, RefusesAScavengerPartitionItCouldNotReadBack)
{
    Ledger ledger(db());
    try {
        ledger.save_scavenger(ScavengerRecord{7, {"a,b"}, false, "", 0});
        FAIL("saved");
    } catch (const LedgerError& e) {
        CHECK(contains(e.what(), "scavenger job 7"));
        CHECK(contains(e.what(), "'a,b'"));
    }
    CHECK(ledger.scavengers().empty());
}

TEST(Ledger, KeepsEachCategorysThreadScalingAcrossAReopen)
{
    {
        Ledger ledger(db());
        ledger.save_thread_scaling({{"aa", "1 2 3"}, {"bb", "4 5 6"}});
        ledger.save_thread_scaling({{"aa", "7 8 9"}});
    }
    Ledger ledger(db());
    const auto kept = ledger.thread_scaling();
    LONGS_EQUAL(2, kept.size());
    STRCMP_EQUAL("7 8 9", kept.at("aa").c_str());
    STRCMP_EQUAL("4 5 6", kept.at("bb").c_str());
}

TEST(Ledger, MigratesAVersionThreeLedgerToKeepSpendBookings)
{
    {
        Ledger ledger(db());
        ledger.save_breaker(BreakerRecord{"cloud", "open", "quota", "quota: full", 5000, 600, 1, 0});
    }
    {
        SqliteConnection raw(db(), false);
        raw.exec("DROP TABLE spend_accounts");
        raw.exec("DROP TABLE spend_intervals");
        raw.exec("UPDATE schema_version SET version = 3");
    }
    {
        Ledger ledger(db());
        LONGS_EQUAL(1, ledger.breakers().size());
        CHECK(ledger.spend_bookings().empty());
        ledger.save_spend_bookings({SpendBooking{86400, 0, 900, {{"bio", 0.5}}}});
        DOUBLES_EQUAL(0.5, ledger.spend_bookings().at(0).accounts.at("bio"), 0);
    }
    // A site went back to a version-3 burstd by lowering the version (its
    // man page says how), and forward again: the tables are there already.
    {
        SqliteConnection raw(db(), false);
        raw.exec("UPDATE schema_version SET version = 3");
    }
    Ledger again(db());
    DOUBLES_EQUAL(0.5, again.spend_bookings().at(0).accounts.at("bio"), 0);
}

TEST(Ledger, KeepsTheLastSpendBookingsAcrossCloseAndReopen)
{
    {
        Ledger ledger(db());
        ledger.save_spend_bookings({SpendBooking{3600, 7200, 7300, {{"bio", 0.1}, {"chem", 0.02}}},
                                    SpendBooking{86400, 0, 7300, {}}});
        // Each save replaces the last: the day's booking is gone, the hour's moved on.
        ledger.save_spend_bookings({SpendBooking{3600, 7200, 7400, {{"bio", 0.2}}}});
    }
    Ledger after(db());
    const std::vector<SpendBooking> kept = after.spend_bookings();
    LONGS_EQUAL(1, kept.size());
    DOUBLES_EQUAL(3600, kept[0].interval, 0);
    DOUBLES_EQUAL(7200, kept[0].interval_start, 0);
    DOUBLES_EQUAL(7400, kept[0].booked_until, 0);
    LONGS_EQUAL(1, kept[0].accounts.size());
    DOUBLES_EQUAL(0.2, kept[0].accounts.at("bio"), 0);
    try {
        after.save_spend_bookings({SpendBooking{0, 0, 7500, {}}});
        FAIL("a booking without an interval was kept");
    } catch (const LedgerError& e) {
        CHECK(contains(e.what(), "needs an interval"));
    }
    LONGS_EQUAL(1, after.spend_bookings().size()); // the refused save changed nothing
}

TEST(Ledger, RecentBootsAreTheLastOfEachGroupWhetherOpenOrClosed)
{
    auto record = [](const std::string& group, Time requested, Time running, InstanceState state) {
        LedgerRecord r;
        r.node_group = group;
        r.requested_at = requested;
        r.running_since = running;
        r.state = state;
        return r;
    };
    std::vector<LedgerRecord> records{
        record("a", 100, 200, InstanceState::Terminated), // closed: still a boot
        record("a", 300, 350, InstanceState::Running),
        record("a", 400, 0, InstanceState::Launching),    // not up yet
        record("a", 500, 450, InstanceState::Failed),     // up before asked for: a clock step
        record("a", 0, 20, InstanceState::Terminated),    // oldest up: left out at two per group
        record("b", 10, 70, InstanceState::Terminated),
    };
    std::vector<NodeBoot> boots = recent_boots(records, 2);
    std::sort(boots.begin(), boots.end(), [](const NodeBoot& x, const NodeBoot& y) {
        return x.node_group != y.node_group ? x.node_group < y.node_group : x.running_since < y.running_since;
    });
    LONGS_EQUAL(3, boots.size());
    STRCMP_EQUAL("a", boots[0].node_group.c_str());
    DOUBLES_EQUAL(100, boots[0].requested_at, 0);
    DOUBLES_EQUAL(200, boots[0].running_since, 0);
    DOUBLES_EQUAL(350, boots[1].running_since, 0);
    STRCMP_EQUAL("b", boots[2].node_group.c_str());
    DOUBLES_EQUAL(70, boots[2].running_since, 0);
}
