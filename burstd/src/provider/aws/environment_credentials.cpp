#include "provider/aws/environment_credentials.hpp"

#include <utility>

namespace burst {

EnvironmentCredentials::EnvironmentCredentials(EnvironmentLookup env) : env_(std::move(env)) {}

std::optional<AwsCredentials> EnvironmentCredentials::load()
{
    auto id = env_("AWS_ACCESS_KEY_ID");
    auto secret = env_("AWS_SECRET_ACCESS_KEY");
    if (!id && !secret)
        return std::nullopt;
    if (!id || !secret)
        throw CredentialError(std::string("environment: ") + (id ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY") +
                              " is set but " + (id ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID") + " is not");
    AwsCredentials c;
    c.access_key_id = *id;
    c.secret_access_key = *secret;
    c.session_token = env_("AWS_SESSION_TOKEN").value_or("");
    c.source = "environment";
    return c;
}

} // namespace burst
