// burstsim --forecast-eval: the table, and the options' errors.
#include <sstream>
#include <string>
#include <vector>

#include "burstsim_cli_harness.hpp"

using namespace burst::test;

namespace {

// Four local cores kept busy by a long job; every hour for two days, a
// 4-core job for half an hour: it can only run in the cloud.
std::string hourly_trace()
{
    std::string swf = "; MaxProcs: 4\n1 0 0 200000 4 -1 -1 4 200000 -1 1 1 1 1 -1 -1 -1 -1\n";
    for (int hour = 0; hour < 48; ++hour)
        swf += std::to_string(hour + 2) + " " + std::to_string(hour * 3600 + 60) +
               " 0 1800 4 -1 -1 4 1800 -1 1 1 1 1 -1 -1 -1 -1\n";
    return swf;
}

const std::vector<std::string> kSite{"--group", "small,cpus=4,price=0.4,boot=120,max=4", "--policy", "always"};

std::vector<std::string> with_site(const std::string& trace, std::vector<std::string> args)
{
    std::vector<std::string> all{"--trace", trace};
    all.insert(all.end(), kSite.begin(), kSite.end());
    all.insert(all.end(), args.begin(), args.end());
    return all;
}

// The number in column `column` of the forecast table's row for `group` and `forecaster`.
double forecast_cell(const std::string& table, const std::string& group, const std::string& forecaster,
                     const std::string& column)
{
    std::istringstream in(table);
    std::vector<std::string> header;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string x; words >> x;)
            w.push_back(x);
        if (!w.empty() && w[0] == "group")
            header = w;
        else if (w.size() == header.size() && w[0] == group && w[1] == forecaster)
            for (std::size_t i = 2; i < w.size(); ++i)
                if (header[i] == column)
                    return std::stod(w[i]);
    }
    FAIL(("no cell " + group + "/" + forecaster + "/" + column).c_str());
    return 0;
}

} // namespace

TEST_GROUP(BurstsimForecastCli){};

TEST(BurstsimForecastCli, ScoresEveryForecasterAgainstTheBaselinesPerGroup)
{
    TempTrace t(hourly_trace());
    const Run r = invoke(with_site(t.path(), {"--forecast-eval", "--forecast-training", "1d"}));
    LONGS_EQUAL(0, r.status);
    CHECK(r.out.find("forecast evaluation: always run; bucket order gpus,memory,cpus; tick 300 s") !=
          std::string::npos);
    for (const char* forecaster : {"static-max", "last-value", "ewma", "holt-winters", "quantile"})
        CHECK_TEXT(r.out.find("small       " + std::string(forecaster) + " ") != std::string::npos, forecaster);
    // The one job of each hour is one small node for about half the hour
    // (the replay goes on, empty, until the long job ends).
    DOUBLES_EQUAL(1, forecast_cell(r.out, "small", "static-max", "max"), 0);
    DOUBLES_EQUAL(0.5, forecast_cell(r.out, "small", "static-max", "mean"), 0.1);
    // Holding the one node throughout is over by exactly one node whenever
    // it is over (PMSE over the ticks it is over), never under, and over
    // on the ticks without work.
    DOUBLES_EQUAL(1, forecast_cell(r.out, "small", "static-max", "PMSE"), 1e-9);
    DOUBLES_EQUAL(0, forecast_cell(r.out, "small", "static-max", "under"), 0);
    DOUBLES_EQUAL(1 - forecast_cell(r.out, "small", "static-max", "mean"),
                  forecast_cell(r.out, "small", "static-max", "PSE/tick"), 0.01);
    // The last value misses each start and each end of the hour's job by
    // one tick and one node: its MSE is the share of ticks it misses, as
    // often over as under.
    const double over = forecast_cell(r.out, "small", "last-value", "over"),
                 under = forecast_cell(r.out, "small", "last-value", "under");
    CHECK(over > 0.03);
    DOUBLES_EQUAL(over, under, 0.01);
    DOUBLES_EQUAL(over + under, forecast_cell(r.out, "small", "last-value", "MSE"), 0.002);
    // Every forecast of ewma below one node is held as a whole node:
    // rounded, it is over more often than as made.
    CHECK(forecast_cell(r.out, "small", "ewma", "MSE") > forecast_cell(r.out, "small", "ewma", "raw_MSE"));
}

TEST(BurstsimForecastCli, TakesForecastersWithParameters)
{
    TempTrace t(hourly_trace());
    const Run r = invoke(with_site(t.path(), {"--forecast-eval", "--forecast-training", "0", "--forecaster",
                                              "quantile,quantile=0.5", "--forecaster", "ewma,alpha=0.9"}));
    LONGS_EQUAL(0, r.status);
    CHECK(r.out.find("quantile,quantile=0.5") != std::string::npos);
    CHECK(r.out.find("ewma,alpha=0.9") != std::string::npos);
    CHECK(r.out.find("holt-winters") == std::string::npos);
}

TEST(BurstsimForecastCli, RejectsWhatDoesNotApplyAndNamesTheBadValue)
{
    TempTrace t(hourly_trace());
    const Run bad = invoke(with_site(t.path(), {"--forecast-eval", "--forecaster", "ewma,alhpa=0.2"}));
    LONGS_EQUAL(2, bad.status);
    STRCMP_CONTAINS("forecaster 'ewma,alhpa=0.2': ewma: unknown parameter(s) alhpa (did you mean alpha?)",
                    bad.err.c_str());
    const Run order = invoke(with_site(t.path(), {"--forecast-eval", "--bucket-order", "gpus,cpus"}));
    LONGS_EQUAL(2, order.status);
    STRCMP_CONTAINS("--bucket-order: resource order 'gpus,cpus': missing memory", order.err.c_str());
    const Run alone = invoke(with_site(t.path(), {"--forecaster", "ewma"}));
    LONGS_EQUAL(2, alone.status);
    STRCMP_CONTAINS("--forecaster applies only with --forecast-eval", alone.err.c_str());
    const Run compare = invoke({"--trace", t.path(), "--group", "small,cpus=4,price=0.4,boot=120,max=4",
                                "--compare", "never,always", "--forecast-eval"});
    LONGS_EQUAL(2, compare.status);
    STRCMP_CONTAINS("--compare does not apply", compare.err.c_str());
    const Run no_group = invoke({"--trace", t.path(), "--forecast-eval"});
    LONGS_EQUAL(2, no_group.status);
    STRCMP_CONTAINS("give --group or --config", no_group.err.c_str());
    const Run training = invoke(with_site(t.path(), {"--forecast-eval", "--forecast-training", "soon"}));
    LONGS_EQUAL(2, training.status);
    STRCMP_CONTAINS("--forecast-training 'soon': expected a duration", training.err.c_str());
    for (const char* training : {"4w", "1e30"}) {
        const Run too_long = invoke(with_site(t.path(), {"--forecast-eval", "--forecast-training", training}));
        LONGS_EQUAL(1, too_long.status);
        STRCMP_CONTAINS("nothing to score", too_long.err.c_str());
        STRCMP_EQUAL("", too_long.out.c_str()); // no header above the error
    }
    const Run twice =
        invoke(with_site(t.path(), {"--forecast-eval", "--forecaster", "ewma", "--forecaster", "ewma"}));
    LONGS_EQUAL(2, twice.status);
    STRCMP_CONTAINS("--forecaster 'ewma' given twice", twice.err.c_str());
    const Run no_policy = invoke({"--trace", t.path(), "--group", "small,cpus=4,price=0.4,boot=120,max=4",
                                  "--forecast-eval"});
    LONGS_EQUAL(2, no_policy.status);
    STRCMP_CONTAINS("--forecast-eval needs --policy", no_policy.err.c_str());
}
