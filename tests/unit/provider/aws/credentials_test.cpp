#include "provider/aws/credential_chain.hpp"
#include "provider/aws/environment_credentials.hpp"
#include "provider/aws/imds_credentials.hpp"
#include "provider/aws/shared_file_credentials.hpp"
#include "scripted_transport.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <CppUTest/TestHarness.h>

namespace fs = std::filesystem;
using namespace burst;

namespace {

const std::string secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

EnvironmentLookup env_of(std::map<std::string, std::string> vars)
{
    return [vars](const std::string& name) -> std::optional<std::string> {
        auto it = vars.find(name);
        if (it == vars.end())
            return std::nullopt;
        return it->second;
    };
}

std::string error_of(CredentialSource& source)
{
    try {
        source.load();
    } catch (const CredentialError& e) {
        return e.what();
    }
    return "no error";
}

void write_file(const fs::path& p, const std::string& text, fs::perms mode)
{
    std::ofstream(p) << text;
    fs::permissions(p, mode);
}

const fs::perms private_mode = fs::perms::owner_read | fs::perms::owner_write;
const fs::perms world_readable = private_mode | fs::perms::group_read | fs::perms::others_read;

} // namespace

TEST_GROUP(EnvironmentCredentials){};

TEST(EnvironmentCredentials, ReadsKeysAndOptionalToken)
{
    EnvironmentCredentials env(
        env_of({{"AWS_ACCESS_KEY_ID", "AKID"}, {"AWS_SECRET_ACCESS_KEY", secret}, {"AWS_SESSION_TOKEN", "tok"}}));
    auto c = env.load();
    CHECK(c.has_value());
    STRCMP_EQUAL("AKID", c->access_key_id.c_str());
    STRCMP_EQUAL("tok", c->session_token.c_str());
    CHECK(c->describe().find(secret) == std::string::npos);
}

TEST(EnvironmentCredentials, AbsentIsNotAnErrorButHalfSetIs)
{
    EnvironmentCredentials none(env_of({}));
    CHECK(!none.load().has_value());
    EnvironmentCredentials half(env_of({{"AWS_SECRET_ACCESS_KEY", secret}}));
    std::string err = error_of(half);
    STRCMP_EQUAL("environment: AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not", err.c_str());
}

TEST_GROUP(SharedFileCredentials)
{
    fs::path dir;
    void setup() override
    {
        char tmpl[] = "/tmp/burst-aws-creds-XXXXXX";
        dir = mkdtemp(tmpl);
    }
    void teardown() override { fs::remove_all(dir); }
    std::map<std::string, std::string> env(std::map<std::string, std::string> extra = {})
    {
        extra["AWS_SHARED_CREDENTIALS_FILE"] = (dir / "credentials").string();
        extra["AWS_CONFIG_FILE"] = (dir / "config").string();
        return extra;
    }
};

TEST(SharedFileCredentials, CredentialsFileProfileWinsOverConfig)
{
    write_file(dir / "credentials",
               "# keys\n[default]\naws_access_key_id = AKDEFAULT\naws_secret_access_key = " + secret +
                   "\n\n[work]\naws_access_key_id=AKWORK\naws_secret_access_key=" + secret +
                   "\naws_session_token = tok\n",
               private_mode);
    write_file(dir / "config", "[profile work]\nregion = eu-west-1\naws_access_key_id = AKCONFIG\n", private_mode);
    SharedFileCredentials files(env_of(env({{"AWS_PROFILE", "work"}})));
    auto c = files.load();
    CHECK(c.has_value());
    STRCMP_EQUAL("AKWORK", c->access_key_id.c_str());
    STRCMP_EQUAL(secret.c_str(), c->secret_access_key.c_str());
    STRCMP_EQUAL("tok", c->session_token.c_str());
    STRCMP_EQUAL(((dir / "credentials").string() + " [work]").c_str(), c->source.c_str());
}

TEST(SharedFileCredentials, ConfigUsesProfilePrefixExceptForDefault)
{
    write_file(dir / "config",
               "[default]\naws_access_key_id = AKDEF\naws_secret_access_key = " + secret +
                   "\n[profile ci]\ns3 =\n  max_concurrent_requests = 4\naws_access_key_id = AKCI\n"
                   "aws_secret_access_key = " + secret + "\n[ci]\naws_access_key_id = WRONG\n",
               private_mode);
    SharedFileCredentials def(env_of(env()));
    STRCMP_EQUAL("AKDEF", def.load()->access_key_id.c_str());
    SharedFileCredentials ci(env_of(env({{"AWS_PROFILE", "ci"}})));
    STRCMP_EQUAL("AKCI", ci.load()->access_key_id.c_str());
}

TEST(SharedFileCredentials, RefusesAFileOthersCanReadWithoutQuotingTheSecret)
{
    write_file(dir / "credentials", "[default]\naws_access_key_id = AK\naws_secret_access_key = " + secret + "\n",
               world_readable);
    SharedFileCredentials files(env_of(env()));
    std::string err = error_of(files);
    CHECK_TEXT(err.find("has mode 0644 (group/others may access it); refusing it: chmod 600 it") != std::string::npos, err.c_str());
    CHECK_TEXT(err.find("chmod 600") != std::string::npos, err.c_str());
    CHECK(err.find(secret) == std::string::npos);
}

TEST(SharedFileCredentials, SyntaxErrorsNameTheLineButNotItsText)
{
    write_file(dir / "credentials", "[default]\naws_access_key_id = AK\n" + secret + "\n", private_mode);
    SharedFileCredentials files(env_of(env()));
    std::string err = error_of(files);
    STRCMP_EQUAL(((dir / "credentials").string() + ":3: expected '[section]' or 'key = value'").c_str(),
                 err.c_str());
}

TEST(SharedFileCredentials, MissingDefaultIsAbsentButAMissingNamedProfileIsAnError)
{
    SharedFileCredentials def(env_of(env()));
    CHECK(!def.load().has_value());
    SharedFileCredentials named(env_of(env({{"AWS_PROFILE", "nope"}})));
    CHECK(error_of(named).find("AWS_PROFILE=nope but no keys for it") != std::string::npos);
}

TEST(SharedFileCredentials, RejectsRoleProfilesItCannotAssume)
{
    write_file(dir / "config", "[profile r]\nrole_arn = arn:aws:iam::1:role/x\nsource_profile = default\n",
               private_mode);
    SharedFileCredentials files(env_of(env({{"AWS_PROFILE", "r"}})));
    CHECK(error_of(files).find("'role_arn' profiles are not supported") != std::string::npos);
}

TEST(SharedFileCredentials, HalfAProfileIsAnError)
{
    write_file(dir / "credentials", "[default]\naws_secret_access_key = " + secret + "\n", private_mode);
    SharedFileCredentials files(env_of(env()));
    std::string err = error_of(files);
    CHECK(err.find("aws_access_key_id is missing") != std::string::npos);
    CHECK(err.find(secret) == std::string::npos);
}

TEST_GROUP(ImdsCredentials)
{
    ScriptedTransport transport;
};

TEST(ImdsCredentials, FetchesATokenThenTheRoleThenItsKeys)
{
    transport.answer(200, "TOKEN123");
    transport.answer(200, "burst-node-role\n");
    transport.answer(200, "{\"Code\":\"Success\",\"Type\":\"AWS-HMAC\",\"AccessKeyId\":\"ASIAX\","
                          "\"SecretAccessKey\":\"" + secret + "\",\"Token\":\"sess\","
                          "\"Expiration\":\"2015-08-30T18:36:00Z\"}");
    ImdsCredentials imds(transport, "http://127.0.0.1:9");
    auto c = imds.load();
    CHECK(c.has_value());
    STRCMP_EQUAL("ASIAX", c->access_key_id.c_str());
    STRCMP_EQUAL("sess", c->session_token.c_str());
    DOUBLES_EQUAL(1440938160 + 6 * 3600, c->expiration, 0);
    LONGS_EQUAL(3, transport.sent.size());
    STRCMP_EQUAL("PUT", transport.sent[0].method.c_str());
    STRCMP_EQUAL("/latest/api/token", transport.sent[0].path.c_str());
    STRCMP_EQUAL("21600", transport.sent[0].header("X-aws-ec2-metadata-token-ttl-seconds").c_str());
    STRCMP_EQUAL("127.0.0.1:9", transport.sent[0].header("Host").c_str());
    STRCMP_EQUAL("TOKEN123", transport.sent[1].header("X-aws-ec2-metadata-token").c_str());
    STRCMP_EQUAL("/latest/meta-data/iam/security-credentials/burst-node-role", transport.sent[2].path.c_str());
}

TEST(ImdsCredentials, UnreachableOrRolelessIsAbsent)
{
    transport.fail("Connection refused");
    ImdsCredentials imds(transport, "http://127.0.0.1:9");
    CHECK(!imds.load().has_value());
    transport.answer(200, "T");
    transport.answer(404, "");
    CHECK(!imds.load().has_value());
}

TEST(ImdsCredentials, MalformedAnswersAreErrorsThatNeverQuoteTheBody)
{
    ImdsCredentials imds(transport, "http://127.0.0.1:9");
    transport.answer(200, "T");
    transport.answer(200, "role");
    transport.answer(200, "{\"Code\":\"Success\",\"AccessKeyId\":\"A\",\"SecretAccessKey\":\"" + secret + "\"");
    std::string err = error_of(imds);
    CHECK_TEXT(err.find("not a JSON object") != std::string::npos, err.c_str());
    CHECK(err.find(secret) == std::string::npos);

    transport.answer(200, "T");
    transport.answer(200, "role");
    transport.answer(200, "{\"Code\":\"Success\",\"AccessKeyId\":\"A\",\"SecretAccessKey\":\"" + secret +
                              "\",\"Token\":\"t\",\"Expiration\":\"soon\"}");
    err = error_of(imds);
    STRCMP_EQUAL("instance metadata: Expiration is not YYYY-MM-DDTHH:MM:SSZ", err.c_str());

    transport.answer(200, "T");
    transport.answer(200, "../../etc");
    STRCMP_EQUAL("instance metadata: role name is not a valid IAM role name", error_of(imds).c_str());
}

namespace {

class CountingSource final : public CredentialSource {
public:
    explicit CountingSource(Time expiration) : expiration_(expiration) {}
    std::string_view name() const override { return "counting"; }
    std::optional<AwsCredentials> load() override
    {
        ++loads;
        AwsCredentials c;
        c.access_key_id = "AK" + std::to_string(loads);
        c.secret_access_key = "s";
        c.expiration = expiration_;
        return c;
    }
    int loads = 0;

private:
    Time expiration_;
};

class EmptySource final : public CredentialSource {
public:
    std::string_view name() const override { return "empty"; }
    std::optional<AwsCredentials> load() override { return std::nullopt; }
};

} // namespace

TEST_GROUP(CredentialChain){};

TEST(CredentialChain, CachesUntilFiveMinutesBeforeExpiry)
{
    ManualClock clock(1000);
    std::vector<std::unique_ptr<CredentialSource>> sources;
    sources.push_back(std::make_unique<EmptySource>());
    auto counting = std::make_unique<CountingSource>(4000);
    CountingSource* probe = counting.get();
    sources.push_back(std::move(counting));
    CredentialChain chain(std::move(sources), clock);
    STRCMP_EQUAL("AK1", chain.get().access_key_id.c_str());
    clock.set(3699);
    STRCMP_EQUAL("AK1", chain.get().access_key_id.c_str());
    clock.set(3700);
    STRCMP_EQUAL("AK2", chain.get().access_key_id.c_str());
    LONGS_EQUAL(2, probe->loads);
}

TEST(CredentialChain, NamesEverySourceItTriedWhenNoneHasKeys)
{
    ManualClock clock;
    ScriptedTransport imds;
    imds.fail("Connection refused");
    CredentialChain chain = default_credential_chain(
        env_of({{"AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/c"}, {"AWS_CONFIG_FILE", "/nonexistent/f"}}), imds,
        clock);
    try {
        chain.get();
        FAIL("expected CredentialError");
    } catch (const CredentialError& e) {
        STRCMP_EQUAL("no AWS credentials found (tried environment, shared-files, instance-metadata)", e.what());
    }
}
