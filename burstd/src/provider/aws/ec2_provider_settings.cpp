#include "provider/aws/ec2_provider_settings.hpp"

#include <cctype>
#include <utility>

namespace burst {

namespace {

[[noreturn]] void fail(const std::string& key, const std::string& value, const std::string& expected)
{
    throw Ec2SettingsError(key + "=" + value + ": expected " + expected);
}

const std::string* get(const ParamMap& params, const std::string& key)
{
    auto it = params.find(key);
    return it == params.end() ? nullptr : &it->second;
}

// "a,b,c" -> {a, b, c}; empty items are a mistake, not a default.
std::vector<std::string> list_of(const ParamMap& params, const std::string& key, const std::string& prefix)
{
    std::vector<std::string> out;
    const std::string* v = get(params, key);
    if (!v)
        return out;
    size_t start = 0;
    while (true) {
        const size_t comma = v->find(',', start);
        std::string item = v->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty() || item.find_first_of(" \t") != std::string::npos ||
            (!prefix.empty() && item.rfind(prefix, 0) != 0))
            fail(key, *v, "a comma-separated list of " + (prefix.empty() ? std::string("names") : prefix + "... ids") +
                              " without spaces or empty items");
        out.push_back(std::move(item));
        if (comma == std::string::npos)
            return out;
        start = comma + 1;
    }
}

bool valid_region(const std::string& r)
{
    // e.g. us-east-1, eu-central-2, us-gov-west-1, cn-north-1
    if (r.empty() || r.size() > 32 || !std::isalpha(static_cast<unsigned char>(r.front())) ||
        !std::isdigit(static_cast<unsigned char>(r.back())) || r.find('-') == std::string::npos)
        return false;
    for (unsigned char c : r)
        if (!(std::islower(c) || std::isdigit(c) || c == '-'))
            return false;
    return true;
}

} // namespace

std::vector<std::string> ec2_provider_keys()
{
    return {"Endpoint", "Profile", "CaFile", "LaunchTemplateId", "LaunchTemplateName", "LaunchTemplateVersion",
            "SubnetIds", "FallbackInstanceTypes"};
}

Ec2ProviderSettings ec2_settings_from_params(const ParamMap& params, const std::string& region,
                                             const std::string& credentials_file)
{
    Ec2ProviderSettings s;
    if (!valid_region(region))
        fail("Region", region, "an AWS region such as us-east-1 (required for Type=aws)");
    s.region = region;
    s.credentials_file = credentials_file;
    // China regions live under their own domain.
    s.endpoint = "https://ec2." + region + ".amazonaws.com" + (region.rfind("cn-", 0) == 0 ? ".cn" : "");
    if (const auto* v = get(params, "Endpoint")) {
        const bool https = v->rfind("https://", 0) == 0 && v->size() > 8;
        if (!https || v->find_first_of(" \t?#") != std::string::npos || v->find('/', 8) != std::string::npos)
            fail("Endpoint", *v, "https://host[:port] with no path (EC2 is only ever spoken to over TLS)");
        s.endpoint = *v;
    }
    if (const auto* v = get(params, "Profile")) {
        if (v->empty() || v->find_first_of(" \t[]") != std::string::npos)
            fail("Profile", *v, "a profile name from the shared credentials or config file");
        s.profile = *v;
    }
    if (const auto* v = get(params, "CaFile")) {
        if (v->empty() || v->front() != '/')
            fail("CaFile", *v, "an absolute path to a PEM CA bundle");
        s.ca_file = *v;
    }
    const std::string* lt_id = get(params, "LaunchTemplateId");
    const std::string* lt_name = get(params, "LaunchTemplateName");
    if ((lt_id != nullptr) == (lt_name != nullptr))
        throw Ec2SettingsError("LaunchTemplateId= or LaunchTemplateName=: expected exactly one of them");
    if (lt_id) {
        if (lt_id->rfind("lt-", 0) != 0 || lt_id->size() < 4)
            fail("LaunchTemplateId", *lt_id, "a launch template id (lt-...)");
        s.provider.launch_template.id = *lt_id;
    } else {
        if (lt_name->size() < 3 || lt_name->size() > 128)
            fail("LaunchTemplateName", *lt_name, "a launch template name of 3..128 characters");
        s.provider.launch_template.name = *lt_name;
    }
    if (const auto* v = get(params, "LaunchTemplateVersion")) {
        const bool number = !v->empty() && v->find_first_not_of("0123456789") == std::string::npos;
        if (!number && *v != "$Latest" && *v != "$Default")
            fail("LaunchTemplateVersion", *v, "$Latest, $Default or a version number");
        s.provider.launch_template.version = *v;
    }
    s.provider.subnet_ids = list_of(params, "SubnetIds", "subnet-");
    s.provider.fallback_instance_types = list_of(params, "FallbackInstanceTypes", "");
    return s;
}

EnvironmentLookup Ec2ProviderSettings::credential_environment(EnvironmentLookup base) const
{
    return [base = std::move(base), profile = profile,
            file = credentials_file](const std::string& name) -> std::optional<std::string> {
        if (name == "AWS_PROFILE" && !profile.empty())
            return profile;
        if (name == "AWS_SHARED_CREDENTIALS_FILE" && !file.empty())
            return file;
        return base(name);
    };
}

} // namespace burst
