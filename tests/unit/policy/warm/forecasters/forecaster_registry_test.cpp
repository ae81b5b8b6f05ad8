#include "policy/warm/forecasters/forecast_error.hpp"
#include "policy/warm/forecasters/forecaster_registry.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

std::string error_of(const std::string& spec, Seconds tick = 300)
{
    try {
        make_forecaster(spec, tick);
    } catch (const PolicyConfigError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_GROUP(ForecasterRegistry){};

TEST(ForecasterRegistry, BuildsEveryRegisteredForecasterByItsName)
{
    for (const auto& name : forecaster_names())
        STRCMP_EQUAL(name.c_str(), std::string(make_forecaster(name, 300)->name()).c_str());
    CHECK_TRUE(forecaster_listing().find("holt-winters") != std::string::npos);
}

TEST(ForecasterRegistry, BadSpecsSayWhichSpecAndWhichKey)
{
    STRCMP_EQUAL("forecaster 'ewm': unknown forecaster 'ewm' (did you mean ewma?) (known: last-value, ewma, "
                 "holt-winters, quantile)",
                 error_of("ewm").c_str());
    STRCMP_EQUAL("forecaster 'ewma,alpha=2': policy parameter alpha='2': expected a number in (0, 1]",
                 error_of("ewma,alpha=2").c_str());
    STRCMP_EQUAL("forecaster 'ewma,alpha=0': policy parameter alpha='0': expected a number in (0, 1]",
                 error_of("ewma,alpha=0").c_str());
    STRCMP_EQUAL("no error", error_of("ewma,alpha=1").c_str());
    STRCMP_EQUAL("forecaster 'ewma,alhpa=0.2': ewma: unknown parameter(s) alhpa (did you mean alpha?) (known: alpha)",
                 error_of("ewma,alhpa=0.2").c_str());
    STRCMP_EQUAL("forecaster 'last-value,alpha=0.2': last-value: unknown parameter(s) alpha (known: none)",
                 error_of("last-value,alpha=0.2").c_str());
    STRCMP_EQUAL("forecaster 'quantile,0.9': policy parameter '0.9': expected key=value",
                 error_of("quantile,0.9").c_str());
    STRCMP_EQUAL("forecaster ',alpha=1': expected NAME[,key=value...] (known names: last-value, ewma, holt-winters, "
                 "quantile)",
                 error_of(",alpha=1").c_str());
    for (const char* bound : {"0", "1"})
        STRCMP_EQUAL(("forecaster 'quantile,quantile=" + std::string(bound) + "': policy parameter quantile='" +
                      bound + "': expected a number in (0, 1)")
                         .c_str(),
                     error_of("quantile,quantile=" + std::string(bound)).c_str());
    STRCMP_EQUAL("forecaster 'holt-winters,beta=1.5': policy parameter beta='1.5': expected a number in [0, 1]",
                 error_of("holt-winters,beta=1.5").c_str());
    STRCMP_EQUAL("forecaster 'quantile,window=5m': policy parameter window='5m': expected at least two ticks (600 s)",
                 error_of("quantile,window=5m").c_str());
    STRCMP_EQUAL("forecaster 'holt-winters,seasons=monthly': policy parameter seasons='monthly': expected one of "
                 "daily, weekly, daily+weekly",
                 error_of("holt-winters,seasons=monthly").c_str());
    STRCMP_EQUAL("forecaster 'holt-winters': a tick of 7 s does not divide a day into whole ticks (try 60, 300, "
                 "600, 900 or 3600)",
                 error_of("holt-winters", 7).c_str());
}

TEST(ForecasterRegistry, KeysAreCaseInsensitiveAsInBurstdConf)
{
    auto f = make_forecaster("ewma,Alpha=1", 300);
    f->observe(3);
    f->observe(5);
    DOUBLES_EQUAL(5, f->forecast(1), 0);
}

TEST(ForecasterRegistry, LastValueAndEwmaFollowTheCounts)
{
    auto last = make_forecaster("last-value", 300), ewma = make_forecaster("ewma,alpha=0.5", 300);
    DOUBLES_EQUAL(0, ewma->forecast(1), 0);
    for (double count : {4.0, 8.0, 0.0}) {
        last->observe(count);
        ewma->observe(count);
    }
    DOUBLES_EQUAL(0, last->forecast(3), 0);
    DOUBLES_EQUAL(3, ewma->forecast(3), 1e-12); // 4, then 6, then 3
}

TEST(ForecasterRegistry, PmseIsTheMeanSquareOfTheForecastsAboveTheCount)
{
    ForecastError e;
    e.add(10, 12); // over by 2
    e.add(10, 7);  // under by 3
    e.add(10, 10);
    e.add(10, 11); // over by 1
    DOUBLES_EQUAL((4.0 + 9 + 0 + 1) / 4, e.mse(), 1e-12);
    DOUBLES_EQUAL((4.0 + 1) / 2, e.pmse(), 1e-12);
    DOUBLES_EQUAL((4.0 + 1) / 4, e.over_squares_per_tick(), 1e-12);
    DOUBLES_EQUAL(0.5, e.over_share(), 1e-12);
    DOUBLES_EQUAL(0.25, e.under_share(), 1e-12);
    // Rarely over but by much: the PMSE above the MSE, as in Gao et al.'s Table 4.
    ForecastError rare;
    rare.add(0, 3);
    rare.add(5, 4);
    rare.add(5, 4);
    CHECK(rare.pmse() > rare.mse());
}
