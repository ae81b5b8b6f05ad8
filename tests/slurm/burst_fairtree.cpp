// burstsim's Fair Tree (sim/priority/fair_tree.hpp) fed what a real slurmctld shows,
// for tests/slurm/test_fairtree.sh.
//   sshare -a -l -P | burst_fairtree
// Reads the association tree (the Account column's indentation), RawShares
// (a count or parent, for users and accounts alike) and RawUsage, ranks it,
// and prints Account|User|NormShares|EffectvUsage|LevelFS|FairShare in the
// input's order and sshare's number format (FairShare for users only,
// LevelFS not for Fairshare=parent).  Exit 1 on input it cannot read (the
// line and what was expected).
#include "sim/priority/fair_tree.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace burst;

namespace {

std::vector<std::string> split(const std::string& line)
{
    std::vector<std::string> out;
    std::istringstream in(line);
    std::string f;
    while (std::getline(in, f, '|'))
        out.push_back(f);
    if (!line.empty() && line.back() == '|')
        out.emplace_back();
    return out;
}

struct Row {
    std::string account, user;
    std::uint32_t node = 0;
    bool parent_shares = false; // Fairshare=parent: sshare prints no LevelFS
};

std::string number(long double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%f", double(v));
    return buf;
}

} // namespace

int main()
{
    std::string line;
    if (!std::getline(std::cin, line)) {
        std::cerr << "burst_fairtree: no input (expected sshare -a -l -P output)\n";
        return 1;
    }
    std::map<std::string, std::size_t> col;
    const auto header = split(line);
    for (std::size_t i = 0; i < header.size(); ++i)
        col[header[i]] = i;
    for (const char* need : {"Account", "User", "RawShares", "RawUsage"})
        if (!col.count(need)) {
            std::cerr << "burst_fairtree: line 1: no " << need << " column\n";
            return 1;
        }
    FairTree tree;
    std::vector<Row> rows;
    std::vector<double> usage(1, 0);
    std::vector<std::uint32_t> depth_account{FairTree::kRoot}; // account at each depth
    for (std::size_t n = 2; std::getline(std::cin, line); ++n) {
        const auto f = split(line);
        auto fail = [&](const std::string& what) {
            std::cerr << "burst_fairtree: line " << n << ": " << what << ": " << line << "\n";
            return 1;
        };
        if (f.size() < header.size())
            return fail("fewer fields than the header");
        const std::string& indented = f[col["Account"]];
        const std::size_t depth = indented.find_first_not_of(' ');
        if (depth == std::string::npos)
            return fail("empty Account");
        const std::string& shares_text = f[col["RawShares"]];
        Row row{indented.substr(depth), f[col["User"]], FairTree::kRoot, shares_text == "parent"};
        char* end = nullptr;
        errno = 0;
        const double raw_usage = std::strtod(f[col["RawUsage"]].c_str(), &end);
        if (*end != '\0' || errno != 0 || !(raw_usage >= 0))
            return fail("RawUsage is not a number >= 0");
        if (depth == 0) { // root
            if (!rows.empty() || row.account != "root" || !row.user.empty())
                return fail("expected root on the first line only");
            usage[FairTree::kRoot] = raw_usage;
            rows.push_back(row);
            continue;
        }
        std::uint32_t shares = kFairshareParent;
        if (shares_text != "parent") {
            const unsigned long v = std::strtoul(shares_text.c_str(), &end, 10);
            if (shares_text.empty() || *end != '\0' || v >= kFairshareParent)
                return fail("RawShares is neither a count nor parent");
            shares = std::uint32_t(v);
        }
        if (depth > depth_account.size())
            return fail("indented deeper than the account above");
        depth_account.resize(depth); // the parent is the last account one level up
        const std::uint32_t parent = depth_account.back();
        try {
            if (row.user.empty()) {
                row.node = tree.add_account(parent, shares);
                depth_account.push_back(row.node);
            } else {
                row.node = tree.add_user(parent, shares);
            }
        } catch (const std::invalid_argument& e) {
            return fail(e.what());
        }
        usage.push_back(raw_usage);
        rows.push_back(row);
    }
    if (rows.empty()) {
        std::cerr << "burst_fairtree: no association lines\n";
        return 1;
    }
    tree.rank(usage);
    std::cout << "Account|User|NormShares|EffectvUsage|LevelFS|FairShare\n";
    for (const auto& r : rows) {
        if (r.node == FairTree::kRoot)
            continue;
        std::cout << r.account << '|' << r.user << '|' << number(tree.norm_shares(r.node)) << '|'
                  << number(tree.effective_usage(r.node)) << '|'
                  << (r.parent_shares ? "" : number(tree.level_fs(r.node))) << '|'
                  << (r.user.empty() ? "" : number(tree.fairshare_factor(r.node))) << '\n';
    }
    return 0;
}
