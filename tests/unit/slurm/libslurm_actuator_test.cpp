#include "slurm/libslurm_actuator.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(LibslurmActuator){};

TEST(LibslurmActuator, AcceptsPlainSlurmNames)
{
    CHECK(check_slurm_name("partition", "cloud").empty());
    CHECK(check_slurm_name("node", "gpu-01.a_b").empty());
}

TEST(LibslurmActuator, RefusesNamesSlurmWouldSplitOrMisread)
{
    CHECK(check_slurm_name("partition", "local,cloud").find("contains ','") != std::string::npos);
    CHECK(!check_slurm_name("node", "c[1-2]").empty());
    CHECK(!check_slurm_name("node", "c 1").empty());
    CHECK(check_slurm_name("node", "").find("empty") != std::string::npos);
}

TEST(LibslurmActuator, NamesEachPowerActionAsScontrolDoes)
{
    STRCMP_EQUAL("POWER_UP", std::string(to_string(PowerAction::Up)).c_str());
    STRCMP_EQUAL("POWER_DOWN", std::string(to_string(PowerAction::Down)).c_str());
    STRCMP_EQUAL("POWER_DOWN_FORCE", std::string(to_string(PowerAction::DownForce)).c_str());
    STRCMP_EQUAL("POWER_DOWN_ASAP", std::string(to_string(PowerAction::DownAsap)).c_str());
}

TEST(LibslurmActuator, RefusesAnUnreadableSlurmConf)
{
    CHECK_THROWS(std::invalid_argument,
                 LibslurmActuator("/nonexistent/slurm.conf", [](const std::string&) {}));
}
