#include "sim/workload/dax_parser.hpp"

#include "sim/trace/trace.hpp"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <unordered_map>

namespace burst {
namespace {

struct CtxtFree {
    void operator()(xmlParserCtxt* c) const { xmlFreeParserCtxt(c); }
};
struct DocFree {
    void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};
struct XmlFree {
    void operator()(xmlChar* s) const { xmlFree(s); }
};

bool named(const xmlNode* n, const char* name)
{
    return n->type == XML_ELEMENT_NODE && std::strcmp(reinterpret_cast<const char*>(n->name), name) == 0;
}

class Reader {
public:
    explicit Reader(const std::string& source) : source_(source) {}

    [[noreturn]] void fail(const xmlNode* n, const std::string& what) const
    {
        throw WorkflowError(source_ + ":" + std::to_string(xmlGetLineNo(n)) + ": <" +
                            reinterpret_cast<const char*>(n->name) + ">: " + what);
    }
    // The attribute's value; empty and absent are the same (DAX has no use for empty values).
    std::string attr(const xmlNode* n, const char* name) const
    {
        std::unique_ptr<xmlChar, XmlFree> v(xmlGetProp(n, reinterpret_cast<const xmlChar*>(name)));
        return v ? std::string(reinterpret_cast<const char*>(v.get())) : std::string();
    }
    std::string required(const xmlNode* n, const char* name) const
    {
        std::string v = attr(n, name);
        if (v.empty())
            fail(n, std::string("attribute ") + name + " missing");
        return v;
    }
    double seconds(const xmlNode* n, const std::string& what, const std::string& text) const
    {
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(v) || v < 0 || v > kMaxTraceSeconds)
            fail(n, what + " '" + text + "': expected seconds in [0, 10 years]");
        return v;
    }
    std::uint32_t cores(const xmlNode* n, const std::string& text) const
    {
        char* end = nullptr;
        errno = 0;
        const long v = std::strtol(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || errno != 0 || v < 1 || v > 1000000)
            fail(n, "cores '" + text + "': expected a whole number in [1, 1000000]");
        return std::uint32_t(v);
    }

private:
    const std::string& source_;
};

std::string text_of(const xmlNode* n)
{
    std::unique_ptr<xmlChar, XmlFree> v(xmlNodeGetContent(n));
    std::string s = v ? reinterpret_cast<const char*>(v.get()) : "";
    const auto first = s.find_first_not_of(" \t\r\n");
    const auto last = s.find_last_not_of(" \t\r\n");
    return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

WorkflowTask read_job(const Reader& r, const xmlNode* job)
{
    WorkflowTask t;
    t.origin = "line " + std::to_string(xmlGetLineNo(job));
    t.id = r.required(job, "id");
    t.name = r.attr(job, "name");
    if (t.name.empty())
        t.name = t.id;
    bool timed = false;
    const std::string runtime = r.attr(job, "runtime");
    if (!runtime.empty()) {
        t.runtime = r.seconds(job, "runtime", runtime);
        timed = true;
    }
    for (const xmlNode* c = job->children; c; c = c->next) {
        if (!named(c, "profile") || r.attr(c, "namespace") != "pegasus")
            continue;
        const std::string key = r.attr(c, "key");
        if (key == "runtime") {
            t.runtime = r.seconds(c, "runtime", text_of(c));
            timed = true;
        } else if (key == "cores") {
            t.cores = r.cores(c, text_of(c));
        }
    }
    if (!timed)
        r.fail(job, "job " + t.id + " has no runtime (attribute or pegasus profile)");
    return t;
}

} // namespace

Workflow parse_dax(const std::string& text, const std::string& source)
{
    std::unique_ptr<xmlParserCtxt, CtxtFree> ctxt(xmlNewParserCtxt());
    if (!ctxt)
        throw WorkflowError(source + ": cannot create an XML parser");
    // BIG_LINES: without it libxml2 numbers no line past 65535 in errors.
    const int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES;
    std::unique_ptr<xmlDoc, DocFree> doc(
        xmlCtxtReadMemory(ctxt.get(), text.data(), int(text.size()), source.c_str(), nullptr, options));
    if (!doc) {
        const xmlError* e = xmlCtxtGetLastError(ctxt.get());
        std::string msg = e && e->message ? e->message : "not well-formed XML";
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' '))
            msg.pop_back();
        throw WorkflowError(source + ":" + std::to_string(e ? e->line : 0) + ": invalid XML: " + msg);
    }
    const Reader r(source);
    const xmlNode* root = xmlDocGetRootElement(doc.get());
    if (!root || !named(root, "adag"))
        throw WorkflowError(source + ":" + std::to_string(root ? xmlGetLineNo(root) : 0) +
                            ": expected a DAX document (root element <adag>)");
    Workflow w;
    w.source = source;
    w.name = r.attr(root, "name");
    if (w.name.empty())
        w.name = source;
    std::unordered_map<std::string, std::size_t> index;
    for (const xmlNode* n = root->children; n; n = n->next) {
        if (!named(n, "job"))
            continue;
        WorkflowTask t = read_job(r, n);
        if (!index.emplace(t.id, w.tasks.size()).second)
            r.fail(n, "job id " + t.id + " is used twice");
        w.tasks.push_back(std::move(t));
    }
    for (const xmlNode* n = root->children; n; n = n->next) {
        if (!named(n, "child"))
            continue;
        const std::string child = r.required(n, "ref");
        auto c = index.find(child);
        if (c == index.end())
            r.fail(n, "ref " + child + " names no <job>");
        for (const xmlNode* p = n->children; p; p = p->next) {
            if (!named(p, "parent"))
                continue;
            const std::string parent = r.required(p, "ref");
            auto it = index.find(parent);
            if (it == index.end())
                r.fail(p, "ref " + parent + " names no <job>");
            auto& parents = w.tasks[c->second].parents;
            bool have = false;
            for (auto q : parents)
                have = have || q == it->second;
            if (!have)
                parents.push_back(it->second);
        }
    }
    check_workflow(w);
    return w;
}

} // namespace burst
