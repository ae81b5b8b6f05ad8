#include "provider/http/http_request_parser.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(HttpRequestParser){};

namespace {

std::string error_of(const std::string& text)
{
    try {
        parse_http_request(text, "req.txt");
    } catch (const HttpParseError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(HttpRequestParser, SplitsTargetIntoPathAndQueryEvenWithSpaces)
{
    HttpRequest r = parse_http_request("GET /a b/?x=1&y HTTP/1.1\nHost:h\n", "req.txt");
    STRCMP_EQUAL("GET", r.method.c_str());
    STRCMP_EQUAL("/a b/", r.path.c_str());
    STRCMP_EQUAL("x=1&y", r.query.c_str());
    STRCMP_EQUAL("h", r.header("host").c_str());
}

TEST(HttpRequestParser, KeepsFoldedContinuationLinesAndDuplicatesInOrder)
{
    HttpRequest r = parse_http_request("GET / HTTP/1.1\nA:v1\n  v2\nA: x\n\n", "req.txt");
    LONGS_EQUAL(2, r.headers.size());
    STRCMP_EQUAL("v1\n  v2", r.headers[0].value.c_str());
    STRCMP_EQUAL(" x", r.headers[1].value.c_str());
}

TEST(HttpRequestParser, BodyIsEverythingAfterTheBlankLineAndMustMatchContentLength)
{
    HttpRequest r = parse_http_request("POST / HTTP/1.1\r\nContent-Length:3\r\n\r\na=b", "req.txt");
    STRCMP_EQUAL("a=b", r.body.c_str());
    STRCMP_EQUAL("req.txt:1: Content-Length 4 but body has 3 bytes",
                 error_of("POST / HTTP/1.1\nContent-Length:4\n\na=b").c_str());
    STRCMP_EQUAL("req.txt:1: Content-Length '-1' is not a number",
                 error_of("POST / HTTP/1.1\nContent-Length:-1\n\na=b").c_str());
}

TEST(HttpRequestParser, RejectsMalformedLinesNamingTheLine)
{
    STRCMP_EQUAL("req.txt:1: empty request", error_of("").c_str());
    STRCMP_EQUAL("req.txt:1: expected request line 'METHOD target HTTP/1.x'", error_of("GET\n").c_str());
    STRCMP_EQUAL("req.txt:1: expected HTTP/1.x version, got 'HTTP/2'", error_of("GET / HTTP/2\n").c_str());
    STRCMP_EQUAL("req.txt:1: expected an origin-form target starting with '/'",
                 error_of("GET http://x/ HTTP/1.1\n").c_str());
    STRCMP_EQUAL("req.txt:2: expected 'Name: value' header line", error_of("GET / HTTP/1.1\nHost\n").c_str());
    STRCMP_EQUAL("req.txt:2: continuation line before any header", error_of("GET / HTTP/1.1\n x\n").c_str());
    STRCMP_EQUAL("req.txt:3: invalid character in header name 'B d'",
                 error_of("GET / HTTP/1.1\nA:1\nB d:2\n").c_str());
}

TEST(HttpRequestParser, ToTextRoundTrips)
{
    const std::string text = "POST /p?q=1 HTTP/1.1\nHost:h\nX:a\n  b\n\nbody";
    STRCMP_EQUAL(text.c_str(), to_text(parse_http_request(text, "req.txt")).c_str());
}
