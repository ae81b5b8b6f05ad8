#include "provider/provider_factory.hpp"

#include <filesystem>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

BurstdConfig site()
{
    BurstdConfig c;
    c.slurm_conf = "/etc/slurm/slurm.conf";
    c.state_dir = (std::filesystem::temp_directory_path() / "provider_factory_test").string();
    return c;
}

ProviderConfig local(ParamMap params)
{
    ProviderConfig p;
    p.name = "box";
    p.type = "local";
    p.params = std::move(params);
    p.origin = "burstd.conf:7";
    return p;
}

std::string error_of(const ProviderConfig& p)
{
    try {
        make_provider(p, site());
    } catch (const ProviderConfigError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_GROUP(ProviderFactory){};

TEST(ProviderFactory, BuildsLocalWithItsKeysCaseInsensitively)
{
    auto p = make_provider(local({{"bootdelay", "2s"}, {"SlurmdPath", "/bin/true"}}), site());
    STRCMP_EQUAL("local", std::string(p->name()).c_str());
}

TEST(ProviderFactory, RejectsUnknownKeyNamingItAndTheOrigin)
{
    STRCMP_EQUAL("burstd.conf:7: Provider=box: unknown key BootDelai= for Type=local (did you mean BootDelay?); "
                 "known keys: SlurmdPath, StateDir, BootDelay, TerminateGrace, Address, LaunchLatency, TerminateLatency",
                 error_of(local({{"BootDelai", "1"}})).c_str());
}

TEST(ProviderFactory, RejectsBadValues)
{
    STRCMP_EQUAL("burstd.conf:7: Provider=box: BootDelay=soon: expected a duration (e.g. 5, 5s, 2m)",
                 error_of(local({{"BootDelay", "soon"}})).c_str());
    CHECK_TRUE(error_of(local({{"SlurmdPath", "/nonexistent/slurmd"}})).find("is not an executable file") !=
               std::string::npos);
}

TEST(ProviderFactory, RejectsUnavailableTypeListingKnownOnes)
{
    ProviderConfig p = local({});
    p.type = "aws";
    STRCMP_EQUAL("burstd.conf:7: Provider=box: Type=aws is not available in this burstd; known types: local",
                 error_of(p).c_str());
}
