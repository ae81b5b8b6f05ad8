#pragma once
// Reproduction of Smowton et al.'s horizontal-scaling result (eScience
// 2015, section VI-B, Figs. 3-4): on the GATK workload with 100 private
// cores at 5 CU/TU and an unbounded public tier at 20/50/80/110 CU/TU,
// predictive scaling behaves like never-scale at light load, like
// always-scale at heavy load, and at least as well as both in between,
// under both reward schemes.  Profit is the paper's: Σ over pipelines of
// the reward for the whole pipeline's time minus core-time cost on both
// tiers.  `burstsim --scenario smowton` prints the table.
//
// With thread allocators (section VI-C/D, `threads=`), every stage is a
// --threads=auto job whose category's scaling the thread policy knows from
// Table I, and each hiring policy runs with each allocator: "constant" is
// the best constant plan (one count per stage, found by hill-climbing the
// simulated profit over the counts, on seeds of its own), the others are
// burstd's ThreadPolicy= allocators.

#include "sim/workload/gatk_workload.hpp"

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace burst {

struct SmowtonOptions {
    std::vector<double> intervals{3.0, 2.8, 2.6, 2.4, 2.2, 2.0}; // light → heavy
    std::vector<double> prices{20, 50, 80, 110};                 // public CU per core-TU
    std::vector<std::string> rewards{"time", "throughput"};
    // "replay" is predictive with benefit=replay: the queue behind the head is
    // credited only what playing it forward without the head gives it, not
    // the head's whole wait each (the paper's R_loss).
    std::vector<std::string> policies{"never", "always", "predictive", "replay"};
    // Thread allocators: "constant" and the thread policies; none = every
    // stage single-threaded, as in section VI-B.
    std::vector<std::string> allocators;
    std::vector<std::uint32_t> thread_counts{1, 2, 4, 8, 16};
    std::uint64_t plan_seeds = 2; // seeds the best constant plan is climbed on (after the evaluated ones)
    double sharing = 1;
    double duration = 2000;    // TU of arrivals per run (the paper: 10,000)
    std::uint64_t seed = 1;
    std::uint64_t repetitions = 1; // seeds seed, seed+1, ...; profits are averaged
    double error = 0.1;
    // Paper's fixed parameters (Table I).
    double private_price = 5;  // CU per core-TU
    std::uint32_t private_cores = 100;
    double r_max = 400, r_penalty = 15, r_scale = 15000;
    double max_error = 0.9;    // predictive late=uniform window (section VI-E)
    // Extra predictive parameters ("key=value;key=value"), overriding the above.
    std::vector<std::string> predictive_params;
};

// The table's columns: the policies, or each policy with each allocator ("always/greedy").
std::vector<std::string> smowton_columns(const SmowtonOptions& o);

struct SmowtonRow {
    std::string reward;
    double price = 0;
    double interval = 0;
    std::vector<double> profit;      // per TU, one per column, averaged over the seeds
    std::vector<double> cloud_share; // fraction of stage core-time on the public tier
    std::vector<std::vector<double>> seed_profit; // per column, per seed
    std::vector<std::array<std::uint32_t, 7>> constant_plans; // per hiring policy, with the "constant" allocator
};

// Column `p`'s profit minus column `q`'s, paired seed by seed (every column
// of a row runs the same arrivals), and the standard error of that mean
// difference (0 with one seed).  Pairing is what makes a difference of a
// fraction of a percent readable: the seeds' own spread is far larger.
struct PairedMargin {
    double mean = 0;
    double standard_error = 0;
};
PairedMargin paired_margin(const SmowtonRow& row, std::size_t p, std::size_t q);

// "duration=2000,intervals=3:2.5:2,prices=50:80,rewards=time,reps=3,error=0.1,
//  policies=never:predictive,threads=constant:greedy,counts=1:2:4:8:16,plan_seeds=2,sharing=1"
//  (policies: some of the four, in the order given; threads: some of constant,
//  best-constant, greedy, long-term, long-term-adaptive)
SmowtonOptions parse_smowton_options(const std::string& text, std::uint64_t seed);

// The predictive policy's parameters for one reward scheme: the paper's
// reward per pipeline (d = input size) expressed per core of a stage, with
// d at its mean.  The policy pays it on the whole pipeline's time: the
// later stages are in the queue, held by dependencies.
std::vector<std::string> smowton_predictive_params(const SmowtonOptions& o, const std::string& reward, double tu);

// The thread policy's parameters for one reward scheme, as the predictive
// policy's: the reward per stage core with d at its mean.
std::vector<std::string> smowton_thread_params(const SmowtonOptions& o, const std::string& reward, double tu);

std::vector<SmowtonRow> run_smowton(const SmowtonOptions& options);
void print_smowton(std::ostream& out, const SmowtonOptions& options, const std::vector<SmowtonRow>& rows);

} // namespace burst
