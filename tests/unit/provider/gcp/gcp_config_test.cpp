#include "provider/gcp/gcp_config.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string rejection(const ProviderParams& params)
{
    try {
        GcpProviderConfig::from_params(params);
    } catch (const GcpConfigError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_GROUP(GcpConfig){};

TEST(GcpConfig, ReadsEveryKey)
{
    const auto c = GcpProviderConfig::from_params({{"project", "p1"}, {"Zone", "us-central1-a"},
                                                   {"Template", "global/instanceTemplates/burst"},
                                                   {"MachineType", "n2-standard-8"}, {"BulkInsert", "no"},
                                                   {"TokenSource", "metadata"}, {"OperationWait", "30"},
                                                   {"PollInterval", "0.5"}});
    STRCMP_EQUAL("p1", c.project.c_str());
    STRCMP_EQUAL("us-central1-a", c.zone.c_str());
    STRCMP_EQUAL("global/instanceTemplates/burst", c.instance_template.c_str());
    STRCMP_EQUAL("n2-standard-8", c.machine_type.c_str());
    CHECK(!c.bulk_insert);
    CHECK(c.token_source == GcpTokenSource::Metadata);
    DOUBLES_EQUAL(30, c.operation_wait, 0);
    DOUBLES_EQUAL(0.5, c.poll_interval, 0);
    const auto d = GcpProviderConfig::from_params(
        {{"Project", "p"}, {"Zone", "z"}, {"Image", "projects/debian-cloud/global/images/family/debian-12"},
         {"Network", "global/networks/default"}, {"Subnetwork", "regions/r/subnetworks/s"}});
    CHECK(d.bulk_insert);
    CHECK(d.token_source == GcpTokenSource::ServiceAccount);
    STRCMP_EQUAL("regions/r/subnetworks/s", d.subnetwork.c_str());
}

TEST(GcpConfig, RejectsWithTheKeyNamed)
{
    CHECK(has(rejection({{"Zone", "z"}, {"Template", "t"}}), "Project= is required"));
    CHECK(has(rejection({{"Project", "p"}, {"Template", "t"}}), "Zone= is required"));
    CHECK(has(rejection({{"Project", "p"}, {"Zone", "z"}}), "Template= is required"));
    CHECK(has(rejection({{"Project", "p"}, {"Zone", "z"}, {"Image", "i"}}), "Template= is required"));
    CHECK(has(rejection({{"Project", "p"}, {"Zone", "z"}, {"Template", "t"}, {"Image", "i"}}), "exclude each other"));
    const std::string unknown = rejection({{"Project", "p"}, {"Zone", "z"}, {"Template", "t"}, {"Zones", "x"}});
    CHECK(has(unknown, "unknown key Zones="));
    CHECK(has(unknown, "known keys: Project, Zone"));
    CHECK(has(rejection({{"Project", "p"}, {"Zone", "z"}, {"Template", "t"}, {"BulkInsert", "maybe"}}),
              "BulkInsert=maybe: expected yes or no"));
    CHECK(has(rejection({{"Project", "p"}, {"Zone", "z"}, {"Template", "t"}, {"OperationWait", "2m"}}),
              "OperationWait=2m"));
    CHECK(has(rejection({{"Project", "p"}, {"Zone", "z"}, {"Template", "t"}, {"PollInterval", "0"}}),
              "PollInterval= must be positive"));
    CHECK(has(rejection({{"Project", "p"}, {"Zone", "z"}, {"Template", "t"}, {"TokenSource", "adc"}}),
              "TokenSource=adc"));
}
