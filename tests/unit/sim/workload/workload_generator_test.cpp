#include "sim/workload/blast_workload.hpp"
#include "sim/workload/gatk_workload.hpp"
#include "sim/workload/generated_workload.hpp"
#include "sim/scenario/smowton_scenario.hpp"

#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(GatkWorkload){};

TEST(GatkWorkload, StageTimesFollowTableOneAndAmdahl)
{
    DOUBLES_EQUAL(0.35 * 5 + 5.38, gatk_stage_time(kGatkStages[0], 5, 1), 1e-12);
    const double e4 = 3.35 * 6 + 0.53;
    DOUBLES_EQUAL(0.79 * e4 / 4 + 0.21 * e4, gatk_stage_time(kGatkStages[3], 6, 4), 1e-12);
}

TEST(GatkWorkload, StageParametersAndWorkloadDefaultsAreTableOnesLiterals)
{
    // Smowton et al., Table I: a_i, b_i, c_i per pipeline stage.
    const double table[7][3] = {{0.35, 5.38, 0.89}, {2.70, -0.53, 0.02}, {1.74, 3.93, 0.69}, {3.35, 0.53, 0.79},
                                {1.03, 17.86, 0.91}, {0.02, 0.39, 0.25}, {0.01, 5.10, 0.02}};
    LONGS_EQUAL(7, kGatkStages.size());
    for (std::size_t s = 0; s < 7; ++s) {
        DOUBLES_EQUAL(table[s][0], kGatkStages[s].a, 0);
        DOUBLES_EQUAL(table[s][1], kGatkStages[s].b, 0);
        DOUBLES_EQUAL(table[s][2], kGatkStages[s].c, 0);
    }
    const GatkWorkloadSpec spec;
    DOUBLES_EQUAL(3, spec.batch_mean, 0);
    DOUBLES_EQUAL(2, spec.batch_variance, 0);
    DOUBLES_EQUAL(5, spec.size_mean, 0);
    DOUBLES_EQUAL(1, spec.size_variance, 0);
    DOUBLES_EQUAL(10000, spec.duration, 0);
}

TEST(GatkWorkload, PipelinesAreSevenChainedStagesArrivingInPoissonBatches)
{
    GatkWorkloadSpec spec;
    spec.duration = 5000;
    spec.interval = 2.5;
    spec.error = 0;
    spec.seed = 7;
    const GatkWorkload w = generate_gatk(spec);
    LONGS_EQUAL(7 * w.pipelines.size(), w.jobs.size());
    std::map<JobId, const TraceJob*> by_id;
    for (const auto& j : w.jobs)
        by_id[j.id] = &j;
    double size_sum = 0;
    std::map<Time, int> batches;
    for (const auto& p : w.pipelines) {
        LONGS_EQUAL(7, p.stages.size());
        size_sum += p.size;
        ++batches[p.arrival];
        for (std::size_t s = 0; s < 7; ++s) {
            const TraceJob& stage = *by_id.at(p.stages[s]);
            STRCMP_EQUAL(("gatk/stage" + std::to_string(s + 1)).c_str(), stage.category.text().c_str());
            DOUBLES_EQUAL(p.arrival, stage.submit, 0);
            // error=0: the runtime is the model's prediction, in seconds of 60 per TU.
            DOUBLES_EQUAL(std::round(gatk_stage_time(kGatkStages[s], p.size, 1) * 60), stage.runtime, 0);
            CHECK(stage.time_limit > stage.runtime);
            if (s == 0)
                CHECK(stage.parents.empty());
            else {
                LONGS_EQUAL(1, stage.parents.size());
                LONGS_EQUAL(p.stages[s - 1], stage.parents.front());
            }
        }
    }
    // Means over ~2000 arrival events: 3 pipelines per batch, d = 5, 2.5 TU apart.
    const double events = 5000 / 2.5;
    DOUBLES_EQUAL(3.0, double(w.pipelines.size()) / events, 0.1);
    DOUBLES_EQUAL(5.0, size_sum / double(w.pipelines.size()), 0.05);
    DOUBLES_EQUAL(events, double(batches.size()) * 1.01, events * 0.05); // ~1% of batches are empty
}

TEST(GatkWorkload, IsDeterministicPerSeedAndThreadsShortenScalableStages)
{
    GatkWorkloadSpec spec;
    spec.duration = 200;
    const GatkWorkload a = generate_gatk(spec), b = generate_gatk(spec);
    spec.seed = 2;
    const GatkWorkload c = generate_gatk(spec);
    LONGS_EQUAL(a.jobs.size(), b.jobs.size());
    for (std::size_t i = 0; i < a.jobs.size(); ++i) {
        DOUBLES_EQUAL(a.jobs[i].runtime, b.jobs[i].runtime, 0);
        DOUBLES_EQUAL(a.jobs[i].submit, b.jobs[i].submit, 0);
    }
    CHECK(a.jobs.size() != c.jobs.size() || a.jobs[0].runtime != c.jobs[0].runtime);

    GatkWorkloadSpec threaded = parse_gatk_spec("duration=200,error=0,threads=16:1:1:1:1:1:1", 1);
    const GatkWorkload t = generate_gatk(threaded);
    LONGS_EQUAL(16, t.jobs[0].cpus);
    DOUBLES_EQUAL(std::round(gatk_stage_time(kGatkStages[0], t.pipelines[0].size, 16) * 60), t.jobs[0].runtime, 0);
}

TEST(GatkWorkload, SpecRejectsUnknownKeysAndBadValues)
{
    CHECK_THROWS(WorkloadSpecError, parse_gatk_spec("intervall=2", 1));
    CHECK_THROWS(WorkloadSpecError, parse_gatk_spec("threads=1:2", 1));
    CHECK_THROWS(WorkloadSpecError, parse_gatk_spec("interval=-1", 1));
    CHECK_THROWS(WorkloadSpecError, parse_gatk_spec("interval", 1));
    DOUBLES_EQUAL(2.2, parse_gatk_spec("interval=2.2", 1).interval, 0);
}

TEST_GROUP(SmowtonScenario){};

TEST(SmowtonScenario, ColumnsAreThoseGivenInTheirOrderOnceEach)
{
    const SmowtonOptions o = parse_smowton_options("policies=replay:never", 1);
    CHECK((o.policies == std::vector<std::string>{"replay", "never"}));
    CHECK_THROWS(WorkloadSpecError, parse_smowton_options("policies=never:never", 1));
    CHECK_THROWS(WorkloadSpecError, parse_smowton_options("rewards=time:time", 1));
    CHECK_THROWS(WorkloadSpecError, parse_smowton_options("policies=sometimes", 1));
}

TEST(SmowtonScenario, PredictiveParametersAreTheTableOneRewardsInPolicyUnits)
{
    // Table I: private cores at 5 CU/TU, R_penalty 15 CU per TU, R_scale
    // 15000, d at its mean 5.  At 60 s per TU: λ = 5 × 15 CU per TU = 4500
    // CU per hour, reward_scale = 5 × 15000 CU·TU = 4.5e6 CU·s, local price
    // 5 CU/TU = 300 CU per core-hour.
    const SmowtonOptions o;
    DOUBLES_EQUAL(5, o.private_price, 0);
    LONGS_EQUAL(100, o.private_cores);
    DOUBLES_EQUAL(400, o.r_max, 0);
    DOUBLES_EQUAL(15, o.r_penalty, 0);
    DOUBLES_EQUAL(15000, o.r_scale, 0);
    auto value = [](const std::vector<std::string>& params, const std::string& key) {
        std::string found;
        for (const auto& kv : params)
            if (kv.compare(0, key.size() + 1, key + "=") == 0)
                found = kv.substr(key.size() + 1);
        return found;
    };
    const auto time = smowton_predictive_params(o, "time", 60);
    STRCMP_EQUAL("time", value(time, "reward").c_str());
    STRCMP_EQUAL("4500", value(time, "lambda").c_str());
    STRCMP_EQUAL("300", value(time, "local_price").c_str());
    STRCMP_EQUAL("queue", value(time, "benefit").c_str());
    STRCMP_EQUAL("uniform", value(time, "late").c_str());
    STRCMP_EQUAL("0.9", value(time, "max_error").c_str());
    const auto throughput = smowton_predictive_params(o, "throughput", 60);
    STRCMP_EQUAL("throughput", value(throughput, "reward").c_str());
    STRCMP_EQUAL("4500000", value(throughput, "reward_scale").c_str());
    STRCMP_EQUAL("300", value(throughput, "local_price").c_str());
    STRCMP_EQUAL("", value(throughput, "lambda").c_str());
}

TEST(SmowtonScenario, MarginsArePairedSeedBySeed)
{
    SmowtonRow row;
    row.seed_profit = {{10, 112, -86}, {9, 110, -89}};
    // Differences 1, 2, 3: mean 2, standard deviation 1.  Unpaired, the
    // seeds' spread (about 100) would hide them.
    const PairedMargin m = paired_margin(row, 0, 1);
    DOUBLES_EQUAL(2, m.mean, 1e-12);
    DOUBLES_EQUAL(1 / std::sqrt(3.0), m.standard_error, 1e-12);
    DOUBLES_EQUAL(-2, paired_margin(row, 1, 0).mean, 1e-12);

    row.seed_profit = {{10}, {7}};
    const PairedMargin one_seed = paired_margin(row, 0, 1);
    DOUBLES_EQUAL(3, one_seed.mean, 1e-12);
    DOUBLES_EQUAL(0, one_seed.standard_error, 0);
}

TEST(SmowtonScenario, SeveralSeedsPrintPredictivesMarginOverTheBetterBaseline)
{
    SmowtonOptions o = parse_smowton_options(
        "duration=40,reps=3,prices=50,intervals=2,rewards=time,policies=never:always:predictive", 1);
    const std::vector<SmowtonRow> rows = run_smowton(o);
    LONGS_EQUAL(1, rows.size());
    LONGS_EQUAL(3, rows[0].seed_profit[2].size());
    const std::size_t better = rows[0].profit[0] >= rows[0].profit[1] ? 0 : 1;
    std::ostringstream table;
    print_smowton(table, o, rows);
    const std::string text = table.str();
    CHECK(text.find("predictive-baseline (se)") != std::string::npos);
    const PairedMargin m = paired_margin(rows[0], 2, better);
    std::ostringstream cell;
    cell << std::fixed << std::setprecision(1) << m.mean << " (" << m.standard_error << ") "
         << (better == 0 ? "never" : "always") << "\n";
    CHECK_TEXT(text.find(cell.str()) != std::string::npos, text.c_str());

    o.repetitions = 1; // one seed has no spread to report
    std::ostringstream single;
    print_smowton(single, o, run_smowton(o));
    CHECK(single.str().find("predictive-baseline") == std::string::npos);
}

TEST_GROUP(BlastWorkload){};

TEST(BlastWorkload, ThreeStagesOfSplitAlignReduceChainedByBarriers)
{
    const auto jobs = generate_blast(BlastWorkloadSpec{});
    LONGS_EQUAL(200 + 34 + 164 + 6, jobs.size());
    std::map<std::string, int> count;
    for (const auto& j : jobs)
        ++count[j.category.text()];
    LONGS_EQUAL(200, count["blast/stage1-align"]);
    LONGS_EQUAL(34, count["blast/stage2-align"]);
    LONGS_EQUAL(164, count["blast/stage3-align"]);
    // Stage 1's reduce waits for all 200 alignments; stage 2's split for that reduce.
    const TraceJob& reduce1 = jobs[201];
    STRCMP_EQUAL("blast/stage1-reduce", reduce1.category.text().c_str());
    LONGS_EQUAL(200, reduce1.parents.size());
    const TraceJob& split2 = jobs[202];
    STRCMP_EQUAL("blast/stage2-split", split2.category.text().c_str());
    LONGS_EQUAL(1, split2.parents.size());
    LONGS_EQUAL(reduce1.id, split2.parents.front());
    for (const auto& j : jobs)
        if (j.category == "blast/stage2-align")
            CHECK(j.runtime >= 360 && j.runtime <= 440);
}

TEST(BlastWorkload, SpecSetsStagesAndRejectsMismatchedLists)
{
    const BlastWorkloadSpec s = parse_blast_spec("tasks=10:20,align=50:60,cores=2", 1);
    LONGS_EQUAL(2, s.tasks.size());
    LONGS_EQUAL(60, s.align[1]);
    LONGS_EQUAL(10 + 20 + 4, generate_blast(s).size());
    CHECK_THROWS(WorkloadSpecError, parse_blast_spec("tasks=10:20,align=50", 1));
    CHECK_THROWS(WorkloadSpecError, parse_blast_spec("stages=3", 1));
    CHECK_THROWS(WorkloadSpecError, generate_workload("nosuch", 1));
    LONGS_EQUAL(404, generate_workload("blast", 1).jobs.size());
}
