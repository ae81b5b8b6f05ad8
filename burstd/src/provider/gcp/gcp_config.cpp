#include "provider/gcp/gcp_config.hpp"

#include "provider/cloud/param_reader.hpp"

namespace burst {

namespace {

// Zones end up in URL paths.
constexpr const char* kZoneCharacters = "abcdefghijklmnopqrstuvwxyz0123456789-";

// The token is a credential: it goes to the metadata server itself or to a
// server on this machine, never anywhere a typo could point.
bool is_metadata_origin(const std::string& v)
{
    if (v == "http://metadata.google.internal")
        return true;
    for (const char* host : {"http://127.0.0.1", "http://[::1]", "http://localhost"}) {
        const std::string h = host;
        if (v.rfind(h, 0) != 0)
            continue;
        const std::string port = v.substr(h.size());
        if (port.empty())
            return true;
        return port.size() >= 2 && port.size() <= 6 && port[0] == ':' &&
               port.find_first_not_of("0123456789", 1) == std::string::npos;
    }
    return false;
}

} // namespace

std::vector<std::string> GcpProviderConfig::keys()
{
    return {"Project",     "Zone",        "Zones",       "Template",      "Image",        "Network", "Subnetwork",
            "MachineType", "BulkInsert",  "TokenSource",   "OperationWait", "PollInterval", "Endpoint",
            "MetadataEndpoint", "ParallelDeletes"};
}

GcpProviderConfig GcpProviderConfig::from_params(const ProviderParams& params)
{
    ParamReader<GcpConfigError> in(params, keys());
    GcpProviderConfig c;
    c.project = in.required("Project", "a GCP project id");
    const std::string zone = in.optional("Zone");
    const std::string zones = in.optional("Zones");
    if (zone.empty() == zones.empty())
        throw GcpConfigError("Zone= (one zone such as us-central1-a) or Zones= (a comma-separated list, "
                             "preferred first) is required, not both");
    c.zones = in.zones(zone.empty() ? "Zones" : "Zone", kZoneCharacters);
    c.instance_template = in.optional("Template");
    c.image = in.optional("Image");
    c.network = in.optional("Network");
    c.subnetwork = in.optional("Subnetwork");
    c.machine_type = in.optional("MachineType");
    c.bulk_insert = in.boolean("BulkInsert", c.bulk_insert);
    c.operation_wait = in.seconds("OperationWait", c.operation_wait);
    c.poll_interval = in.seconds("PollInterval", c.poll_interval);
    c.parallel_deletes = in.count("ParallelDeletes", 64, c.parallel_deletes);
    if (!in.optional("Endpoint").empty()) {
        const std::string v = in.optional("Endpoint");
        if (v.rfind("https://", 0) != 0 || v.size() <= 8 || v.find_first_of(" \t?#") != std::string::npos ||
            v.find('/', 8) != std::string::npos)
            throw GcpConfigError("Endpoint=" + v + ": expected https://host[:port] with no path");
        c.api_origin = v;
    }
    const std::string source = in.optional("TokenSource");
    if (source == "metadata")
        c.token_source = GcpTokenSource::Metadata;
    else if (!source.empty() && source != "service-account")
        throw GcpConfigError("TokenSource=" + source + ": expected service-account or metadata");
    if (const std::string v = in.optional("MetadataEndpoint"); !v.empty()) {
        if (c.token_source != GcpTokenSource::Metadata)
            throw GcpConfigError("MetadataEndpoint= is only for TokenSource=metadata");
        if (!is_metadata_origin(v))
            throw GcpConfigError("MetadataEndpoint=" + v +
                                 ": expected http://metadata.google.internal or http://127.0.0.1:PORT (loopback, "
                                 "a test server), with no path");
        c.metadata_origin = v;
    }
    if (c.instance_template.empty() && (c.image.empty() || c.network.empty()))
        throw GcpConfigError("Template= is required, or else both Image= and Network= (boot disk and network "
                             "interface of every instance)");
    if (!c.instance_template.empty() && (!c.image.empty() || !c.network.empty() || !c.subnetwork.empty()))
        throw GcpConfigError("Template= and Image=/Network=/Subnetwork= exclude each other: the template "
                             "already defines disks and network interfaces");
    if (c.poll_interval <= 0)
        throw GcpConfigError("PollInterval= must be positive");
    return c;
}

} // namespace burst
