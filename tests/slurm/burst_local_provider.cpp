// Command-line front of LocalProvider for tests/slurm/test_local_provider.sh.
//   burst_local_provider STATE_DIR launch NODE TOKEN [BOOT_DELAY]   prints the provider id
//   burst_local_provider STATE_DIR list                             prints "ID NODE" lines
//   burst_local_provider STATE_DIR terminate ID...
//   burst_local_provider STATE_DIR reclaim ID      kills its slurmd like a spot reclaim
// slurm.conf is $SLURM_CONF; slurmd is /usr/sbin/slurmd or $BURST_SLURMD.
// Instances carry the tags cluster=$CLUSTER_NAME, burstd_id=test.
#include "provider/local/local_provider.hpp"

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

using namespace burst;

int main(int argc, char** argv)
{
    std::vector<std::string> a(argv + 1, argv + argc);
    const char* conf = std::getenv("SLURM_CONF");
    const char* cluster = std::getenv("CLUSTER_NAME");
    if (a.size() < 2 || !conf || !cluster) {
        std::cerr << "usage: SLURM_CONF=... CLUSTER_NAME=... burst_local_provider STATE_DIR "
                     "launch NODE TOKEN [BOOT_DELAY] | list | terminate ID... | reclaim ID\n";
        return 2;
    }
    try {
        LocalProviderConfig config;
        config.slurm_conf = conf;
        config.state_dir = a[0];
        if (const char* slurmd = std::getenv("BURST_SLURMD"))
            config.slurmd_path = slurmd;
        if (a[1] == "launch" && (a.size() == 4 || a.size() == 5))
            config.boot_delay = a.size() == 5 ? std::stod(a[4]) : 0;
        LocalProvider provider(config);
        InstanceTags owner{cluster, "", "test"};
        if (a[1] == "launch" && (a.size() == 4 || a.size() == 5)) {
            LaunchRequest req;
            req.node = a[2];
            req.instance_type = "local";
            req.idempotency_token = a[3];
            req.tags = {cluster, a[2], "test"};
            auto r = provider.launch({req}).at(0);
            if (r.error) {
                std::cerr << to_string(r.error.kind) << ": " << r.error.message << "\n";
                return 1;
            }
            std::cout << r.provider_id << "\n";
            return 0;
        }
        if (a[1] == "list" && a.size() == 2) {
            auto l = provider.list(owner);
            for (const auto& i : l.instances)
                std::cout << i.provider_id << " " << i.node << (i.reclaimed ? " reclaimed" : "") << "\n";
            if (l.error) {
                std::cerr << l.error.message << "\n";
                return 1;
            }
            return 0;
        }
        if (a[1] == "reclaim" && a.size() == 3) {
            if (auto e = provider.reclaim(a[2])) {
                std::cerr << e.message << "\n";
                return 1;
            }
            return 0;
        }
        if (a[1] == "terminate" && a.size() > 2) {
            auto errors = provider.terminate({a.begin() + 2, a.end()});
            for (const auto& [id, e] : errors)
                std::cerr << id << ": " << e.message << "\n";
            return errors.empty() ? 0 : 1;
        }
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    std::cerr << "burst_local_provider: unknown command\n";
    return 2;
}
