#pragma once
// The INI dialect of ~/.aws/config and ~/.aws/credentials: [section] lines,
// "key = value" lines, '#' and ';' comment lines, and indented "sub = value"
// lines under a key with an empty value (stored as "key.sub").  Errors name
// file:line but never quote the line, because these files hold secrets.

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace burst {

class IniError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class IniFile {
public:
    using Section = std::map<std::string, std::string>;

    static IniFile parse(std::string_view text, const std::string& source);
    // Reads and parses a file; throws IniError if it cannot be read.
    static IniFile load(const std::string& path);

    // nullptr if the file has no such section.
    const Section* section(const std::string& name) const;

private:
    std::map<std::string, Section> sections_;
};

} // namespace burst
