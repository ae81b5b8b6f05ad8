#include "model/job.hpp"
#include "model/pending_reason.hpp"

#include <string>
#include <string_view>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(PendingReason){};

TEST(PendingReason, EqualTextsAreOneValue)
{
    const std::string resources = "Resources";
    PendingReason a = "Resources", b = resources, c = std::string_view("Resources"), p = "Priority";
    CHECK(a == b);
    CHECK(a == c);
    CHECK(a != p);
    CHECK(p == PendingReason("Priority"));
    CHECK_FALSE(a.empty());
    LONGS_EQUAL(4, sizeof(PendingReason));
}

TEST(PendingReason, NoReasonIsTheEmptyText)
{
    PendingReason none, empty = "";
    CHECK(none == empty);
    CHECK(none.empty());
    CHECK(none != PendingReason("None")); // Slurm's "None" is a text like any other
    CHECK_FALSE(none.is_dependency());
}

// Slurm's two reasons for a job held back by its dependencies, and only
// those: a reason that merely mentions one, or a shorter prefix, is not.
TEST(PendingReason, OnlyTheDependencyReasonsAreDependencies)
{
    CHECK(PendingReason("Dependency").is_dependency());
    CHECK(PendingReason("DependencyNeverSatisfied").is_dependency());
    for (const char* other : {"Resources", "Priority", "None", "Depend", "dependency", "BadDependency",
                              "JobHeldUser", "BeginTime"})
        CHECK_FALSE_TEXT(PendingReason(other).is_dependency(), other);
}

// What SiteView::of asks of every job: a pending job with a dependency
// reason; a running job keeps no such claim whatever its reason says.
TEST(PendingReason, AJobAwaitsADependencyOnlyWhilePendingWithThatReason)
{
    Job j;
    j.reason = "Dependency";
    CHECK(j.awaiting_dependency());
    j.reason = "Resources";
    CHECK_FALSE(j.awaiting_dependency());
    j.reason = "DependencyNeverSatisfied";
    j.state = JobState::Running;
    CHECK_FALSE(j.awaiting_dependency());
}

// Reasons no free node settles, Slurm 22.05's texts: holds, a begin time
// ahead, dependencies, account and QOS limits, licenses.  Reasons more
// nodes may settle (Reservation: also a job without one whose nodes are
// reserved), a partition's state, limits or Allow lists (a cloud partition
// need not share them) and texts Slurm does not have do not block.
TEST(PendingReason, HoldsBeginTimesAndLimitsBlockAStartWhateverNodesAreFree)
{
    for (const char* block : {"Dependency", "DependencyNeverSatisfied", "JobHeldUser", "JobHeldAdmin",
                              "JobHoldMaxRequeue", "BeginTime", "AssocGrpCpuLimit", "AssociationJobLimit",
                              "AssocMaxJobsLimit", "QOSMaxJobsPerUserLimit", "QOSGrpNodeLimit", "MaxCpuPerAccount",
                              "MaxJobsPerAccount", "Licenses", "ReservationDeleted", "JobArrayTaskLimit",
                              "InvalidQOS", "BurstBufferStageIn"})
        CHECK_TEXT(PendingReason(block).blocks_start(), block);
    for (const char* node : {"Resources", "Priority", "None", "ReqNodeNotAvail", "NodeDown", "PartitionDown",
                             "PartitionNodeLimit", "PartitionTimeLimit", "PowerNotAvail", "BadConstraints",
                             "Reservation", "AccountNotAllowed", "QOSNotAllowed", "MaxMemPerLimit",
                             "MaxCpuPerAccountish", "SomeFutureReason", ""})
        CHECK_FALSE_TEXT(PendingReason(node).blocks_start(), node);
    CHECK(PendingReason("JobHeldUser") != PendingReason("Dependency"));
    CHECK_FALSE(PendingReason("JobHeldUser").is_dependency());
}

TEST(PendingReason, AJobIsBlockedOnlyWhilePending)
{
    Job j;
    j.reason = "JobHeldUser";
    CHECK(j.blocked());
    CHECK_FALSE(j.awaiting_dependency());
    j.reason = "Resources";
    CHECK_FALSE(j.blocked());
    j.reason = "QOSMaxJobsPerUserLimit";
    j.state = JobState::Running;
    CHECK_FALSE(j.blocked());
}
