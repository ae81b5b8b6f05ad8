#include "policy/hiring/pfa/token_waves.hpp"

#include "model/job_dependency.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>

namespace burst {
namespace {

// A job held, or over a limit, runs in no wave a node could serve; it still
// holds back the jobs that depend on it.  So does one no group has the
// nodes for.
double weight(const Job& j, const std::function<bool(const Job&)>& served)
{
    return j.burst == BurstOption::Never || (j.blocked() && !j.awaiting_dependency()) || (served && !served(j))
               ? 0.0
               : double(j.total_cpus());
}

// Index of each account among those seen, for one lookup per job of a long
// queue: open addressing over a power-of-two table with an inline FNV-1a
// hash of the (short) name.  std::map's string compares, and std::hash with
// unordered_map's prime modulus, were most of token_waves' time.
class AccountIndex {
public:
    // The account's index, numbering new ones 0, 1, 2, ... in first-seen order.
    std::uint32_t operator()(const std::string& account)
    {
        if (2 * (names_.size() + 1) > slots_.size())
            grow();
        std::size_t at = hash(account) & (slots_.size() - 1);
        for (; slots_[at] != kEmpty; at = (at + 1) & (slots_.size() - 1))
            if (same(*names_[slots_[at]], account))
                return slots_[at];
        slots_[at] = std::uint32_t(names_.size());
        names_.push_back(&account);
        return slots_[at];
    }
    const std::vector<const std::string*>& names() const { return names_; }

private:
    static constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();

    static std::uint64_t hash(const std::string& s)
    {
        std::uint64_t h = 14695981039346656037ull;
        for (unsigned char c : s)
            h = (h ^ c) * 1099511628211ull;
        return h ^ (h >> 29);
    }
    // Byte by byte: names are a few characters, shorter than a call to memcmp.
    static bool same(const std::string& a, const std::string& b)
    {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i] != b[i])
                return false;
        return true;
    }
    void grow()
    {
        slots_.assign(std::max<std::size_t>(64, 2 * slots_.size()), kEmpty);
        for (std::uint32_t k = 0; k < names_.size(); ++k) {
            std::size_t at = hash(*names_[k]) & (slots_.size() - 1);
            while (slots_[at] != kEmpty)
                at = (at + 1) & (slots_.size() - 1);
            slots_[at] = k;
        }
    }

    std::vector<std::uint32_t> slots_;
    std::vector<const std::string*> names_;
};

void add(std::vector<double>& waves, std::size_t level, double cores)
{
    if (waves.size() <= level)
        waves.resize(level + 1, 0.0);
    waves[level] += cores;
}

} // namespace

std::map<std::string, std::vector<double>> token_waves(const Snapshot& snapshot,
                                                       const std::function<bool(const Job&)>& served)
{
    std::map<std::string, std::vector<double>> out;
    std::vector<const Job*> jobs;
    jobs.reserve(snapshot.jobs.size());
    // Plain queue demand per account, summed on the same pass in case no job
    // has a dependency.
    AccountIndex account_index;
    std::vector<double> demand;
    std::vector<std::uint32_t> account_of; // per job, into account_index.names()
    account_of.reserve(snapshot.jobs.size());
    bool any_dependency = false;
    for (const auto& j : snapshot.jobs) {
        if (!j.pending() && !j.running())
            continue;
        jobs.push_back(&j);
        any_dependency = any_dependency || (j.pending() && !j.dependency.empty());
        const std::uint32_t a = account_index(j.account);
        if (a == demand.size())
            demand.push_back(0.0);
        account_of.push_back(a);
        demand[a] += weight(j, served);
    }
    const auto& accounts = account_index.names();
    if (!any_dependency) {
        for (std::size_t a = 0; a < accounts.size(); ++a)
            out.emplace(*accounts[a], std::vector<double>{demand[a]});
        return out;
    }
    std::unordered_map<JobId, std::uint32_t> index;
    index.reserve(jobs.size());
    for (std::uint32_t i = 0; i < jobs.size(); ++i)
        index.emplace(jobs[i]->id, i);
    // Kahn's algorithm, each job's wave one past its latest parent's.
    std::vector<std::vector<std::uint32_t>> children(jobs.size());
    std::vector<std::uint32_t> waiting(jobs.size(), 0), level(jobs.size(), 0);
    for (std::uint32_t i = 0; i < jobs.size(); ++i) {
        if (!jobs[i]->pending() || jobs[i]->dependency.empty())
            continue;
        for (JobId p : dependency_job_ids(jobs[i]->dependency)) {
            auto it = index.find(p);
            if (it == index.end() || it->second == i)
                continue; // ended (or a self-reference Slurm would reject)
            children[it->second].push_back(i);
            ++waiting[i];
        }
    }
    std::vector<std::uint32_t> ready;
    for (std::uint32_t i = 0; i < jobs.size(); ++i)
        if (waiting[i] == 0)
            ready.push_back(i);
    // An account shows up once one of its jobs is reached (those on a
    // dependency cycle never are).
    std::vector<std::vector<double>*> waves(accounts.size(), nullptr);
    while (!ready.empty()) {
        const std::uint32_t i = ready.back();
        ready.pop_back();
        std::vector<double>*& w = waves[account_of[i]];
        if (!w)
            w = &out[*accounts[account_of[i]]];
        add(*w, level[i], weight(*jobs[i], served));
        for (auto c : children[i]) {
            level[c] = std::max(level[c], level[i] + 1);
            if (--waiting[c] == 0)
                ready.push_back(c);
        }
    }
    return out;
}

double visited_cores(const std::vector<double>& waves, double depth)
{
    double sum = 0;
    for (std::size_t k = 0; k < waves.size() && double(k) < depth; ++k)
        sum += waves[k];
    return sum;
}

double widest_wave(const std::vector<double>& waves, double depth)
{
    double widest = 0;
    for (std::size_t k = 0; k < waves.size() && double(k) < depth; ++k)
        widest = std::max(widest, waves[k]);
    return widest;
}

} // namespace burst
