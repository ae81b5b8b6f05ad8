#include "provider/gcp/gcp_config.hpp"

#include "provider/gcp/param_reader.hpp"

namespace burst {

std::vector<std::string> GcpProviderConfig::keys()
{
    return {"Project",     "Zone",        "Template",      "Image",        "Network", "Subnetwork",
            "MachineType", "BulkInsert",  "TokenSource",   "OperationWait", "PollInterval", "Endpoint"};
}

GcpProviderConfig GcpProviderConfig::from_params(const ProviderParams& params)
{
    ParamReader<GcpConfigError> in(params, keys());
    GcpProviderConfig c;
    c.project = in.required("Project", "a GCP project id");
    c.zone = in.required("Zone", "a zone such as us-central1-a");
    c.instance_template = in.optional("Template");
    c.image = in.optional("Image");
    c.network = in.optional("Network");
    c.subnetwork = in.optional("Subnetwork");
    c.machine_type = in.optional("MachineType");
    c.bulk_insert = in.boolean("BulkInsert", c.bulk_insert);
    c.operation_wait = in.seconds("OperationWait", c.operation_wait);
    c.poll_interval = in.seconds("PollInterval", c.poll_interval);
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
