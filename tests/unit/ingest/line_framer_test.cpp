#include "ingest/line_framer.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using burst::LineFramer;

TEST_GROUP(LineFramer)
{
    std::vector<std::string> lines;
    std::vector<std::size_t> oversized;
    void feed(LineFramer& f, const std::string& bytes)
    {
        f.feed(bytes, [this](std::string_view l) { lines.emplace_back(l); },
               [this](std::size_t n) { oversized.push_back(n); });
    }
};

TEST(LineFramer, JoinsLinesSplitAcrossReads)
{
    LineFramer f(100);
    feed(f, "ab");
    feed(f, "c\nde");
    feed(f, "f\n\ng\n");
    CHECK(lines == (std::vector<std::string>{"abc", "def", "", "g"}));
    LONGS_EQUAL(0, f.buffered());
}

TEST(LineFramer, SkipsAnOversizedLineAndCarriesOn)
{
    LineFramer f(5);
    feed(f, "1234");
    feed(f, "5678");
    feed(f, "9\nok\n");
    feed(f, "toolong\nfine\n");
    CHECK(lines == (std::vector<std::string>{"ok", "fine"}));
    CHECK(oversized == (std::vector<std::size_t>{9, 7}));
}

TEST(LineFramer, NeverBuffersMoreThanTheBound)
{
    LineFramer f(10);
    for (int i = 0; i < 100; ++i)
        feed(f, "xxxxxxxxxx");
    CHECK_TRUE(f.buffered() <= 10);
    feed(f, "\nend\n");
    CHECK(lines == (std::vector<std::string>{"end"}));
    CHECK(oversized == (std::vector<std::size_t>{1000}));
}

TEST(LineFramer, ALineOfExactlyTheBoundIsKept)
{
    LineFramer f(3);
    feed(f, "abc\n");
    CHECK(lines == (std::vector<std::string>{"abc"}));
}
