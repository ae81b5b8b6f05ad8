#include "provider/gcp/gcp_config.hpp"

#include "provider/gcp/param_reader.hpp"

namespace burst {

GcpProviderConfig GcpProviderConfig::from_params(const ProviderParams& params)
{
    ParamReader<GcpConfigError> in(params, {"Project", "Zone", "Template", "Image", "Network", "Subnetwork",
                                            "MachineType", "BulkInsert", "TokenSource", "OperationWait",
                                            "PollInterval"});
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
