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
    LONGS_EQUAL(1, c.zones.size());
    STRCMP_EQUAL("us-central1-a", c.zones[0].c_str());
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
    const auto e = GcpProviderConfig::from_params(
        {{"Project", "p"}, {"Zones", "us-central1-b,us-central1-a"}, {"Template", "t"}});
    LONGS_EQUAL(2, e.zones.size());
    STRCMP_EQUAL("us-central1-b", e.zones[0].c_str());
    STRCMP_EQUAL("us-central1-a", e.zones[1].c_str());
    CHECK(d.token_source == GcpTokenSource::ServiceAccount);
    STRCMP_EQUAL("regions/r/subnetworks/s", d.subnetwork.c_str());
}

TEST(GcpConfig, TheMetadataEndpointIsTheMetadataServerOrLoopback)
{
    const ProviderParams base{{"Project", "p"}, {"Zone", "z"}, {"Template", "t"}, {"TokenSource", "metadata"}};
    STRCMP_EQUAL("http://metadata.google.internal", GcpProviderConfig::from_params(base).metadata_origin.c_str());
    for (const char* ok : {"http://127.0.0.1:8080", "http://[::1]:1", "http://localhost", "http://metadata.google.internal"}) {
        ProviderParams p = base;
        p.emplace_back("MetadataEndpoint", ok);
        STRCMP_EQUAL(ok, GcpProviderConfig::from_params(p).metadata_origin.c_str());
    }
    for (const char* bad : {"http://169.254.169.254", "https://127.0.0.1:80", "http://127.0.0.1:80/x",
                            "http://127.0.0.1.evil.example", "http://127.0.0.1:", "http://localhost:8080x"}) {
        ProviderParams p = base;
        p.emplace_back("MetadataEndpoint", bad);
        CHECK_TEXT(has(rejection(p), "expected http://metadata.google.internal or http://127.0.0.1:PORT"), bad);
    }
    CHECK(has(rejection({{"Project", "p"}, {"Zone", "z"}, {"Template", "t"}, {"MetadataEndpoint", "http://localhost"}}),
              "MetadataEndpoint= is only for TokenSource=metadata"));
}

TEST(GcpConfig, RejectsWithTheKeyNamed)
{
    CHECK(has(rejection({{"Zone", "z"}, {"Template", "t"}}), "Project= is required"));
    CHECK(has(rejection({{"Project", "p"}, {"Template", "t"}}), "Zone= (one zone such as us-central1-a) or Zones="));
    CHECK(has(rejection({{"Project", "p"}, {"Zone", "a"}, {"Zones", "a,b"}, {"Template", "t"}}), "not both"));
    CHECK(has(rejection({{"Project", "p"}, {"Zones", "a,,b"}, {"Template", "t"}}), "Zones=a,,b: expected zone names separated by commas"));
    CHECK(has(rejection({{"Project", "p"}, {"Zones", "a,b,a"}, {"Template", "t"}}), "zone a is named twice"));
    CHECK(has(rejection({{"Project", "p"}, {"Zone", "us/central"}, {"Template", "t"}}), "Zone=us/central"));
    CHECK(has(rejection({{"Project", "p"}, {"Zone", "z"}}), "Template= is required"));
    CHECK(has(rejection({{"Project", "p"}, {"Zone", "z"}, {"Image", "i"}}), "Template= is required"));
    CHECK(has(rejection({{"Project", "p"}, {"Zone", "z"}, {"Template", "t"}, {"Image", "i"}}), "exclude each other"));
    const std::string unknown = rejection({{"Project", "p"}, {"Zone", "z"}, {"Template", "t"}, {"Zome", "x"}});
    CHECK(has(unknown, "unknown key Zome="));
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
