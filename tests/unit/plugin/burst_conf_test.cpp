#include "../../../plugin/burst_conf.h"
#include "app/config/burstd_config.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

namespace {
std::vector<std::string> warnings;

void collect(void*, const char* msg)
{
    warnings.emplace_back(msg);
}
}  // namespace

TEST_GROUP(BurstConf)
{
    burst_conf conf;
    void setup() override
    {
        warnings.clear();
        burst_conf_defaults(&conf);
    }
};

TEST(BurstConf, DefaultsMatchTheDocumentation)
{
    STRCMP_EQUAL("/run/burstd/snapshot.sock", conf.socket_path);
    UNSIGNED_LONGS_EQUAL(5, conf.export_interval);
    UNSIGNED_LONGS_EQUAL(1000, conf.jobs_per_lock);
    LONGS_EQUAL(0, conf.self_check);
}

TEST(BurstConf, DefaultSocketIsBurstdsDefaultSoNeitherNeedsConfiguring)
{
    STRCMP_EQUAL(burst::BurstdConfig{}.socket_path.c_str(), conf.socket_path);
}

TEST(BurstConf, ExportJobsPerLockIsReadAndBounded)
{
    LONGS_EQUAL(0, burst_conf_parse("ExportJobsPerLock=250\n", "b.conf", &conf, collect, nullptr));
    UNSIGNED_LONGS_EQUAL(250, conf.jobs_per_lock);
    LONGS_EQUAL(3, burst_conf_parse("exportjobsperlock=0\nExportJobsPerLock=1000001\nExportJobsPerLock=many\n",
                                    "b.conf", &conf, collect, nullptr));
    UNSIGNED_LONGS_EQUAL(250, conf.jobs_per_lock);
    LONGS_EQUAL(3, warnings.size());
    STRCMP_CONTAINS("b.conf:1: ExportJobsPerLock: expected jobs 1..1000000, got \"0\"", warnings[0].c_str());
    STRCMP_CONTAINS("b.conf:3: ExportJobsPerLock", warnings[2].c_str());
}

TEST(BurstConf, ExportSelfCheckIsYesOrNo)
{
    LONGS_EQUAL(0, burst_conf_parse("ExportSelfCheck=YES\n", "b.conf", &conf, collect, nullptr));
    LONGS_EQUAL(1, conf.self_check);
    LONGS_EQUAL(1, burst_conf_parse("ExportSelfCheck=1\n", "b.conf", &conf, collect, nullptr));
    LONGS_EQUAL(1, conf.self_check);
    STRCMP_CONTAINS("b.conf:1: ExportSelfCheck: expected yes or no, got \"1\"", warnings[0].c_str());
    LONGS_EQUAL(0, burst_conf_parse("exportselfcheck=no\n", "b.conf", &conf, collect, nullptr));
    LONGS_EQUAL(0, conf.self_check);
}

TEST(BurstConf, ReadsBothKeysCaseInsensitivelyWithCommentsAndBlanks)
{
    const char* text = "# burst.conf\n\n  socketpath = /tmp/b.sock  # here\nExportInterval=30\n";
    LONGS_EQUAL(0, burst_conf_parse(text, "/etc/slurm/burst.conf", &conf, collect, nullptr));
    STRCMP_EQUAL("/tmp/b.sock", conf.socket_path);
    UNSIGNED_LONGS_EQUAL(30, conf.export_interval);
    CHECK(warnings.empty());
}

TEST(BurstConf, UnknownKeyIsReportedWithFileAndLineAndIgnored)
{
    LONGS_EQUAL(1, burst_conf_parse("ExportInterval=7\nColour=blue\n", "b.conf", &conf, collect, nullptr));
    UNSIGNED_LONGS_EQUAL(7, conf.export_interval);
    LONGS_EQUAL(1, warnings.size());
    STRCMP_CONTAINS("b.conf:2", warnings[0].c_str());
    STRCMP_CONTAINS("Colour", warnings[0].c_str());
}

TEST(BurstConf, MalformedValuesKeepTheDefault)
{
    const char* text = "ExportInterval=0\nExportInterval=5s\nExportInterval=-1\nSocketPath=relative.sock\nnonsense\n";
    LONGS_EQUAL(5, burst_conf_parse(text, "b.conf", &conf, collect, nullptr));
    UNSIGNED_LONGS_EQUAL(5, conf.export_interval);
    STRCMP_EQUAL(BURST_CONF_DEFAULT_SOCKET, conf.socket_path);
    STRCMP_CONTAINS("b.conf:1: ExportInterval", warnings[0].c_str());
    STRCMP_CONTAINS("b.conf:4: SocketPath", warnings[3].c_str());
    STRCMP_CONTAINS("b.conf:5: expected Key=Value", warnings[4].c_str());
}

TEST(BurstConf, SocketPathLongerThanSunPathIsRejected)
{
    std::string text = "SocketPath=/" + std::string(200, 'x') + "\n";
    LONGS_EQUAL(1, burst_conf_parse(text.c_str(), "b.conf", &conf, collect, nullptr));
    STRCMP_EQUAL(BURST_CONF_DEFAULT_SOCKET, conf.socket_path);
}

TEST(BurstConf, MissingFileMeansDefaultsWithoutComplaint)
{
    LONGS_EQUAL(0, burst_conf_load("/nonexistent/burst.conf", &conf, collect, nullptr));
    UNSIGNED_LONGS_EQUAL(5, conf.export_interval);
    CHECK(warnings.empty());
}

TEST(BurstConf, LoadsAFile)
{
    char path[] = "/tmp/burst_conf_testXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE* f = fdopen(fd, "w");
    fputs("ExportInterval=12\n", f);
    fclose(f);
    LONGS_EQUAL(0, burst_conf_load(path, &conf, collect, nullptr));
    remove(path);
    UNSIGNED_LONGS_EQUAL(12, conf.export_interval);
}

TEST(BurstConf, PathIsNextToSlurmConf)
{
    char out[256];
    LONGS_EQUAL(0, burst_conf_path_for("/etc/slurm/slurm.conf", out, sizeof(out)));
    STRCMP_EQUAL("/etc/slurm/burst.conf", out);
    LONGS_EQUAL(-1, burst_conf_path_for("/etc/slurm/slurm.conf", out, 8));
}

TEST(BurstConf, InteractiveQosIsAQosNameAndNoneByDefault)
{
    STRCMP_EQUAL("", conf.interactive_qos);
    LONGS_EQUAL(0, burst_conf_parse("InteractiveQOS = interactive\n", "b.conf", &conf, collect, nullptr));
    STRCMP_EQUAL("interactive", conf.interactive_qos);
    const std::string long_name(64, 'q');
    LONGS_EQUAL(3, burst_conf_parse(("InteractiveQOS=a,b\nInteractiveQOS=\nInteractiveQOS=" + long_name + "\n").c_str(),
                                    "b.conf", &conf, collect, nullptr));
    STRCMP_EQUAL("interactive", conf.interactive_qos);
    LONGS_EQUAL(3, warnings.size());
    STRCMP_CONTAINS("b.conf:1: InteractiveQOS: expected a QOS name (up to 63 letters, digits, '-', '_', '.'), got "
                    "\"a,b\"",
                    warnings[0].c_str());
    STRCMP_CONTAINS("b.conf:3: InteractiveQOS", warnings[2].c_str());
}
