// Runs every case of the official AWS SigV4 test suite (aws-c-auth's
// aws-signing-test-suite/v4, copied to tests/data/sigv4)
// through SigV4Signer, for both header and presigned signing, and demands a
// byte-for-byte match of the canonical request, string to sign, signature and
// signed request.

#include "provider/aws/sigv4_signer.hpp"
#include "provider/http/http_request_parser.hpp"

#include <jansson.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

namespace fs = std::filesystem;
using namespace burst;

namespace {

const fs::path suite_dir = fs::path(TEST_SRCDIR) / "tests" / "data" / "sigv4";

std::string slurp(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read " + p.string());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct JsonDeleter {
    void operator()(json_t* j) const { json_decref(j); }
};
using Json = std::unique_ptr<json_t, JsonDeleter>;

std::string json_string(json_t* obj, const char* key, const fs::path& file)
{
    const char* s = json_string_value(json_object_get(obj, key));
    if (!s)
        throw std::runtime_error(file.string() + ": expected string field '" + key + "'");
    return s;
}

struct SuiteCase {
    SigV4Options options;
    AwsCredentials credentials;
    Time time = 0;
    Seconds expires = 0;
};

SuiteCase load_context(const fs::path& file)
{
    json_error_t err;
    Json root(json_load_file(file.c_str(), 0, &err));
    if (!root)
        throw std::runtime_error(file.string() + ":" + std::to_string(err.line) + ": " + err.text);
    SuiteCase c;
    json_t* creds = json_object_get(root.get(), "credentials");
    c.credentials.access_key_id = json_string(creds, "access_key_id", file);
    c.credentials.secret_access_key = json_string(creds, "secret_access_key", file);
    if (json_object_get(creds, "token"))
        c.credentials.session_token = json_string(creds, "token", file);
    c.options.region = json_string(root.get(), "region", file);
    c.options.service = json_string(root.get(), "service", file);
    c.options.normalize_path = json_is_true(json_object_get(root.get(), "normalize"));
    c.options.sign_body = json_is_true(json_object_get(root.get(), "sign_body"));
    c.options.omit_session_token = json_is_true(json_object_get(root.get(), "omit_session_token"));
    c.expires = static_cast<Seconds>(json_integer_value(json_object_get(root.get(), "expiration_in_seconds")));
    std::tm tm{};
    std::istringstream ts(json_string(root.get(), "timestamp", file));
    ts >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
    if (ts.fail())
        throw std::runtime_error(file.string() + ": timestamp is not YYYY-MM-DDTHH:MM:SSZ");
    c.time = static_cast<Time>(timegm(&tm));
    return c;
}

void expect(std::vector<std::string>& failures, const fs::path& dir, const char* file, const std::string& actual)
{
    std::string expected = slurp(dir / file);
    if (expected != actual)
        failures.push_back(dir.filename().string() + "/" + file + ":\n--- expected\n" + expected +
                           "\n--- actual\n" + actual);
}

std::vector<fs::path> case_dirs()
{
    std::vector<fs::path> dirs;
    for (const auto& entry : fs::recursive_directory_iterator(suite_dir)) {
        if (entry.is_regular_file() && entry.path().filename() == "request.txt")
            dirs.push_back(entry.path().parent_path());
    }
    std::sort(dirs.begin(), dirs.end());
    return dirs;
}

} // namespace

TEST_GROUP(SigV4Suite){};

TEST(SigV4Suite, EveryOfficialCaseMatchesByteForByte)
{
    if (!fs::is_directory(suite_dir))
        FAIL(("SigV4 test suite not found at " + suite_dir.string() + " (tests/data/sigv4 of the source tree)").c_str());
    std::vector<fs::path> dirs = case_dirs();
    CHECK_TEXT(dirs.size() >= 38, ("only " + std::to_string(dirs.size()) + " cases under " + suite_dir.string()).c_str());

    std::vector<std::string> failures;
    size_t passed = 0;
    for (const auto& dir : dirs) {
        size_t before = failures.size();
        SuiteCase c = load_context(dir / "context.json");
        std::string text = slurp(dir / "request.txt");
        SigV4Signer signer(c.options);

        HttpRequest header_req = parse_http_request(text, (dir / "request.txt").string());
        SigV4Trace h = signer.sign(header_req, c.credentials, c.time);
        expect(failures, dir, "header-canonical-request.txt", h.canonical_request);
        expect(failures, dir, "header-string-to-sign.txt", h.string_to_sign);
        expect(failures, dir, "header-signature.txt", h.signature);
        expect(failures, dir, "header-signed-request.txt", to_text(header_req));

        HttpRequest query_req = parse_http_request(text, (dir / "request.txt").string());
        SigV4Trace q = signer.presign(query_req, c.credentials, c.time, c.expires);
        expect(failures, dir, "query-canonical-request.txt", q.canonical_request);
        expect(failures, dir, "query-string-to-sign.txt", q.string_to_sign);
        expect(failures, dir, "query-signature.txt", q.signature);
        expect(failures, dir, "query-signed-request.txt", to_text(query_req));
        if (failures.size() == before)
            ++passed;
    }
    std::string report = std::to_string(passed) + "/" + std::to_string(dirs.size()) + " SigV4 suite cases passed";
    for (const auto& f : failures)
        report += "\n" + f;
    CHECK_TEXT(failures.empty(), report.c_str());
    LONGS_EQUAL(dirs.size(), passed);
}
