#include "policy/budget/budget_split.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

Share association(const std::string& account, const std::string& user, const std::string& parent, double raw)
{
    Share s;
    s.account = account;
    s.user = user;
    s.parent = parent;
    s.raw_shares = raw;
    return s;
}

// An account under root where the snapshot has no root association (as
// burstsim exports them), its Fair Tree factor and raw shares.
Share share(const std::string& account, double raw, double factor)
{
    Share s = association(account, "", "root", raw);
    s.fairshare_factor = factor;
    return s;
}

Share at_parent(const std::string& account, const std::string& user, const std::string& parent)
{
    Share s = association(account, user, parent, 0);
    s.fairshare_parent = true;
    return s;
}

} // namespace

TEST_GROUP(PfaBudgetSplit){};

TEST(PfaBudgetSplit, SplitsByMachineShareTimesFairShareFactorWithFallbacks)
{
    const std::vector<Share> shares = {share("a", 0.6, 0.5), share("b", 0.2, 1.0), share("c", 0.2, 1.0)};
    auto b = split_budget(10, {"a", "b"}, shares, BudgetSplit::FairShare); // weights 0.3, 0.2
    DOUBLES_EQUAL(6, b.at("a"), 1e-12);
    DOUBLES_EQUAL(4, b.at("b"), 1e-12);
    b = split_budget(10, {"a", "b"}, shares, BudgetSplit::Shares); // 0.6, 0.2
    DOUBLES_EQUAL(7.5, b.at("a"), 1e-12);
    b = split_budget(10, {"a", "b"}, shares, BudgetSplit::Equal);
    DOUBLES_EQUAL(5, b.at("a"), 1e-12);
    b = split_budget(10, {"a", "x"}, shares, BudgetSplit::FairShare);
    DOUBLES_EQUAL(10, b.at("a"), 1e-12); // x has no association
    DOUBLES_EQUAL(0, b.at("x"), 0);
    b = split_budget(10, {"a", "b"}, {share("a", 0.5, 0), share("b", 0.5, 0)}, BudgetSplit::FairShare);
    DOUBLES_EQUAL(5, b.at("a"), 1e-12); // every factor 0: by shares
    b = split_budget(10, {"a", "b"}, {}, BudgetSplit::FairShare);
    DOUBLES_EQUAL(5, b.at("b"), 1e-12); // no associations: equally
}

// What a Fair Tree slurmctld exports: accounts with factor 0, users ranked.
// a's users average (1 + 0.75) / 2 = 0.875, b's (0.5 + 0.25) / 2 = 0.375:
// weights 0.5 × 0.875 and 0.5 × 0.375.
TEST(PfaBudgetSplit, UnderFairTreeAnAccountTakesItsUsersMeanFactor)
{
    auto user = [](const std::string& account, const std::string& name, double factor) {
        Share s = share(account, 0.5, factor);
        s.user = name;
        return s;
    };
    const std::vector<Share> shares = {share("a", 0.5, 0), user("a", "x", 1.0), user("a", "y", 0.75),
                                       share("b", 0.5, 0), user("b", "z", 0.5), user("b", "w", 0.25)};
    auto b = split_budget(10, {"a", "b"}, shares, BudgetSplit::FairShare);
    DOUBLES_EQUAL(7, b.at("a"), 1e-12);
    DOUBLES_EQUAL(3, b.at("b"), 1e-12);
    b = split_budget(10, {"a", "b"}, shares, BudgetSplit::Shares);
    DOUBLES_EQUAL(5, b.at("a"), 1e-12);
}

// Under Fair Tree Slurm normalizes shares within a level: theory's
// NormShares is 1/4 of physics', chem's 1/2 of root's.  Of the machine,
// theory holds 1/2 × 1/4.
TEST(PfaBudgetSplit, AnAccountWeighsInWithWhatItsSubtreeHoldsOfTheMachine)
{
    std::vector<Share> shares = {association("root", "", "", 1),       association("physics", "", "root", 50),
                                 association("chem", "", "root", 50),   association("theory", "", "physics", 1),
                                 association("exp", "", "physics", 3),  association("theory", "ann", "theory", 7),
                                 association("chem", "bob", "chem", 1)};
    shares[3].norm_shares = 0.25; // what Slurm sends, unused
    shares[2].norm_shares = 0.5;
    auto b = split_budget(10, {"theory", "chem"}, shares, BudgetSplit::Shares); // 0.125, 0.5
    DOUBLES_EQUAL(2, b.at("theory"), 1e-12);
    DOUBLES_EQUAL(8, b.at("chem"), 1e-12);

    // Jobs in physics itself (user carl, 4 shares beside theory and exp)
    // claim what physics holds less theory's, which theory claims.
    shares.push_back(association("physics", "carl", "physics", 4)); // theory: 0.5 × 1/8
    b = split_budget(10, {"theory", "chem", "physics"}, shares, BudgetSplit::Shares);
    DOUBLES_EQUAL(0.625, b.at("theory"), 1e-12);
    DOUBLES_EQUAL(4.375, b.at("physics"), 1e-12);
    DOUBLES_EQUAL(5, b.at("chem"), 1e-12);
}

// An account at Fairshare=parent hands its users to its parent's level
// (Slurm's level_shares): under root, p's users' 1 + 1 beside a's 2.  Its
// NormShares is root's level over root's shares, 0; its machine share is
// what its users hold.  A user at Fairshare=parent holds no share.
TEST(PfaBudgetSplit, AnAccountAtFairshareParentHoldsWhatItsChildrenHold)
{
    std::vector<Share> shares = {association("root", "", "", 1),  association("a", "", "root", 2),
                                 at_parent("p", "", "root"),      association("p", "x", "p", 1),
                                 association("p", "y", "p", 1),   at_parent("p", "z", "p"),
                                 association("a", "w", "a", 1)};
    auto b = split_budget(10, {"a", "p"}, shares, BudgetSplit::Shares);
    DOUBLES_EQUAL(5, b.at("a"), 1e-12);
    DOUBLES_EQUAL(5, b.at("p"), 1e-12);

    // Two levels down: q (at parent, under b) puts its sub-account r's 3
    // into b's level beside c's 1; a (2) and b (2) split root.
    shares = {association("a", "", "root", 2), association("b", "", "root", 2), at_parent("q", "", "b"),
              association("r", "", "q", 3),    association("c", "", "b", 1)};
    b = split_budget(16, {"a", "r", "c"}, shares, BudgetSplit::Shares); // 1/2, 1/2 × 3/4, 1/2 × 1/4
    DOUBLES_EQUAL(8, b.at("a"), 1e-12);
    DOUBLES_EQUAL(6, b.at("r"), 1e-12);
    DOUBLES_EQUAL(2, b.at("c"), 1e-12);
}

// A snapshot whose accounts name each other as parents must not hang the
// split: the cycle is under no top and holds nothing, as in Slurm, which
// gives an association in no parent's level no shares.
TEST(PfaBudgetSplit, AccountsOnAParentCycleHoldNothing)
{
    const std::vector<Share> shares = {association("a", "", "root", 1), association("x", "", "y", 1),
                                       association("y", "", "x", 1), association("s", "", "s", 1)};
    auto b = split_budget(10, {"a", "x", "y", "s"}, shares, BudgetSplit::Shares);
    DOUBLES_EQUAL(10, b.at("a"), 1e-12); // s, its own parent, is in no parent's level either
    DOUBLES_EQUAL(0, b.at("s"), 0);
    DOUBLES_EQUAL(0, b.at("x"), 0);
    DOUBLES_EQUAL(0, b.at("y"), 0);
}

// With root in the snapshot, an account whose parent is missing is in no
// level (Slurm finds no parent for it) and holds nothing; without root,
// every account whose parent is missing is a top, split by raw shares.
TEST(PfaBudgetSplit, RootIsTheTopWhenTheSnapshotHasIt)
{
    std::vector<Share> shares = {association("root", "", "", 0), association("a", "", "root", 10),
                                 association("o", "", "ghost", 100)};
    auto b = split_budget(10, {"a", "o"}, shares, BudgetSplit::Shares);
    DOUBLES_EQUAL(10, b.at("a"), 1e-12); // root's own 0 shares do not matter: it is the whole machine
    DOUBLES_EQUAL(0, b.at("o"), 0);
    shares.erase(shares.begin());
    b = split_budget(11, {"a", "o"}, shares, BudgetSplit::Shares);
    DOUBLES_EQUAL(1, b.at("a"), 1e-12);
    DOUBLES_EQUAL(10, b.at("o"), 1e-12);
}

// burstsim exports accounts under a root it does not list: an account at
// Fairshare=parent is then a top, and its users split its part among
// themselves (they have no ancestor's level to join).
TEST(PfaBudgetSplit, ATopAtFairshareParentHoldsWhatItsUsersHold)
{
    const std::vector<Share> shares = {share("a", 2, 0), at_parent("p", "", "root"), association("p", "x", "p", 1),
                                       association("p", "y", "p", 1), association("a", "u", "a", 1)};
    auto b = split_budget(10, {"a", "p"}, shares, BudgetSplit::Shares);
    DOUBLES_EQUAL(5, b.at("a"), 1e-12);
    DOUBLES_EQUAL(5, b.at("p"), 1e-12);
}
