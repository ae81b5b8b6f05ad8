#include "model/hostlist.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using burst::compress_hostlist;
using burst::expand_hostlist;
using burst::HostlistError;
using Names = std::vector<std::string>;

TEST_GROUP(Hostlist){};

TEST(Hostlist, ExpandsRangesListsAndPlainNames)
{
    CHECK(expand_hostlist("c[1-3,5],login") == (Names{"c1", "c2", "c3", "c5", "login"}));
}

TEST(Hostlist, KeepsZeroPaddingOfTheLowerBound)
{
    CHECK(expand_hostlist("gpu[08-10]") == (Names{"gpu08", "gpu09", "gpu10"}));
}

TEST(Hostlist, ExpandsSeveralBracketsAsAProduct)
{
    CHECK(expand_hostlist("r[1-2]n[1-2]") == (Names{"r1n1", "r1n2", "r2n1", "r2n2"}));
}

TEST(Hostlist, EmptyExpressionIsNoNodes)
{
    CHECK(expand_hostlist("").empty());
}

TEST(Hostlist, RejectsMalformedExpressionsNamingThePart)
{
    CHECK_THROWS(HostlistError, expand_hostlist("c[1-3"));
    CHECK_THROWS(HostlistError, expand_hostlist("c[3-1]"));
    CHECK_THROWS(HostlistError, expand_hostlist("c[a-b]"));
    CHECK_THROWS(HostlistError, expand_hostlist("c1,,c2"));
    CHECK_THROWS(HostlistError, expand_hostlist("c[1-99999999]"));
    try {
        expand_hostlist("cloud[1-x]");
        FAIL("expected HostlistError");
    } catch (const HostlistError& e) {
        STRCMP_CONTAINS("\"x\"", e.what());
    }
}

TEST(Hostlist, CompressesConsecutiveRunsPerPrefixAndWidth)
{
    STRCMP_EQUAL("c[1-3,5],n[01-02],login",
                 compress_hostlist({"c1", "c2", "c3", "c5", "n01", "n02", "login"}).c_str());
    STRCMP_EQUAL("c1", compress_hostlist({"c1"}).c_str());
}

TEST(Hostlist, CompressIsTheInverseOfExpand)
{
    const char* exprs[] = {"c[1-4]", "a[1,3,5-9],b7", "gpu[001-012]"};
    for (const char* e : exprs)
        STRCMP_EQUAL(e, compress_hostlist(expand_hostlist(e)).c_str());
}

TEST(Hostlist, RefusesMoreThanAMillionNamesWhateverTheirForm)
{
    CHECK_THROWS(HostlistError, expand_hostlist("a[0-1048575]b[0-1048575]"));
    CHECK_THROWS(HostlistError, expand_hostlist("a[0-1023]b[0-1023],c1"));
    LONGS_EQUAL(1u << 20, expand_hostlist("a[0-1023]b[0-1023]").size());
}
