#include "provider/http/http_request_parser.hpp"

#include <cctype>
#include <vector>

namespace burst {

namespace {

struct Line {
    std::string_view text;
    size_t number;
};

std::vector<Line> split_head(std::string_view text, std::string_view& body)
{
    std::vector<Line> lines;
    size_t pos = 0;
    size_t number = 1;
    body = {};
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        std::string_view line = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        size_t next = end == std::string_view::npos ? text.size() : end + 1;
        if (line.empty() && !lines.empty()) {
            body = text.substr(next);
            return lines;
        }
        lines.push_back({line, number++});
        pos = next;
    }
    return lines;
}

bool is_token_char(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

[[noreturn]] void fail(std::string_view source, size_t line, const std::string& what)
{
    throw HttpParseError(std::string(source) + ":" + std::to_string(line) + ": " + what);
}

void parse_request_line(const Line& line, std::string_view source, HttpRequest& req)
{
    // The target may itself contain spaces (the suite has "/example space/"),
    // so the method ends at the first space and the version starts after the last.
    size_t first = line.text.find(' ');
    size_t last = line.text.rfind(' ');
    if (first == std::string_view::npos || first == last)
        fail(source, line.number, "expected request line 'METHOD target HTTP/1.x'");
    std::string_view method = line.text.substr(0, first);
    std::string_view target = line.text.substr(first + 1, last - first - 1);
    std::string_view version = line.text.substr(last + 1);
    if (method.empty())
        fail(source, line.number, "empty method in request line");
    for (char c : method) {
        if (!is_token_char(c))
            fail(source, line.number, "invalid character in method '" + std::string(method) + "'");
    }
    if (version.substr(0, 7) != "HTTP/1.")
        fail(source, line.number, "expected HTTP/1.x version, got '" + std::string(version) + "'");
    if (target.empty() || target.front() != '/')
        fail(source, line.number, "expected an origin-form target starting with '/'");
    req.method = std::string(method);
    size_t q = target.find('?');
    req.path = std::string(target.substr(0, q));
    if (q != std::string_view::npos)
        req.query = std::string(target.substr(q + 1));
}

} // namespace

HttpRequest parse_http_request(std::string_view text, std::string_view source)
{
    std::string_view body;
    std::vector<Line> lines = split_head(text, body);
    if (lines.empty())
        fail(source, 1, "empty request");
    HttpRequest req;
    parse_request_line(lines.front(), source, req);
    for (size_t i = 1; i < lines.size(); ++i) {
        const Line& line = lines[i];
        if (line.text.front() == ' ' || line.text.front() == '\t') {
            if (req.headers.empty())
                fail(source, line.number, "continuation line before any header");
            req.headers.back().value += '\n';
            req.headers.back().value += std::string(line.text);
            continue;
        }
        size_t colon = line.text.find(':');
        if (colon == std::string_view::npos)
            fail(source, line.number, "expected 'Name: value' header line");
        std::string_view name = line.text.substr(0, colon);
        if (name.empty())
            fail(source, line.number, "empty header name");
        for (char c : name) {
            if (!is_token_char(c))
                fail(source, line.number, "invalid character in header name '" + std::string(name) + "'");
        }
        req.headers.push_back({std::string(name), std::string(line.text.substr(colon + 1))});
    }
    req.body = std::string(body);
    std::string length = req.header("Content-Length");
    if (!length.empty()) {
        if (length.size() > 18 || length.find_first_not_of("0123456789") != std::string::npos)
            fail(source, 1, "Content-Length '" + length + "' is not a number");
        if (std::stoull(length) != req.body.size())
            fail(source, 1, "Content-Length " + length + " but body has " + std::to_string(req.body.size()) + " bytes");
    }
    return req;
}

} // namespace burst
