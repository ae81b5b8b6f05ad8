#include "policy/budget/spend_tracker.hpp"

#include "ledger/ledger.hpp"

#include <cmath>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

NodeGroup group(const std::string& name, double price, std::uint32_t cpus)
{
    NodeGroup g;
    g.name = name;
    g.price_per_hour = price;
    g.cpus = cpus;
    return g;
}

LedgerRecord record(const std::string& node, const std::string& group, Time launched, Time terminated = 0)
{
    LedgerRecord r;
    r.node = node;
    r.node_group = group;
    r.provider_id = "i-" + node;
    r.requested_at = launched;
    r.launched_at = launched;
    r.state = terminated > 0 ? InstanceState::Terminated : InstanceState::Running;
    r.terminated_at = terminated;
    return r;
}

Job running(JobId id, const std::string& account, std::uint32_t cpus, std::vector<std::string> nodes,
            Time start = 0)
{
    Job j;
    j.id = id;
    j.account = account;
    j.cpus = cpus;
    j.state = JobState::Running;
    j.nodes = std::move(nodes);
    j.start_time = start;
    return j;
}

} // namespace

TEST_GROUP(SpendTracker){};

TEST(SpendTracker, GroupSpendComesFromTheLedgerClippedToTheInterval)
{
    SpendTracker t(3600);
    // 3.6/hour = 0.001/s.  Interval [7200, 10800).
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7000, 7300), record("c2", "cloud", 8000),
                                         record("g1", "gpu", 9000)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4), group("gpu", 36, 8)};
    SpendView v = t.update(9100, billed_spans(records), {}, groups);
    DOUBLES_EQUAL(7200, v.interval_start, 0);
    // c1: 7200..7300 = 100 s; c2: 8000..9100 = 1100 s; g1: 100 s at 0.01/s.
    DOUBLES_EQUAL(1.2, v.groups["cloud"], 1e-9);
    DOUBLES_EQUAL(1.0, v.groups["gpu"], 1e-9);
    DOUBLES_EQUAL(2.2, v.total, 1e-9);
    DOUBLES_EQUAL(2.2, v.accounts[""], 1e-9); // no job seen: nothing attributed
}

TEST(SpendTracker, AccountsShareANodeByCoresAndIdleTimeStaysUnattributed)
{
    SpendTracker t(3600);
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7200)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4)};
    t.update(7300, billed_spans(records), {}, groups); // 100 s idle
    std::vector<Job> jobs = {running(1, "alpha", 2, {"c1"}), running(2, "beta", 1, {"c1"})};
    SpendView v = t.update(7400, billed_spans(records), jobs, groups); // 100 s: half alpha, a quarter beta
    DOUBLES_EQUAL(0.2, v.total, 1e-9);
    DOUBLES_EQUAL(0.05, v.accounts["alpha"], 1e-9);
    DOUBLES_EQUAL(0.025, v.accounts["beta"], 1e-9);
    DOUBLES_EQUAL(0.125, v.accounts[""], 1e-9);
}

JobEnd ended(JobId id, const std::string& account, std::uint32_t cpus, std::vector<std::string> nodes, Time start,
             Time end)
{
    JobEnd e;
    e.id = id;
    e.account = account;
    e.cpus = cpus;
    e.nodes = std::move(nodes);
    e.start_time = start;
    e.end_time = end;
    e.elapsed = end - start;
    return e;
}

// The budget cap commits a job's node to the job until it ends: the part of
// its run after the last update is the job's, not idle time.
TEST(SpendTracker, AJobEndingBetweenTwoUpdatesIsBookedToItsEnd)
{
    SpendTracker t(3600);
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7200)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4)};
    t.update(7300, billed_spans(records), {running(1, "alpha", 4, {"c1"})}, groups);
    t.job_ended(ended(1, "alpha", 4, {"c1"}, 7200, 7340));
    SpendView v = t.update(7400, billed_spans(records), {}, groups);
    DOUBLES_EQUAL(0.14, v.accounts["alpha"], 1e-9); // 7200..7340
    DOUBLES_EQUAL(0.06, v.accounts[""], 1e-9);      // idle after it
    // Once: a later update books nothing more to it.
    v = t.update(7500, billed_spans(records), {}, groups);
    DOUBLES_EQUAL(0.14, v.accounts["alpha"], 1e-9);
    DOUBLES_EQUAL(0.16, v.accounts[""], 1e-9);
}

// Slurm lists a job COMPLETING after its end, and one may start and end
// between two snapshots: each pays for what it ran, once.
TEST(SpendTracker, AJobListedAfterItsEndOrNeverSeenRunningPaysForItsRunOnce)
{
    SpendTracker t(3600);
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7200), record("c2", "cloud", 7200)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4)};
    Job completing = running(1, "alpha", 4, {"c1"});
    t.update(7300, billed_spans(records), {completing}, groups);
    completing.state = JobState::Completing;
    t.job_ended(ended(1, "alpha", 4, {"c1"}, 7200, 7320));
    t.job_ended(ended(2, "beta", 2, {"c2"}, 7310, 7370));
    SpendView v = t.update(7400, billed_spans(records), {completing}, groups);
    DOUBLES_EQUAL(0.12, v.accounts["alpha"], 1e-9);
    DOUBLES_EQUAL(0.03, v.accounts["beta"], 1e-9); // half of c2 for 60 s
    v = t.update(7500, billed_spans(records), {completing}, groups);
    DOUBLES_EQUAL(0.12, v.accounts["alpha"], 1e-9);
    DOUBLES_EQUAL(0.03, v.accounts["beta"], 1e-9);
    DOUBLES_EQUAL(0.6 - 0.15, v.accounts[""], 1e-9);
}

// One job ends and the next starts on its cores between two updates: each
// pays for its own part, and the accounts add up to what the nodes cost.
TEST(SpendTracker, BackToBackJobsOnANodeEachPayForTheirOwnPart)
{
    SpendTracker t(3600);
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7200), record("c2", "cloud", 7200)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4)};
    Job alpha = running(1, "alpha", 4, {"c1"}, 7200);
    t.update(7300, billed_spans(records), {alpha}, groups);
    t.job_ended(ended(1, "alpha", 4, {"c1"}, 7200, 7340));
    Job beta = running(2, "beta", 4, {"c1"}, 7340);
    SpendView v = t.update(7400, billed_spans(records), {beta}, groups);
    DOUBLES_EQUAL(0.14, v.accounts["alpha"], 1e-9);
    DOUBLES_EQUAL(0.06, v.accounts["beta"], 1e-9);
    DOUBLES_EQUAL(0.20, v.accounts[""], 1e-9); // c2, idle
    DOUBLES_EQUAL(0.40, v.total, 1e-9);
}

// A job allocated nodes that boot is listed from the allocation (Slurm sets
// its start to the boot's end only once they are up): it pays for the boot
// even when it ends before the next update.
TEST(SpendTracker, AJobPaysForTheBootOfItsNodesEvenWhenItEndsBeforeTheNextUpdate)
{
    SpendTracker t(3600);
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7250)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4)};
    Job configuring = running(1, "alpha", 4, {"c1"}, 7250);
    t.update(7300, billed_spans(records), {configuring}, groups);
    t.job_ended(ended(1, "alpha", 4, {"c1"}, 7350, 7360)); // booted at 7350
    SpendView v = t.update(7400, billed_spans(records), {}, groups);
    DOUBLES_EQUAL(0.11, v.accounts["alpha"], 1e-9);
    DOUBLES_EQUAL(0.04, v.accounts[""], 1e-9);
}

// Requeued: back to pending with no end (Slurm sends none), or started
// again after its end before the next update.
TEST(SpendTracker, ARequeuedJobPaysUntilItWasSeenPendingAndAgainForItsNewRun)
{
    SpendTracker t(3600);
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7200)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4)};
    Job alpha = running(1, "alpha", 4, {"c1"}, 7200);
    t.update(7300, billed_spans(records), {alpha}, groups);
    Job pending = alpha;
    pending.state = JobState::Pending;
    pending.nodes.clear();
    SpendView v = t.update(7400, billed_spans(records), {pending}, groups);
    DOUBLES_EQUAL(0.2, v.accounts["alpha"], 1e-9); // to the update that found it pending
    alpha.start_time = 7450;
    v = t.update(7500, billed_spans(records), {alpha}, groups);
    DOUBLES_EQUAL(0.25, v.accounts["alpha"], 1e-9);
    t.job_ended(ended(1, "alpha", 4, {"c1"}, 7450, 7520));
    alpha.start_time = 7530; // requeued and running again
    v = t.update(7600, billed_spans(records), {alpha}, groups);
    DOUBLES_EQUAL(0.25 + 0.02 + 0.07, v.accounts["alpha"], 1e-9);
    DOUBLES_EQUAL(0.05 + 0.01, v.accounts[""], 1e-9);
}

TEST(SpendTracker, ANewIntervalStartsFromZero)
{
    SpendTracker t(3600);
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7200)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4)};
    std::vector<Job> jobs = {running(1, "alpha", 4, {"c1"})};
    t.update(7200, billed_spans(records), jobs, groups);
    SpendView before = t.update(10700, billed_spans(records), jobs, groups);
    DOUBLES_EQUAL(3.5, before.accounts["alpha"], 1e-9);
    SpendView after = t.update(10900, billed_spans(records), jobs, groups);
    DOUBLES_EQUAL(10800, after.interval_start, 0);
    DOUBLES_EQUAL(0.1, after.total, 1e-9);
    DOUBLES_EQUAL(0.1, after.accounts["alpha"], 1e-9);
}

TEST(SpendTracker, TheFirstUpdateChargesTheIntervalSoFarToTheJobsRunningThen)
{
    // burstd restarted at 9000: c1 has cost since 7200, and beta's line
    // must not get that hour and a half to spend again.
    SpendTracker t(3600);
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7000)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4)};
    SpendView v = t.update(9000, billed_spans(records), {running(1, "beta", 2, {"c1"})}, groups);
    DOUBLES_EQUAL(1.8, v.total, 1e-9);
    DOUBLES_EQUAL(0.9, v.accounts["beta"], 1e-9);
    DOUBLES_EQUAL(0.9, v.accounts[""], 1e-9);
}

TEST(SpendTracker, AfterARestartItCarriesOnFromItsBookingAndSplitsOnlyTheTimeSince)
{
    // alpha's job ran on c1 from 7200 to 7800 and ended; burstd stopped at
    // 8000 and started again at 8200, beta's job running on c1 since 7900.
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7200)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4)};
    SpendTracker before(3600);
    before.update(7500, billed_spans(records), {running(1, "alpha", 4, {"c1"})}, groups);
    before.job_ended(ended(1, "alpha", 4, {"c1"}, 7200, 7800));
    Job beta = running(2, "beta", 4, {"c1"}, 7900);
    before.update(8000, billed_spans(records), {beta}, groups);
    const SpendBooking kept = before.booking();
    DOUBLES_EQUAL(7200, kept.interval_start, 0);
    DOUBLES_EQUAL(8000, kept.booked_until, 0);
    DOUBLES_EQUAL(0.6, kept.accounts.at("alpha"), 1e-9);
    DOUBLES_EQUAL(0.1, kept.accounts.at("beta"), 1e-9);

    SpendTracker after(3600);
    after.resume(kept);
    SpendView v = after.update(8200, billed_spans(records), {beta}, groups);
    DOUBLES_EQUAL(1.0, v.total, 1e-9);
    DOUBLES_EQUAL(0.6, v.accounts["alpha"], 1e-9); // its line stays spent
    DOUBLES_EQUAL(0.3, v.accounts["beta"], 1e-9);  // 7900..8200, once
    DOUBLES_EQUAL(0.1, v.accounts[""], 1e-9);      // 7800..7900 idle

    // Without the booking the restart splits 7200..8200 over beta's job:
    // alpha could spend its 0.6 again.
    SpendTracker guessed(3600);
    v = guessed.update(8200, billed_spans(records), {beta}, groups);
    DOUBLES_EQUAL(0, v.accounts["alpha"], 1e-9);
}

TEST(SpendTracker, ABookingOfAnEndedIntervalOrAnotherLengthIsNotResumed)
{
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7200)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4)};
    const SpendBooking last_hour{3600, 7200, 10700, {{"alpha", 3.5}}};
    SpendTracker t(3600);
    t.resume(last_hour);
    SpendView v = t.update(10900, billed_spans(records), {running(1, "beta", 4, {"c1"})}, groups);
    DOUBLES_EQUAL(10800, v.interval_start, 0);
    CHECK(v.accounts.count("alpha") == 0);
    DOUBLES_EQUAL(0.1, v.accounts["beta"], 1e-9);

    // An hourly booking of the first hour of the day: the day's tracker
    // would be in the same interval but for the length.
    SpendTracker daily(86400);
    daily.resume(SpendBooking{3600, 0, 3000, {{"alpha", 1.8}}});
    v = daily.update(3600, billed_spans(records), {}, groups);
    CHECK(v.accounts.count("alpha") == 0);

    // Only before the first update.
    SpendTracker running_on(3600);
    running_on.update(7300, billed_spans(records), {running(1, "beta", 4, {"c1"})}, groups);
    running_on.resume(SpendBooking{3600, 7200, 7300, {{"alpha", 5}}});
    v = running_on.update(7400, billed_spans(records), {running(1, "beta", 4, {"c1"})}, groups);
    CHECK(v.accounts.count("alpha") == 0);
    DOUBLES_EQUAL(0.2, v.accounts["beta"], 1e-9);
}

TEST(SpendTracker, AClockBehindTheBookingBooksNoTimeTwice)
{
    // The booking went up to 8000; burstd starts again with its clock at
    // 7900, then at 8000 and 8100.  Only 8000..8100 is new.
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7200)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4)};
    const std::vector<Job> jobs = {running(1, "bio", 4, {"c1"})};
    SpendTracker t(3600);
    t.resume(SpendBooking{3600, 7200, 8000, {{"bio", 0.8}}});
    t.update(7900, billed_spans(records), jobs, groups);
    SpendView v = t.update(8000, billed_spans(records), jobs, groups);
    DOUBLES_EQUAL(0.8, v.accounts["bio"], 1e-9);
    v = t.update(8100, billed_spans(records), jobs, groups);
    DOUBLES_EQUAL(0.9, v.accounts["bio"], 1e-9);
    DOUBLES_EQUAL(0.9, v.total, 1e-9);

    // Set back into the previous hour, it keeps the hour it had: what the
    // ledger kept is not cleared (and cleared again when the clock steps on).
    SpendTracker back(3600);
    back.resume(SpendBooking{3600, 7200, 8000, {{"bio", 0.8}}});
    v = back.update(7000, billed_spans(records), jobs, groups);
    DOUBLES_EQUAL(7200, v.interval_start, 0);
    DOUBLES_EQUAL(0.8, v.accounts["bio"], 1e-9);
}

TEST(SpendTracker, AJobCompletingWhenFirstSeenIsBookedByItsEndAlone)
{
    // Booked to its end (7800) before a restart, the job is still listed
    // COMPLETING after it: its epilog's time is not booked to it again and
    // again.
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7200)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4)};
    Job completing = running(1, "bio", 4, {"c1"}, 7200);
    completing.state = JobState::Completing;
    SpendTracker t(3600);
    t.resume(SpendBooking{3600, 7200, 8000, {{"bio", 0.6}}});
    t.update(8100, billed_spans(records), {completing}, groups);
    SpendView v = t.update(8200, billed_spans(records), {completing}, groups);
    DOUBLES_EQUAL(0.6, v.accounts["bio"], 1e-9);
    // A job that started and ended between two updates is COMPLETING at the
    // next one too; its end books it.
    Job quick = running(2, "chem", 4, {"c1"}, 8210);
    quick.state = JobState::Completing;
    t.job_ended(ended(2, "chem", 4, {"c1"}, 8210, 8260));
    v = t.update(8300, billed_spans(records), {completing, quick}, groups);
    DOUBLES_EQUAL(0.05, v.accounts["chem"], 1e-9);
    DOUBLES_EQUAL(0.6, v.accounts["bio"], 1e-9);
}

TEST(SpendTracker, ARecordWithoutProviderIdCostsNothing)
{
    SpendTracker t(3600);
    LedgerRecord r = record("c1", "cloud", 7200);
    r.provider_id.clear();
    r.state = InstanceState::Failed;
    SpendView v = t.update(7300, billed_spans({r}), {}, {group("cloud", 3.6, 4)});
    DOUBLES_EQUAL(0, v.total, 0);
}

TEST(SpendTracker, ALostLaunchAnswerBillsFromTheRequest)
{
    SpendTracker t(3600);
    LedgerRecord r = record("c1", "cloud", 0);
    r.requested_at = 7300;
    SpendView v = t.update(7500, billed_spans({r}), {}, {group("cloud", 3.6, 4)});
    DOUBLES_EQUAL(0.2, v.total, 1e-9);
}

TEST(SpendTracker, AJobNamingANodeTwiceIsBookedOnceAndEachLifeOfANodeSplitsOverItsJobs)
{
    SpendTracker t(3600);
    // c1 ended at 7300 and was launched again at 7350: both lives are split
    // over the job running on c1 at the update.
    std::vector<LedgerRecord> records = {record("c1", "cloud", 7200, 7300), record("c1", "cloud", 7350),
                                         record("c2", "cloud", 7200)};
    std::vector<NodeGroup> groups = {group("cloud", 3.6, 4)};
    t.update(7200, billed_spans(records), {}, groups);
    std::vector<Job> jobs = {running(1, "alpha", 4, {"c1", "c2", "c1"})};
    SpendView v = t.update(7400, billed_spans(records), jobs, groups);
    // c1: 100 + 50 s, c2: 200 s; alpha has 4 cores over 3 names = a third of a node on each.
    DOUBLES_EQUAL(0.35, v.total, 1e-9);
    DOUBLES_EQUAL(0.35 / 3, v.accounts["alpha"], 1e-9);
    DOUBLES_EQUAL(0.35 * 2 / 3, v.accounts[""], 1e-9);
}

TEST(SpendTracker, ANodePoweredDownWithinABilledHourCostsToTheHoursEndBookedToNoJob)
{
    SpendTracker t(3600);
    NodeGroup hourly = group("cloud", 3.6, 4);
    hourly.billing = Billing::PerHour;
    // Launched at 9000 and up 600 s, for alpha's job: billed until 12600,
    // past the interval [7200, 10800).
    const std::vector<LedgerRecord> up = {record("c1", "cloud", 9000)};
    const std::vector<LedgerRecord> down = {record("c1", "cloud", 9000, 9600)};
    t.update(9300, billed_spans(up), {running(1, "alpha", 4, {"c1"})}, {hourly});
    SpendView v = t.update(9600, billed_spans(down), {running(1, "alpha", 4, {"c1"})}, {hourly});
    DOUBLES_EQUAL(0.6, v.accounts["alpha"], 1e-9);
    v = t.update(10000, billed_spans(down), {}, {hourly});
    DOUBLES_EQUAL(1.0, v.total, 1e-9);
    DOUBLES_EQUAL(0.6, v.accounts["alpha"], 1e-9);
    DOUBLES_EQUAL(0.4, v.accounts[""], 1e-9);
    // The hour's rest falls in the next interval, and nothing after it.
    DOUBLES_EQUAL(0.2, t.update(11000, billed_spans(down), {}, {hourly}).accounts[""], 1e-9);
    DOUBLES_EQUAL(1.8, t.update(13000, billed_spans(down), {}, {hourly}).total, 1e-9);
}
