// burstd: the slurm-burst daemon.  See burstd(8).

#include "app/config_parser.hpp"
#include "app/daemon.hpp"
#include "app/logger.hpp"

#include <boost/asio/io_context.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

namespace {

constexpr const char* kDefaultConfig = "/etc/slurm/burstd.conf";

void usage(std::ostream& out)
{
    out << "usage: burstd [-f FILE] [--check-config]\n"
           "  -f FILE          configuration file (default " << kDefaultConfig << ")\n"
           "  --check-config   report every error in the configuration and exit\n"
           "  -V, --version    print the version and exit\n";
}

} // namespace

int main(int argc, char** argv)
{
    std::string config_path = kDefaultConfig;
    bool check_only = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if ((arg == "-f" || arg == "--config") && i + 1 < argc) {
            config_path = argv[++i];
        } else if (arg == "--check-config") {
            check_only = true;
        } else if (arg == "-V" || arg == "--version") {
            std::cout << "burstd " << PACKAGE_VERSION << "\n";
            return 0;
        } else if (arg == "-h" || arg == "--help") {
            usage(std::cout);
            return 0;
        } else {
            std::cerr << "burstd: unknown argument \"" << arg << "\"\n";
            usage(std::cerr);
            return 2;
        }
    }

    // SIGHUP re-reads the file; an absolute path survives any later chdir.
    std::error_code ec;
    std::filesystem::path absolute = std::filesystem::absolute(config_path, ec);
    if (!ec)
        config_path = absolute.lexically_normal().string();
    burst::ConfigParseResult loaded = burst::load_config(config_path);
    for (const auto& e : loaded.errors)
        std::cerr << e << "\n";
    if (!loaded.ok()) {
        std::cerr << "burstd: " << loaded.errors.size() << " error(s) in " << config_path << "\n";
        return 1;
    }
    if (check_only) {
        const auto& c = loaded.config;
        std::cout << config_path << ": OK: cluster " << c.cluster_name << ", " << c.providers.size() << " providers, "
                  << c.node_groups.size() << " node groups, " << c.policies.size() << " policies, "
                  << c.budgets.size() << " budgets\n";
        return 0;
    }

    // journald stamps each line itself; a terminal or file gets our own stamp.
    burst::Logger log(std::cerr, loaded.config.log_level, std::getenv("JOURNAL_STREAM") == nullptr);
    try {
        boost::asio::io_context io;
        burst::SystemClock clock;
        burst::Daemon daemon(io, config_path, std::move(loaded.config), log, clock);
        daemon.start(true);
        io.run();
        log.info("burstd stopped");
        return 0;
    } catch (const std::exception& e) {
        log.error(std::string("fatal: ") + e.what());
        return 1;
    }
}
