#include "provider/aws/ini_file.hpp"

#include <fstream>
#include <sstream>

namespace burst {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

[[noreturn]] void fail(const std::string& source, size_t line, const char* what)
{
    throw IniError(source + ":" + std::to_string(line) + ": " + what);
}

} // namespace

IniFile IniFile::parse(std::string_view text, const std::string& source)
{
    IniFile ini;
    Section* current = nullptr;
    std::string parent_key; // a key with an empty value opens a nested block
    size_t number = 0;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view raw = text.substr(pos, end - pos);
        pos = end + 1;
        ++number;
        std::string_view line = trim(raw);
        if (line.empty() || line.front() == '#' || line.front() == ';')
            continue;
        bool indented = raw.front() == ' ' || raw.front() == '\t';
        if (line.front() == '[') {
            if (line.back() != ']')
                fail(source, number, "expected ']' at the end of the section header");
            std::string name(trim(line.substr(1, line.size() - 2)));
            if (name.empty())
                fail(source, number, "empty section name");
            current = &ini.sections_[name];
            parent_key.clear();
            continue;
        }
        size_t eq = line.find('=');
        if (eq == std::string_view::npos)
            fail(source, number, "expected '[section]' or 'key = value'");
        if (!current)
            fail(source, number, "'key = value' before any [section]");
        std::string key(trim(line.substr(0, eq)));
        std::string value(trim(line.substr(eq + 1)));
        if (key.empty())
            fail(source, number, "empty key before '='");
        if (indented && !parent_key.empty()) {
            (*current)[parent_key + "." + key] = value;
            continue;
        }
        if (indented)
            fail(source, number, "indented 'key = value' that belongs to no 'key =' block");
        (*current)[key] = value;
        parent_key = value.empty() ? key : std::string();
    }
    return ini;
}

IniFile IniFile::load(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw IniError(path + ": cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    return parse(text.str(), path);
}

const IniFile::Section* IniFile::section(const std::string& name) const
{
    auto it = sections_.find(name);
    return it == sections_.end() ? nullptr : &it->second;
}

} // namespace burst
