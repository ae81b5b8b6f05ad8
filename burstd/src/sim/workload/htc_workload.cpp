#include "sim/workload/htc_workload.hpp"

#include <algorithm>
#include <cmath>

namespace burst {
namespace {

constexpr double kDay = 86400;
// Arrivals a workload may hold at most, so that a typo cannot exhaust memory.
constexpr double kMaxJobs = 5e7;

} // namespace

std::vector<TraceJob> generate_htc(const HtcWorkloadSpec& spec)
{
    WorkloadRandom random(spec.seed);
    struct User {
        double mean; // seconds
        Seconds limit;
    };
    std::vector<User> users;
    for (std::uint64_t u = 0; u < spec.users; ++u) {
        // A log-normal factor of mean 1: exp(N(−σ²/2, σ)), σ = 0.5.
        const double mean = spec.mean_hours * 3600 * std::exp(random.normal(-0.125, 0.5));
        users.push_back(User{mean, std::ceil(spec.limit * mean / 3600) * 3600});
    }
    const double rate = spec.jobs_per_day / kDay; // per second, over a day
    const double peak_rate = rate * (1 + spec.amplitude);
    std::vector<TraceJob> jobs;
    jobs.reserve(std::size_t(spec.days * spec.jobs_per_day * 1.1));
    for (double t = random.exponential(1 / peak_rate); t < spec.days * kDay; t += random.exponential(1 / peak_rate)) {
        const double hour = std::fmod(t, kDay) / 3600;
        const double here = rate * (1 + spec.amplitude * std::cos(2 * M_PI * (hour - spec.peak) / 24));
        if (random.uniform() * peak_rate >= here)
            continue;
        const std::uint64_t u = std::min<std::uint64_t>(std::uint64_t(random.uniform() * double(users.size())),
                                                        users.size() - 1);
        const User& user = users[u];
        TraceJob job;
        job.id = JobId(jobs.size() + 1);
        job.submit = std::floor(t);
        job.runtime = std::max(1.0, std::round(std::exp(random.normal(std::log(user.mean) - spec.sigma * spec.sigma / 2,
                                                                      spec.sigma))));
        job.time_limit = user.limit;
        if (random.uniform() < spec.narrow) {
            job.cpus = 1;
        } else {
            const auto k = std::min<std::size_t>(std::size_t(random.uniform() * double(spec.wide.size())),
                                                 spec.wide.size() - 1);
            job.cpus = std::uint32_t(spec.wide[k]);
        }
        job.user = "u" + std::to_string(u + 1);
        job.account = "htc";
        job.partition = "local";
        job.name = "task";
        job.category = "htc/" + job.user;
        jobs.push_back(std::move(job));
    }
    return jobs;
}

HtcWorkloadSpec parse_htc_spec(const std::string& text, std::uint64_t seed)
{
    WorkloadSpec s("htc", text);
    HtcWorkloadSpec spec;
    spec.seed = seed;
    spec.days = s.get_double("days", spec.days, 0.01, 3650);
    spec.jobs_per_day = s.get_double("jobs_per_day", spec.jobs_per_day, 1, 1e7);
    spec.amplitude = s.get_double("amplitude", spec.amplitude, 0, 1);
    spec.peak = s.get_double("peak", spec.peak, 0, 24);
    spec.narrow = s.get_double("narrow", spec.narrow, 0, 1);
    spec.wide = s.get_uint_list("wide", spec.wide, 1, 64, 1, 1024);
    spec.mean_hours = s.get_double("mean_hours", spec.mean_hours, 1.0 / 3600, 24 * 365);
    spec.sigma = s.get_double("sigma", spec.sigma, 0, 4);
    spec.limit = s.get_double("limit", spec.limit, 1, 1000);
    spec.users = s.get_uint("users", spec.users, 1, 1000000);
    s.reject_unread();
    if (spec.days * spec.jobs_per_day > kMaxJobs)
        throw WorkloadSpecError("htc: days × jobs_per_day is " + std::to_string(std::int64_t(spec.days * spec.jobs_per_day)) +
                                " jobs, more than the 50,000,000 a workload may hold");
    return spec;
}

} // namespace burst
