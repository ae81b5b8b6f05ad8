#include "provider/aws/xml_document.hpp"

#include <libxml/parser.h>

namespace burst {

XmlDocument::XmlDocument(std::string_view text, const std::string& what)
{
    if (text.size() > static_cast<size_t>(INT32_MAX))
        throw XmlError(what + ": document too large");
    doc_.reset(xmlReadMemory(text.data(), static_cast<int>(text.size()), nullptr, nullptr,
                             XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
    if (!doc_) {
        const xmlError* err = xmlGetLastError();
        throw XmlError(what + ": not well-formed XML" +
                       (err ? " (line " + std::to_string(err->line) + ")" : std::string()));
    }
    if (!xmlDocGetRootElement(doc_.get()))
        throw XmlError(what + ": empty XML document");
}

xmlNode* XmlDocument::root() const { return xmlDocGetRootElement(doc_.get()); }

std::string_view xml_name(const xmlNode* node)
{
    return node && node->name ? std::string_view(reinterpret_cast<const char*>(node->name)) : std::string_view();
}

xmlNode* xml_child(const xmlNode* parent, std::string_view name)
{
    if (!parent)
        return nullptr;
    for (xmlNode* n = parent->children; n; n = n->next) {
        if (n->type == XML_ELEMENT_NODE && xml_name(n) == name)
            return n;
    }
    return nullptr;
}

std::vector<xmlNode*> xml_children(const xmlNode* parent, std::string_view name)
{
    std::vector<xmlNode*> out;
    if (!parent)
        return out;
    for (xmlNode* n = parent->children; n; n = n->next) {
        if (n->type == XML_ELEMENT_NODE && xml_name(n) == name)
            out.push_back(n);
    }
    return out;
}

std::string xml_text(const xmlNode* node)
{
    if (!node)
        return {};
    xmlChar* content = xmlNodeGetContent(node);
    if (!content)
        return {};
    std::string s(reinterpret_cast<const char*>(content));
    xmlFree(content);
    size_t b = s.find_first_not_of(" \t\r\n");
    size_t e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string xml_child_text(const xmlNode* parent, std::string_view name) { return xml_text(xml_child(parent, name)); }

} // namespace burst
