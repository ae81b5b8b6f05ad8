#include "provider/local/local_provider.hpp"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <signal.h>
#include <unistd.h>

#include "scratch_dir.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
namespace fs = std::filesystem;

namespace {

// A stand-in for slurmd: records how it was started, then waits to be killed.
void write_script(const fs::path& path, const fs::path& out_dir, bool ignore_term)
{
    std::ofstream s(path);
    s << "#!/bin/sh\n"
      << "node=$4\n"
      // Builtins only before the mask is read: while dash forks and waits for
      // a child it blocks signals itself, which /proc would show.
      << "while read -r key value; do [ \"$key\" = SigBlk: ] && blocked=\"$key\t$value\"; done < /proc/$$/status\n"
      << "{ echo \"pid $$\"; echo \"args $*\"; printf '%b\\n' \"$blocked\";"
      << " echo \"wall $(date +%s.%N)\"; echo \"sid $(cut -d' ' -f6 /proc/$$/stat)\"; } >> " << out_dir.string() << "/$node.started\n"
      << (ignore_term ? "trap '' TERM\n" : "") << "exec sleep 1000\n";
    s.close();
    fs::permissions(path, fs::perms::owner_all);
}

std::string slurp(const fs::path& p)
{
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool wait_for_file(const fs::path& p, double seconds)
{
    for (int i = 0; i < seconds * 50; ++i) {
        if (fs::exists(p) && !slurp(p).empty() && slurp(p).find("sid") != std::string::npos)
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

long started_pid(const fs::path& started)
{
    std::istringstream in(slurp(started));
    std::string word;
    long pid = 0;
    in >> word >> pid;
    return pid;
}

bool contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

LaunchRequest request(const std::string& node, const std::string& token)
{
    LaunchRequest r;
    r.node = node;
    r.instance_type = "local";
    r.idempotency_token = token;
    r.tags = {"lab", node, "burstd-1"};
    return r;
}

const InstanceTags kOwner{"lab", "", "burstd-1"};

} // namespace

TEST_GROUP(LocalProvider)
{
    test::ScratchDir dir{"local-provider-test"};
    fs::path out;
    LocalProviderConfig config;
    std::unique_ptr<LocalProvider> provider;

    void setup() override
    {
        out = dir.path / "out";
        fs::create_directories(out);
        write_script(dir.path / "fake-slurmd", out, false);
        write_script(dir.path / "stubborn-slurmd", out, true);
        config.slurmd_path = (dir.path / "fake-slurmd").string();
        config.slurm_conf = "/etc/test/slurm.conf";
        config.state_dir = (dir.path / "state").string();
        config.terminate_grace = 0.3;
        provider = std::make_unique<LocalProvider>(config);
    }
    void teardown() override
    {
        // Never leave stand-ins running, whatever the test did.
        for (const auto& inst : provider->list(kOwner).instances)
            provider->terminate({inst.provider_id});
        InstanceTags other{"other", "", "burstd-1"};
        for (const auto& inst : provider->list(other).instances)
            provider->terminate({inst.provider_id});
    }
};

TEST(LocalProvider, StartsSlurmdForTheNodeDetachedWithAClearedSignalMask)
{
    sigset_t term, old;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &term, &old); // as slurmctld's ResumeProgram would have it
    auto results = provider->launch({request("c1", "tok-1")});
    pthread_sigmask(SIG_SETMASK, &old, nullptr);

    LONGS_EQUAL(1, results.size());
    CHECK_FALSE(results[0].error);
    STRCMP_EQUAL("c1", results[0].node.c_str());
    STRCMP_EQUAL("127.0.0.1", results[0].address.c_str());
    CHECK(wait_for_file(out / "c1.started", 5));
    std::string started = slurp(out / "c1.started");
    CHECK(contains(started, "args -D -b -N c1 -f /etc/test/slurm.conf"));
    CHECK(contains(started, "SigBlk:\t0000000000000000"));
    long pid = started_pid(out / "c1.started");
    CHECK(contains(started, "sid " + std::to_string(pid))); // leads its own session
    CHECK(getsid(0) != pid);
}

TEST(LocalProvider, ListsLiveInstancesWithTheOwnersTagsOnly)
{
    provider->launch({request("c1", "tok-1"), request("c2", "tok-2")});
    auto theirs = request("c3", "tok-3");
    theirs.tags.cluster = "other";
    provider->launch({theirs});

    auto listed = provider->list(kOwner);
    CHECK_FALSE(listed.error);
    LONGS_EQUAL(2, listed.instances.size());
    for (const auto& i : listed.instances) {
        CHECK(i.node == "c1" || i.node == "c2");
        CHECK(contains(i.provider_id, "local-" + i.node + "-"));
        CHECK_FALSE(i.gone);
    }
    LONGS_EQUAL(1, provider->list({"other", "", "burstd-1"}).instances.size());
    LONGS_EQUAL(0, provider->list({"lab", "", "burstd-2"}).instances.size());
}

TEST(LocalProvider, TheSameTokenNeverStartsASecondProcess)
{
    auto first = provider->launch({request("c1", "tok-1")});
    auto again = provider->launch({request("c1", "tok-1")});
    STRCMP_EQUAL(first[0].provider_id.c_str(), again[0].provider_id.c_str());
    CHECK_FALSE(again[0].error);
    CHECK(wait_for_file(out / "c1.started", 5));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::string started = slurp(out / "c1.started");
    CHECK(started.find("pid") == started.rfind("pid")); // exactly one start
    LONGS_EQUAL(1, provider->list(kOwner).instances.size());
}

TEST(LocalProvider, RefusesATokenReusedForAnotherNode)
{
    provider->launch({request("c1", "tok-1")});
    auto results = provider->launch({request("c2", "tok-1")});
    CHECK(results[0].error.kind == ProviderErrorKind::Invalid);
    CHECK(results[0].provider_id.empty());
}

TEST(LocalProvider, FindsItsInstancesAfterARestart)
{
    auto launched = provider->launch({request("c1", "tok-1")});
    provider.reset();
    provider = std::make_unique<LocalProvider>(config);
    auto listed = provider->list(kOwner);
    LONGS_EQUAL(1, listed.instances.size());
    STRCMP_EQUAL(launched[0].provider_id.c_str(), listed.instances[0].provider_id.c_str());
    auto again = provider->launch({request("c1", "tok-1")});
    STRCMP_EQUAL(launched[0].provider_id.c_str(), again[0].provider_id.c_str());
}

TEST(LocalProvider, WaitsTheBootDelayBeforeStartingSlurmd)
{
    // Longer than the wait for the next wall-clock second can be.
    config.boot_delay = 1.5;
    provider = std::make_unique<LocalProvider>(config);
    auto t0 = std::chrono::steady_clock::now();
    provider->launch({request("c1", "tok-1")});
    LONGS_EQUAL(1, provider->list(kOwner).instances.size()); // exists while "booting"
    CHECK(wait_for_file(out / "c1.started", 5));
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(waited >= 1.5);
}

TEST(LocalProvider, StartsSlurmdInALaterWallClockSecondThanTheLaunch)
{
    // Slurm's boot request came before the launch: a slurmd started in its
    // second could report a boot before it (local_provider.cpp).
    const double launched = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    provider->launch({request("c1", "tok-1")});
    CHECK(wait_for_file(out / "c1.started", 5));
    const std::string started = slurp(out / "c1.started");
    const auto at = started.find("wall ");
    CHECK(at != std::string::npos);
    const double wall = std::stod(started.substr(at + 5));
    CHECK_TEXT(wall >= std::floor(launched) + 1.02, started.c_str());
}

TEST(LocalProvider, TerminateStopsTheProcessAndForgetsIt)
{
    auto launched = provider->launch({request("c1", "tok-1")});
    CHECK(wait_for_file(out / "c1.started", 5));
    long pid = started_pid(out / "c1.started");
    auto errors = provider->terminate({launched[0].provider_id});
    CHECK(errors.empty());
    CHECK(provider->list(kOwner).instances.empty());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    CHECK(line.empty() || contains(line, ") Z "));
    CHECK(provider->terminate({launched[0].provider_id}).empty()); // idempotent
}

TEST(LocalProvider, KillsAProcessThatIgnoresSigterm)
{
    config.slurmd_path = (dir.path / "stubborn-slurmd").string();
    provider = std::make_unique<LocalProvider>(config);
    auto launched = provider->launch({request("c1", "tok-1")});
    CHECK(wait_for_file(out / "c1.started", 5));
    auto t0 = std::chrono::steady_clock::now();
    CHECK(provider->terminate({launched[0].provider_id}).empty());
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(took >= 0.3);
    CHECK(provider->list(kOwner).instances.empty());
}

TEST(LocalProvider, ADeadProcessIsNotListed)
{
    provider->launch({request("c1", "tok-1")});
    CHECK(wait_for_file(out / "c1.started", 5));
    kill(static_cast<pid_t>(started_pid(out / "c1.started")), SIGKILL);
    for (int i = 0; i < 100 && !provider->list(kOwner).instances.empty(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(provider->list(kOwner).instances.empty());
}

TEST(LocalProvider, NeverTouchesAProcessThatMerelyReusedThePid)
{
    auto launched = provider->launch({request("c1", "tok-1")});
    CHECK(wait_for_file(out / "c1.started", 5));
    long pid = started_pid(out / "c1.started");
    fs::path file = fs::path(config.state_dir) / (launched[0].provider_id + ".json");
    std::string text = slurp(file);
    auto at = text.find("\"start_ticks\":\"") + 15;
    text.insert(at, "9"); // the recorded start time no longer matches the process
    std::ofstream(file) << text;

    CHECK(provider->list(kOwner).instances.empty());
    CHECK(provider->terminate({launched[0].provider_id}).empty());
    CHECK(kill(static_cast<pid_t>(pid), 0) == 0); // still alive: not ours to kill
    kill(static_cast<pid_t>(pid), SIGKILL);
}

TEST(LocalProvider, ReportsACorruptStateFileNamingIt)
{
    std::ofstream(fs::path(config.state_dir) / "local-c9-abc.json") << "{not json";
    auto listed = provider->list(kOwner);
    CHECK(listed.error.kind == ProviderErrorKind::Invalid);
    CHECK(contains(listed.error.message, "local-c9-abc.json"));
    auto launched = provider->launch({request("c1", "tok-1")});
    CHECK(launched[0].error.kind == ProviderErrorKind::Invalid); // it might hold this token
}

TEST(LocalProvider, RejectsBadRequestsAndIds)
{
    auto r = provider->launch({request("../c1", "tok-1"), request("c2", "")});
    CHECK(r[0].error.kind == ProviderErrorKind::Invalid);
    CHECK(r[1].error.kind == ProviderErrorKind::Invalid);
    auto errors = provider->terminate({"../../etc/passwd", "local-c1-000000"});
    LONGS_EQUAL(1, errors.size());
    CHECK(errors.count("../../etc/passwd") == 1);
}

TEST(LocalProvider, RejectsAConfigurationMissingItsParts)
{
    LocalProviderConfig bad = config;
    bad.slurmd_path = (dir.path / "no-such-slurmd").string();
    CHECK_THROWS(LocalProviderConfigError, LocalProvider(bad));
    bad = config;
    bad.slurm_conf.clear();
    CHECK_THROWS(LocalProviderConfigError, LocalProvider(bad));
    bad = config;
    bad.state_dir.clear();
    CHECK_THROWS(LocalProviderConfigError, LocalProvider(bad));
    STRCMP_EQUAL("local", std::string(provider->name()).c_str());
}

TEST(LocalProvider, AReclaimedInstanceDiesAndIsListedGoneAndReclaimedUntilTerminated)
{
    auto launched = provider->launch({request("c1", "tok-1")});
    auto other = provider->launch({request("c2", "tok-2")});
    CHECK(wait_for_file(out / "c1.started", 5));
    long pid = started_pid(out / "c1.started");
    CHECK_FALSE(bool(provider->reclaim(launched[0].provider_id)));
    CHECK(kill(static_cast<pid_t>(pid), 0) != 0 ||
          contains(slurp("/proc/" + std::to_string(pid) + "/stat"), ") Z "));
    auto listed = provider->list(kOwner).instances;
    LONGS_EQUAL(2, listed.size());
    for (const auto& i : listed) {
        bool is_c1 = i.provider_id == launched[0].provider_id;
        CHECK_EQUAL(is_c1, i.reclaimed);
        CHECK_EQUAL(is_c1, i.gone);
    }
    CHECK(provider->terminate({launched[0].provider_id}).empty());
    listed = provider->list(kOwner).instances;
    LONGS_EQUAL(1, listed.size());
    STRCMP_EQUAL(other[0].provider_id.c_str(), listed[0].provider_id.c_str());
    CHECK(bool(provider->reclaim("no-such-id")));
    CHECK(bool(provider->reclaim("../x")));
}
