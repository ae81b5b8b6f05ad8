#include "tools/burstsim/group_spec.hpp"

#include "sim/engine/sim_config.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(GroupSpec){};

TEST(GroupSpec, ReadsEveryKey)
{
    NodeGroup g = parse_group_spec("aws,cpus=8,price=0.4,boot=90,max=20,billing=hour,min_billed=0,speed=1.5,"
                                   "partition=cloud")
                      .group;
    STRCMP_EQUAL("aws", g.name.c_str());
    LONGS_EQUAL(8, g.cpus);
    DOUBLES_EQUAL(0.4, g.price_per_hour, 1e-12);
    DOUBLES_EQUAL(90, g.boot_time, 0);
    LONGS_EQUAL(20, g.max_count);
    CHECK(g.billing == Billing::PerHour);
    DOUBLES_EQUAL(0, g.min_billed, 0);
    DOUBLES_EQUAL(1.5, g.speed, 0);
    STRCMP_EQUAL("cloud", g.partition.c_str());
}

TEST(GroupSpec, MaxTimeIsThePartitionsMaxTime)
{
    DOUBLES_EQUAL(43200, parse_group_spec("aws,cpus=8,price=0.4,boot=90,max_time=43200").max_time, 0);
    DOUBLES_EQUAL(0, parse_group_spec("aws,cpus=8,price=0.4,boot=90").max_time, 0); // none
}

TEST(GroupSpec, AGroupWithoutMaxHasNoQuota)
{
    const NodeGroup g = parse_group_spec("aws,cpus=8,price=0.4,boot=90").group;
    LONGS_EQUAL(0, g.max_count);
    LONGS_EQUAL(NodeGroup::kUnlimited, simulated_node_count(g));
}

TEST(GroupSpec, RejectsBadSpecsNamingTheProblem)
{
    auto message = [](const std::string& spec) -> std::string {
        try {
            parse_group_spec(spec);
        } catch (const GroupSpecError& e) {
            return e.what();
        }
        return "accepted";
    };
    STRCMP_CONTAINS("max='0' is not a number >= 1", message("aws,cpus=8,price=1,boot=60,max=0").c_str());
    CHECK(message("aws,cpus=8,boot=60,max=1").find("price= (price per instance-hour) required") != std::string::npos);
    STRCMP_CONTAINS("cpus= (cores per node), price= (price per instance-hour), boot=", message("aws,max=1").c_str());
    CHECK(message("aws,cpus=8,price=1,max=1").find("boot=") != std::string::npos);
    CHECK(message("aws,price=1,boot=60,max=1").find("cpus=") != std::string::npos);
    STRCMP_CONTAINS("price='-1' is not a number >= 0", message("aws,cpus=8,price=-1,boot=60,max=1").c_str());
    CHECK(message("aws,cpus=0,max=1").find("cpus") != std::string::npos);
    CHECK(message("aws,cpus=2.5,max=1").find("whole") != std::string::npos);
    CHECK(message("aws,max=1,colour=red").find("unknown key 'colour'") != std::string::npos);
    CHECK(message("aws,max=1,max=2").find("twice") != std::string::npos);
    CHECK(message("cpus=8,max=1").find("name") != std::string::npos);
    CHECK(message("aws,max=1,billing=month").find("second or hour") != std::string::npos);
    CHECK(message("aws,max=1,price=-1").find("price") != std::string::npos);
    CHECK(message("aws,max=1,speed=0").find("speed") != std::string::npos);
    STRCMP_CONTAINS("max_time='-60' is not a number >= 0", message("aws,cpus=8,price=1,boot=60,max_time=-60").c_str());
}

TEST(GroupSpec, SpotTakesAnInterruptionRate)
{
    NodeGroup g = parse_group_spec("spotty,cpus=4,price=1,boot=60,max=8,spot=0.05").group;
    CHECK(g.spot);
    DOUBLES_EQUAL(0.05, g.interruptions_per_hour, 1e-12);
    NodeGroup calm = parse_group_spec("calm,cpus=4,price=1,boot=60,max=8,spot=0").group;
    CHECK(calm.spot);
    DOUBLES_EQUAL(0, calm.interruptions_per_hour, 0);
    CHECK_FALSE(parse_group_spec("od,cpus=4,price=1,boot=60,max=8").group.spot);
    CHECK_THROWS(GroupSpecError, parse_group_spec("bad,cpus=4,price=1,boot=60,max=8,spot=-1"));
    CHECK_THROWS(GroupSpecError, parse_group_spec("bad,cpus=4,price=1,boot=60,max=8,spot=often"));
}

TEST(GroupSpec, JitterSpreadsTheGroupsOwnBoots)
{
    GroupSpec slow = parse_group_spec("slow,cpus=4,price=1,boot=60,max=8,jitter=0.5");
    CHECK(slow.boot_jitter.has_value());
    DOUBLES_EQUAL(0.5, *slow.boot_jitter, 0);
    CHECK_FALSE(parse_group_spec("od,cpus=4,price=1,boot=60,max=8").boot_jitter.has_value());
    CHECK_THROWS(GroupSpecError, parse_group_spec("bad,cpus=4,price=1,boot=60,max=8,jitter=-0.1"));
    try {
        parse_group_spec("bad,cpus=4,price=1,boot=60,max=8,jitter=1");
        FAIL("jitter=1 accepted");
    } catch (const GroupSpecError& e) {
        STRCMP_CONTAINS("jitter='1' is not in [0, 1)", e.what());
    }
}

