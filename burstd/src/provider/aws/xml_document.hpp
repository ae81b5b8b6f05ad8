#pragma once
// A parsed XML document (libxml2) with the few navigation helpers the EC2
// response parsers need.  Parsing never touches the network and never expands
// external entities; malformed input throws XmlError naming what was parsed.

#include "provider/aws/xml_error.hpp"

#include <libxml/tree.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

class XmlDocument {
public:
    // `what` names the document in errors ("RunInstances response").
    XmlDocument(std::string_view text, const std::string& what);

    xmlNode* root() const;

private:
    struct Free {
        void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
    };
    std::unique_ptr<xmlDoc, Free> doc_;
};

// Element children are matched by local name, ignoring the namespace.
std::string_view xml_name(const xmlNode* node);
xmlNode* xml_child(const xmlNode* parent, std::string_view name);
std::vector<xmlNode*> xml_children(const xmlNode* parent, std::string_view name);
std::string xml_text(const xmlNode* node); // "" for nullptr
std::string xml_child_text(const xmlNode* parent, std::string_view name);

} // namespace burst
