#include "provider/aws/ec2_responses.hpp"

#include "provider/aws/xml_document.hpp"

namespace burst {

namespace {

XmlDocument open(std::string_view xml, const std::string& expected_root)
{
    XmlDocument doc(xml, expected_root);
    if (xml_name(doc.root()) != expected_root)
        throw XmlError(expected_root + ": root element is <" + std::string(xml_name(doc.root())) + ">");
    return doc;
}

std::string required(const xmlNode* parent, std::string_view field, const std::string& where)
{
    std::string value = xml_child_text(parent, field);
    if (value.empty())
        throw XmlError(where + ": missing <" + std::string(field) + ">");
    return value;
}

Ec2Instance parse_instance(const xmlNode* item, const std::string& where)
{
    Ec2Instance i;
    i.id = required(item, "instanceId", where);
    const std::string here = where + " (" + i.id + ")";
    i.state = required(xml_child(item, "instanceState"), "name", here + " instanceState");
    i.instance_type = xml_child_text(item, "instanceType");
    i.private_ip = xml_child_text(item, "privateIpAddress");
    i.lifecycle = xml_child_text(item, "instanceLifecycle");
    i.state_reason_code = xml_child_text(xml_child(item, "stateReason"), "code");
    for (const xmlNode* tag : xml_children(xml_child(item, "tagSet"), "item"))
        i.tags[required(tag, "key", here + " tagSet item")] = xml_child_text(tag, "value");
    return i;
}

std::vector<Ec2Instance> parse_instances_set(const xmlNode* parent, const std::string& where)
{
    const xmlNode* set = xml_child(parent, "instancesSet");
    if (!set)
        throw XmlError(where + ": missing <instancesSet>");
    std::vector<Ec2Instance> out;
    int n = 1;
    for (const xmlNode* item : xml_children(set, "item"))
        out.push_back(parse_instance(item, where + " instancesSet item " + std::to_string(n++)));
    return out;
}

} // namespace

std::vector<Ec2Instance> parse_run_instances(std::string_view xml)
{
    XmlDocument doc = open(xml, "RunInstancesResponse");
    std::vector<Ec2Instance> out = parse_instances_set(doc.root(), "RunInstancesResponse");
    if (out.empty())
        throw XmlError("RunInstancesResponse: no instance in <instancesSet>");
    return out;
}

DescribeInstancesPage parse_describe_instances(std::string_view xml)
{
    XmlDocument doc = open(xml, "DescribeInstancesResponse");
    const xmlNode* reservations = xml_child(doc.root(), "reservationSet");
    if (!reservations)
        throw XmlError("DescribeInstancesResponse: missing <reservationSet>");
    DescribeInstancesPage page;
    int n = 1;
    for (const xmlNode* r : xml_children(reservations, "item")) {
        for (auto& i : parse_instances_set(r, "DescribeInstancesResponse reservation " + std::to_string(n)))
            page.instances.push_back(std::move(i));
        ++n;
    }
    page.next_token = xml_child_text(doc.root(), "nextToken");
    return page;
}

std::map<std::string, std::string> parse_terminate_instances(std::string_view xml)
{
    XmlDocument doc = open(xml, "TerminateInstancesResponse");
    const xmlNode* set = xml_child(doc.root(), "instancesSet");
    if (!set)
        throw XmlError("TerminateInstancesResponse: missing <instancesSet>");
    std::map<std::string, std::string> out;
    int n = 1;
    for (const xmlNode* item : xml_children(set, "item")) {
        const std::string where = "TerminateInstancesResponse instancesSet item " + std::to_string(n++);
        std::string id = required(item, "instanceId", where);
        out[id] = required(xml_child(item, "currentState") ? xml_child(item, "currentState")
                                                            : xml_child(item, "shutdownState"),
                           "name", where + " currentState");
    }
    return out;
}

CreateFleetResult parse_create_fleet(std::string_view xml)
{
    XmlDocument doc = open(xml, "CreateFleetResponse");
    CreateFleetResult out;
    out.fleet_id = xml_child_text(doc.root(), "fleetId");
    int n = 1;
    for (const xmlNode* item : xml_children(xml_child(doc.root(), "fleetInstanceSet"), "item")) {
        const std::string where = "CreateFleetResponse fleetInstanceSet item " + std::to_string(n++);
        Ec2FleetInstances group;
        for (const xmlNode* id : xml_children(xml_child(item, "instanceIds"), "item")) {
            std::string text = xml_text(id);
            if (text.rfind("i-", 0) != 0)
                throw XmlError(where + ": instanceIds item '" + text + "' is not an instance id");
            group.instance_ids.push_back(text);
        }
        group.instance_type = xml_child_text(item, "instanceType");
        group.lifecycle = xml_child_text(item, "lifecycle");
        out.instances.push_back(std::move(group));
    }
    n = 1;
    for (const xmlNode* item : xml_children(xml_child(doc.root(), "errorSet"), "item")) {
        const std::string where = "CreateFleetResponse errorSet item " + std::to_string(n++);
        Ec2FleetError e;
        e.code = required(item, "errorCode", where);
        e.message = xml_child_text(item, "errorMessage");
        const xmlNode* overrides = xml_child(xml_child(item, "launchTemplateAndOverrides"), "overrides");
        e.instance_type = xml_child_text(overrides, "instanceType");
        e.subnet_id = xml_child_text(overrides, "subnetId");
        out.errors.push_back(std::move(e));
    }
    return out;
}

std::vector<Ec2ApiError> parse_error_response(std::string_view xml)
{
    XmlDocument doc = open(xml, "Response");
    std::vector<Ec2ApiError> out;
    int n = 1;
    for (const xmlNode* e : xml_children(xml_child(doc.root(), "Errors"), "Error"))
        out.push_back({required(e, "Code", "Response Error " + std::to_string(n++)), xml_child_text(e, "Message")});
    if (out.empty())
        throw XmlError("Response: no <Errors><Error> element");
    return out;
}

} // namespace burst
