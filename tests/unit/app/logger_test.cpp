#include "app/logger.hpp"

#include <sstream>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(Logger){};

TEST(Logger, WritesSlurmStyleLinesAtOrBelowTheLevel)
{
    std::ostringstream out;
    Logger log(out, LogLevel::Verbose, false);
    log.error("boom");
    log.info("hello");
    log.verbose("detail");
    log.debug("noise");
    STRCMP_EQUAL("error: boom\nhello\nverbose: detail\n", out.str().c_str());
}

TEST(Logger, KeepsOneEventOnOneLine)
{
    std::ostringstream out;
    Logger log(out, LogLevel::Info, false);
    log.info("a\nerror: forged");
    STRCMP_EQUAL("a error: forged\n", out.str().c_str());
}

TEST(Logger, TimestampsWhenAsked)
{
    std::ostringstream out;
    Logger log(out, LogLevel::Info, true);
    log.info("x");
    CHECK_TRUE(out.str().size() == std::string("[2026-01-01T00:00:00.000] x\n").size());
    CHECK_EQUAL('[', out.str()[0]);
}
