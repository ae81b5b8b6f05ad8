#include "provider/gcp/metadata_token_source.hpp"
#include "provider/gcp/rs256_jwt.hpp"
#include "provider/cloud/secret_file.hpp"
#include "provider/gcp/service_account_key.hpp"
#include "provider/gcp/service_account_token_source.hpp"

#include "common/json_ref.hpp"
#include "../http/queued_transport.hpp"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

struct PkeyFree {
    void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct BioFree {
    void operator()(BIO* b) const { BIO_free(b); }
};
struct MdCtxFree {
    void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

Pkey generate_rsa_key()
{
    Pkey key(EVP_RSA_gen(2048));
    if (!key)
        throw std::runtime_error("RSA key generation failed");
    return key;
}

std::string private_pem(EVP_PKEY* key)
{
    std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
    PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(n));
}

std::string base64url_decode(std::string s)
{
    for (char& c : s)
        c = c == '-' ? '+' : c == '_' ? '/' : c;
    while (s.size() % 4)
        s += '=';
    std::string out(s.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(&out[0]),
                                  reinterpret_cast<const unsigned char*>(s.data()), static_cast<int>(s.size()));
    if (n < 0)
        throw std::runtime_error("bad base64url");
    out.resize(static_cast<std::size_t>(n) - (s.size() - s.find_last_not_of('=') - 1));
    return out;
}

std::string url_decode(const std::string& s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::string key_json(const std::string& pem)
{
    JsonRef j(json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "type", "service_account", "project_id", "proj",
                        "private_key_id", "kid-123", "private_key", pem.c_str(), "client_email",
                        "burstd@proj.iam.gserviceaccount.com", "token_uri", "https://oauth2.googleapis.com/token"));
    std::unique_ptr<char, decltype(&free)> text(json_dumps(j.get(), 0), &free);
    return text.get();
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string temp_file(const std::string& content, mode_t mode)
{
    char path[] = "/tmp/gcp_key_testXXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0)
        throw std::runtime_error("mkstemp failed");
    if (write(fd, content.data(), content.size()) != static_cast<ssize_t>(content.size()))
        throw std::runtime_error("write failed");
    close(fd);
    chmod(path, mode);
    return path;
}

} // namespace

TEST_GROUP(GcpServiceAccountToken)
{
    Pkey key = generate_rsa_key();
    std::string pem = private_pem(key.get());
    QueuedTransport transport;
    ManualClock clock{1700000000};
};

TEST(GcpServiceAccountToken, Rs256AssertionReverifiesWithThePublicKey)
{
    ServiceAccountTokenSource source(transport, parse_service_account_key(key_json(pem), "key.json"), clock);
    transport.answer(200, R"({"access_token": "ya29.SECRET-TOKEN", "expires_in": 3599, "token_type": "Bearer"})");
    ProviderError error;
    STRCMP_EQUAL("ya29.SECRET-TOKEN", source.token(error).c_str());
    CHECK(!error);

    const HttpRequest& req = transport.sent.at(0);
    STRCMP_EQUAL("POST", req.method.c_str());
    STRCMP_EQUAL("https://oauth2.googleapis.com", req.origin.c_str());
    STRCMP_EQUAL("/token", req.path.c_str());
    STRCMP_EQUAL("application/x-www-form-urlencoded", req.header("Content-Type").c_str());
    const std::string prefix = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=";
    CHECK(req.body.rfind(prefix, 0) == 0);
    const std::string jwt = url_decode(req.body.substr(prefix.size()));

    const auto dot1 = jwt.find('.');
    const auto dot2 = jwt.find('.', dot1 + 1);
    CHECK(dot1 != std::string::npos && dot2 != std::string::npos);
    json_error_t err;
    JsonRef header(json_loads(base64url_decode(jwt.substr(0, dot1)).c_str(), 0, &err));
    JsonRef claims(json_loads(base64url_decode(jwt.substr(dot1 + 1, dot2 - dot1 - 1)).c_str(), 0, &err));
    CHECK(header && claims);
    STRCMP_EQUAL("RS256", json_string_value(json_object_get(header.get(), "alg")));
    STRCMP_EQUAL("JWT", json_string_value(json_object_get(header.get(), "typ")));
    STRCMP_EQUAL("kid-123", json_string_value(json_object_get(header.get(), "kid")));
    STRCMP_EQUAL("burstd@proj.iam.gserviceaccount.com", json_string_value(json_object_get(claims.get(), "iss")));
    STRCMP_EQUAL("https://www.googleapis.com/auth/compute", json_string_value(json_object_get(claims.get(), "scope")));
    STRCMP_EQUAL("https://oauth2.googleapis.com/token", json_string_value(json_object_get(claims.get(), "aud")));
    LONGS_EQUAL(1700000000, json_integer_value(json_object_get(claims.get(), "iat")));
    LONGS_EQUAL(1700003600, json_integer_value(json_object_get(claims.get(), "exp")));

    const std::string signing_input = jwt.substr(0, dot2);
    const std::string signature = base64url_decode(jwt.substr(dot2 + 1));
    std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
    CHECK_EQUAL(1, EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()));
    CHECK_EQUAL(1, EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                                    signature.size(), reinterpret_cast<const unsigned char*>(signing_input.data()),
                                    signing_input.size()));
    // A changed claim must not verify: the check above is not vacuous.
    std::string tampered = signing_input;
    tampered.back() = tampered.back() == 'A' ? 'B' : 'A';
    std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx2(EVP_MD_CTX_new());
    EVP_DigestVerifyInit(ctx2.get(), nullptr, EVP_sha256(), nullptr, key.get());
    CHECK(1 != EVP_DigestVerify(ctx2.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                                signature.size(), reinterpret_cast<const unsigned char*>(tampered.data()),
                                tampered.size()));
}

TEST(GcpServiceAccountToken, CachesUntilShortlyBeforeExpiry)
{
    ServiceAccountTokenSource source(transport, parse_service_account_key(key_json(pem), "key.json"), clock);
    transport.answer(200, R"({"access_token": "t1", "expires_in": 3600})");
    transport.answer(200, R"({"access_token": "t2", "expires_in": 3600})");
    ProviderError error;
    STRCMP_EQUAL("t1", source.token(error).c_str());
    clock.advance(3000);
    STRCMP_EQUAL("t1", source.token(error).c_str());
    LONGS_EQUAL(1, transport.sent.size());
    clock.advance(400); // within the renew margin
    STRCMP_EQUAL("t2", source.token(error).c_str());
    LONGS_EQUAL(2, transport.sent.size());
    source.invalidate();
    transport.answer(200, R"({"access_token": "t3", "expires_in": 3600})");
    STRCMP_EQUAL("t3", source.token(error).c_str());
}

TEST(GcpServiceAccountToken, RefusalIsAuthAndLeaksNoSecret)
{
    ServiceAccountTokenSource source(transport, parse_service_account_key(key_json(pem), "key.json"), clock);
    transport.answer(400, R"({"error": "invalid_grant", "error_description": "Invalid JWT Signature."})");
    ProviderError error;
    STRCMP_EQUAL("", source.token(error).c_str());
    CHECK(error.kind == ProviderErrorKind::Auth);
    CHECK(has(error.message, "invalid_grant"));
    CHECK(has(error.message, "Invalid JWT Signature."));
    CHECK(!has(error.message, "PRIVATE KEY"));
    CHECK(!has(error.message, transport.sent.at(0).body.substr(80, 40)));

    transport.fail("connection timed out");
    source.token(error);
    CHECK(error.kind == ProviderErrorKind::Transient);
    transport.answer(200, R"({"access_token": "", "expires_in": 3600})");
    source.token(error);
    CHECK(error.kind == ProviderErrorKind::Transient);
}

TEST(GcpServiceAccountToken, UnreadableKeyIsAuthWithoutQuotingIt)
{
    auto k = parse_service_account_key(key_json(pem), "key.json");
    k.private_key = "-----BEGIN PRIVATE KEY-----\nTOTALLYBROKENSECRET\n-----END PRIVATE KEY-----\n";
    ServiceAccountTokenSource source(transport, k, clock);
    ProviderError error;
    source.token(error);
    CHECK(error.kind == ProviderErrorKind::Auth);
    CHECK(!has(error.message, "TOTALLYBROKENSECRET"));
    LONGS_EQUAL(0, transport.sent.size());
}

TEST(GcpServiceAccountToken, KeyFileFieldsAreValidated)
{
    auto rejects = [&](const std::string& json, const std::string& expected) {
        try {
            parse_service_account_key(json, "sa.json");
            FAIL(("accepted: " + expected).c_str());
        } catch (const std::runtime_error& e) {
            CHECK_TEXT(has(e.what(), expected), e.what());
            CHECK_TEXT(has(e.what(), "sa.json"), e.what());
            CHECK(!has(e.what(), "BEGIN PRIVATE"));
        }
    };
    rejects("{", "not valid JSON");
    rejects("[]", "expected a JSON object");
    rejects(R"({"type": "authorized_user"})", "\"type\" is \"authorized_user\"");
    rejects(R"({"type": "service_account", "private_key": "x"})", "\"client_email\" is missing");
    std::string j = key_json(pem);
    rejects(j.substr(0, j.find("\"token_uri\"")) + R"("token_uri": "http://x/token"})", "https://");
    rejects(R"({"type": "service_account", "client_email": "a@b", "token_uri": "https://t", "private_key": "MIIsecret"})",
            "not a PEM private key");
    rejects(R"({"type": "service_account", "client_email": 5, "token_uri": "https://t", "private_key": "x"})",
            "\"client_email\" must be a non-empty string");
}

TEST(GcpServiceAccountToken, KeyFileReadableByOthersIsRefused)
{
    const std::string loose = temp_file(key_json(pem), 0644);
    try {
        load_service_account_key(loose);
        FAIL("accepted a world-readable key file");
    } catch (const std::runtime_error& e) {
        CHECK_TEXT(has(e.what(), "0644"), e.what());
        CHECK_TEXT(has(e.what(), "chmod 600"), e.what());
    }
    std::remove(loose.c_str());
    const std::string tight = temp_file(key_json(pem), 0600);
    STRCMP_EQUAL("burstd@proj.iam.gserviceaccount.com", load_service_account_key(tight).client_email.c_str());
    std::remove(tight.c_str());
    CHECK_THROWS(std::runtime_error, read_secret_file("/nonexistent/key.json"));
}

TEST(GcpServiceAccountToken, Base64urlHasNoPaddingAndUrlAlphabet)
{
    STRCMP_EQUAL("", base64url("").c_str());
    STRCMP_EQUAL("Zg", base64url("f").c_str());
    STRCMP_EQUAL("Zm8", base64url("fo").c_str());
    STRCMP_EQUAL("Zm9v", base64url("foo").c_str());
    STRCMP_EQUAL("-_8", base64url("\xfb\xff").c_str());
}

TEST_GROUP(GcpMetadataToken)
{
    QueuedTransport transport;
    ManualClock clock{1000};
};

TEST(GcpMetadataToken, AsksTheMetadataServerWithTheFlavorHeader)
{
    MetadataTokenSource source(transport, clock);
    transport.answer(200, R"({"access_token": "ya29.meta", "expires_in": 3500, "token_type": "Bearer"})");
    ProviderError error;
    STRCMP_EQUAL("ya29.meta", source.token(error).c_str());
    const HttpRequest& req = transport.sent.at(0);
    STRCMP_EQUAL("GET", req.method.c_str());
    STRCMP_EQUAL("http://metadata.google.internal", req.origin.c_str());
    STRCMP_EQUAL("/computeMetadata/v1/instance/service-accounts/default/token", req.path.c_str());
    STRCMP_EQUAL("Google", req.header("Metadata-Flavor").c_str());
    STRCMP_EQUAL("ya29.meta", source.token(error).c_str());
    LONGS_EQUAL(1, transport.sent.size());

    source.invalidate();
    transport.answer(404, "");
    STRCMP_EQUAL("", source.token(error).c_str());
    CHECK(error.kind == ProviderErrorKind::Auth);
    transport.answer(503, "");
    source.token(error);
    CHECK(error.kind == ProviderErrorKind::Transient);
}
