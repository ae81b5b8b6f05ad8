#include "provider/azure/azure_credentials.hpp"
#include "provider/azure/client_credentials_token_source.hpp"

#include "../aws/fixture.hpp"
#include "../http/queued_transport.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

constexpr const char* kSecret = "S3cr3t~value+/=";

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string creds_text()
{
    return std::string("# service principal\nTenantId=77777777-7777-7777-7777-777777777777\n"
                       "ClientId = 11111111-2222-3333-4444-555555555555\nClientSecret=") +
           kSecret + "\n";
}

std::string temp_file(const std::string& content, mode_t mode)
{
    char path[] = "/tmp/azure_creds_testXXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0 || write(fd, content.data(), content.size()) != static_cast<ssize_t>(content.size()))
        throw std::runtime_error("temp file");
    close(fd);
    chmod(path, mode);
    return path;
}

std::string rejection(const std::string& text)
{
    try {
        parse_azure_credentials(text, "azure.conf");
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_GROUP(AzureToken)
{
    QueuedTransport transport;
    ManualClock clock{1000};
};

TEST(AzureToken, ClientCredentialsGrantWithTheRecordedAnswer)
{
    ClientCredentialsTokenSource source(transport, parse_azure_credentials(creds_text(), "azure.conf"), clock);
    transport.answer(200, provider_fixture("azure_arm/_77777777_7777_7777_7777_777777777777_oauth2_token.json"));
    ProviderError error;
    STRCMP_EQUAL("3333333333333333333333333333333333333333333333333333333", source.token(error).c_str());
    CHECK(!error);
    const HttpRequest& req = transport.sent.at(0);
    STRCMP_EQUAL("POST", req.method.c_str());
    STRCMP_EQUAL("https://login.microsoftonline.com", req.origin.c_str());
    STRCMP_EQUAL("/77777777-7777-7777-7777-777777777777/oauth2/v2.0/token", req.path.c_str());
    STRCMP_EQUAL("application/x-www-form-urlencoded", req.header("Content-Type").c_str());
    STRCMP_EQUAL("grant_type=client_credentials&client_id=11111111-2222-3333-4444-555555555555"
                 "&client_secret=S3cr3t~value%2B%2F%3D&scope=https%3A%2F%2Fmanagement.azure.com%2F.default",
                 req.body.c_str());
    // The fixture's expires_in is the string "3600": cached until the renew margin.
    clock.advance(3000);
    source.token(error);
    LONGS_EQUAL(1, transport.sent.size());
    clock.advance(400);
    transport.answer(200, R"({"access_token": "fresh", "expires_in": 3600})");
    STRCMP_EQUAL("fresh", source.token(error).c_str());
}

TEST(AzureToken, RefusalIsAuthWithoutTheSecret)
{
    ClientCredentialsTokenSource source(transport, parse_azure_credentials(creds_text(), "azure.conf"), clock);
    transport.answer(401, R"({"error": "invalid_client", "error_description": "AADSTS7000215: Invalid client secret provided."})");
    ProviderError error;
    STRCMP_EQUAL("", source.token(error).c_str());
    CHECK(error.kind == ProviderErrorKind::Auth);
    CHECK(has(error.message, "AADSTS7000215"));
    CHECK(!has(error.message, kSecret));
    CHECK(!has(error.message, "S3cr3t"));
    transport.answer(429, "", {{"Retry-After", "9"}});
    source.token(error);
    CHECK(error.kind == ProviderErrorKind::Throttled);
    DOUBLES_EQUAL(9, error.retry_after, 0);
}

TEST(AzureToken, CredentialsFileIsValidated)
{
    CHECK(has(rejection("TenantId=t\nClientId=c\n"), "are all required"));
    CHECK(has(rejection("TenantId=t\nSecret=x\n"), "azure.conf:2: unknown key Secret="));
    CHECK(has(rejection("TenantId=t\nTenantId=u\n"), "azure.conf:2: TenantId= given twice"));
    CHECK(has(rejection("TenantId\n"), "azure.conf:1: expected Key=Value"));
    CHECK(has(rejection("TenantId=a/b\nClientId=c\nClientSecret=zzz\n"), "expected a UUID or a domain name"));
    const std::string empty_secret = rejection("TenantId=t\nClientId=c\nClientSecret=\n");
    CHECK(has(empty_secret, "ClientSecret= is empty"));
}

TEST(AzureToken, CredentialsFileReadableByOthersIsRefused)
{
    const std::string loose = temp_file(creds_text(), 0640);
    try {
        load_azure_credentials(loose);
        FAIL("accepted a group-readable credentials file");
    } catch (const std::runtime_error& e) {
        CHECK_TEXT(has(e.what(), "0640"), e.what());
        CHECK(!has(e.what(), kSecret));
    }
    std::remove(loose.c_str());
    const std::string tight = temp_file(creds_text(), 0600);
    STRCMP_EQUAL(kSecret, load_azure_credentials(tight).client_secret.c_str());
    std::remove(tight.c_str());
}
