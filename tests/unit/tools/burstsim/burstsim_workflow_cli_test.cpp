#include <string>
#include <vector>

#include "tools/burstsim/burstsim_cli_harness.hpp"

using namespace burst;
using namespace burst::test;

namespace {

std::string shared(const std::string& file)
{
    return std::string(TEST_SRCDIR) + "/tests/data/traces/workflows/" + file;
}

} // namespace

TEST_GROUP(BurstsimWorkflows){};

TEST(BurstsimWorkflows, ReplaysWorkflowArrivalsAndReportsWorkflowSlowdownAndBudget)
{
    Run r = invoke({"--workflow", shared("dax/Montage_25.xml"), "--workflow", shared("montage-chameleon-2mass-005d-001.json"),
                    "--workflow-rate", "30", "--workflow-count", "12", "--workflow-accounts", "u1,u2",
                    "--local-cores", "2", "--cycle", "60", "--group", "s,cpus=1,price=60,boot=30,max=8,min_billed=0",
                    "--group", "l,cpus=1,price=300,boot=30,max=8,min_billed=0,speed=1.5", "--compare", "pfa,always",
                    "--param", "pfa:budget=8", "--param", "pfa:interval=60", "--budget", "8", "--budget-interval",
                    "60"});
    LONGS_EQUAL_TEXT(0, r.status, r.err.c_str());
    CHECK_TEXT(r.out.find("wf_sld") != std::string::npos, r.out.c_str());
    DOUBLES_EQUAL(12, cell(r.out, "pfa", "wfs"), 0);
    DOUBLES_EQUAL(12, cell(r.out, "always", "wfs"), 0);
    CHECK(cell(r.out, "pfa", "wf_sld") >= 1);
    DOUBLES_EQUAL(0, cell(r.out, "pfa", "viol"), 0); // the hard cap holds
    CHECK(cell(r.out, "pfa", "max_spend") <= 8);
    CHECK(cell(r.out, "pfa", "cloud") > 0);
    // Same seed, same numbers.
    Run again = invoke({"--workflow", shared("dax/Montage_25.xml"), "--workflow",
                        shared("montage-chameleon-2mass-005d-001.json"), "--workflow-rate", "30", "--workflow-count",
                        "12", "--workflow-accounts", "u1,u2", "--local-cores", "2", "--cycle", "60", "--group",
                        "s,cpus=1,price=60,boot=30,max=8,min_billed=0", "--group",
                        "l,cpus=1,price=300,boot=30,max=8,min_billed=0,speed=1.5", "--compare", "pfa,always",
                        "--param", "pfa:budget=8", "--param", "pfa:interval=60", "--budget", "8",
                        "--budget-interval", "60"});
    STRCMP_EQUAL(r.out.c_str(), again.out.c_str());
}

TEST(BurstsimWorkflows, RejectsUnusableWorkflowInputs)
{
    Run r = invoke({"--workflow", shared("../SOURCES.md"), "--local-cores", "2"});
    LONGS_EQUAL(1, r.status);
    CHECK_TEXT(r.err.find("unknown workflow format") != std::string::npos, r.err.c_str());
    Run both = invoke({"--workflow", shared("dax/Montage_25.xml"), "--trace", "x.swf", "--local-cores", "2"});
    LONGS_EQUAL(2, both.status);
    Run cores = invoke({"--workflow", shared("dax/Montage_25.xml")});
    LONGS_EQUAL(2, cores.status);
    CHECK_TEXT(cores.err.find("--local-cores") != std::string::npos, cores.err.c_str());
}
