#include "sim/priority/priority_spec.hpp"

#include "sim/priority/fair_tree.hpp"

#include "scratch_dir.hpp"

#include <fstream>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(PrioritySpec){};

TEST(PrioritySpec, DefaultsAreSlurmsAndKeysAreSlurmConfNames)
{
    PriorityConfig c;
    c.shares.accounts = {{"x", 5}};
    parse_priority_spec("multifactor", c);
    CHECK(c.type == PriorityType::Multifactor);
    LONGS_EQUAL(0, c.weight_age);
    LONGS_EQUAL(0, c.weight_fairshare);
    LONGS_EQUAL(0, c.weight_jobsize);
    DOUBLES_EQUAL(604800, c.max_age, 0);
    DOUBLES_EQUAL(604800, c.decay_half_life, 0);
    DOUBLES_EQUAL(300, c.calc_period, 0);
    LONGS_EQUAL(1, c.dampening);
    LONGS_EQUAL(5, c.shares.accounts.at("x")); // --shares given before --priority survives
    CHECK(c.fair_tree); // Slurm's default since 19.05

    parse_priority_spec("multifactor:PriorityWeightAge=1000,priorityweightfairshare=10000,PriorityWeightJobSize=7,"
                        "PriorityFavorSmall=yes,PriorityMaxAge=1-12,PriorityDecayHalfLife=2:00:30,"
                        "PriorityCalcPeriod=1:30,FairShareDampeningFactor=3",
                        c);
    LONGS_EQUAL(1000, c.weight_age);
    LONGS_EQUAL(10000, c.weight_fairshare);
    LONGS_EQUAL(7, c.weight_jobsize);
    CHECK(c.favor_small);
    DOUBLES_EQUAL(86400 + 12 * 3600, c.max_age, 0);
    DOUBLES_EQUAL(2 * 3600 + 60, c.decay_half_life, 0); // seconds round up to a minute, as slurmctld does
    DOUBLES_EQUAL(120, c.calc_period, 0);
    LONGS_EQUAL(3, c.dampening);
    CHECK(c.fair_tree);
    parse_priority_spec("multifactor:PriorityFlags=no_fair_tree", c);
    CHECK(!c.fair_tree);
    parse_priority_spec("multifactor:PriorityFlags=", c);
    CHECK(c.fair_tree);

    parse_priority_spec("fifo", c);
    CHECK(c.type == PriorityType::Fifo);
    LONGS_EQUAL(0, c.weight_age);
}

TEST(PrioritySpec, RejectsUnknownTypesKeysAndBadValues)
{
    PriorityConfig c;
    CHECK_THROWS(PrioritySpecError, parse_priority_spec("basic", c));
    CHECK_THROWS(PrioritySpecError, parse_priority_spec("fifo:PriorityWeightAge=1", c));
    CHECK_THROWS(PrioritySpecError, parse_priority_spec("multifactor:PriorityWeightQOS=1", c));
    CHECK_THROWS(PrioritySpecError, parse_priority_spec("multifactor:PriorityWeightAge=-1", c));
    CHECK_THROWS(PrioritySpecError, parse_priority_spec("multifactor:PriorityWeightAge", c));
    CHECK_THROWS(PrioritySpecError, parse_priority_spec("multifactor:PriorityCalcPeriod=0", c));
    CHECK_THROWS(PrioritySpecError, parse_priority_spec("multifactor:PriorityMaxAge=1-x", c));
    CHECK_THROWS(PrioritySpecError, parse_priority_spec("multifactor:PriorityFavorSmall=maybe", c));
    CHECK_THROWS(PrioritySpecError, parse_priority_spec("multifactor:FairShareDampeningFactor=0", c));
    CHECK_THROWS(PrioritySpecError, parse_priority_spec("multifactor:PriorityFlags=FAIR_TREE", c));
    CHECK(c.type == PriorityType::Fifo); // untouched by the failures
}

TEST(PrioritySpec, SharesFromAListOrAFileWithLineNumbersInErrors)
{
    auto s = parse_shares("a=10,b=0,a/alice=2,b/bob=Parent,c=parent");
    LONGS_EQUAL(10, s.accounts.at("a"));
    LONGS_EQUAL(0, s.accounts.at("b"));
    CHECK(s.accounts.at("c") == kFairshareParent);
    LONGS_EQUAL(2, s.users.size());
    LONGS_EQUAL(2, s.users.at({"a", "alice"}));
    CHECK(s.users.at({"b", "bob"}) == kFairshareParent);
    CHECK_THROWS(PrioritySpecError, parse_shares("a=parents"));
    CHECK_THROWS(PrioritySpecError, parse_shares("a/=1"));
    CHECK_THROWS(PrioritySpecError, parse_shares("a/b/c=1"));
    CHECK_THROWS(PrioritySpecError, parse_shares("a/u=1,a/u=2"));
    CHECK_THROWS(PrioritySpecError, parse_shares("a=4294967295"));
    CHECK_THROWS(PrioritySpecError, parse_shares("a=1,a=2"));
    CHECK_THROWS(PrioritySpecError, parse_shares("a"));
    CHECK_THROWS(PrioritySpecError, parse_shares("=3"));
    CHECK_THROWS(PrioritySpecError, parse_shares("a=-1"));

    test::ScratchDir dir("priority_spec");
    const std::string path = dir.file("shares");
    std::ofstream(path) << "# site shares\nphysics = 30\n\nchem=10 # small\n";
    auto f = load_shares_file(path);
    LONGS_EQUAL(2, f.accounts.size());
    LONGS_EQUAL(30, f.accounts.at("physics"));
    LONGS_EQUAL(10, f.accounts.at("chem"));
    std::ofstream(path) << "physics=30\nchem ten\n";
    try {
        load_shares_file(path);
        FAIL("no error");
    } catch (const PrioritySpecError& e) {
        CHECK(std::string(e.what()).find(path + ":2:") != std::string::npos);
    }
    CHECK_THROWS(PrioritySpecError, load_shares_file(dir.file("missing")));
}
