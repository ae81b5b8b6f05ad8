#include "app/config/config_line_lexer.hpp"

#include <cctype>

namespace burst {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The part of a physical line before a '#' that is not inside quotes.
std::string_view strip_comment(std::string_view line)
{
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\\' && quoted && i + 1 < line.size())
            ++i;
        else if (line[i] == '"')
            quoted = !quoted;
        else if (line[i] == '#' && !quoted)
            return line.substr(0, i);
    }
    return line;
}

std::string_view trim_right(std::string_view s)
{
    while (!s.empty() && is_space(s.back()))
        s.remove_suffix(1);
    return s;
}

class LineTokenizer {
public:
    LineTokenizer(std::string_view text, std::string where) : text_(text), where_(std::move(where)) {}

    // Appends pairs to `line`; returns false with `error` set at the first bad token.
    bool run(ConfigLine& line, std::string& error)
    {
        while (true) {
            while (pos_ < text_.size() && is_space(text_[pos_]))
                ++pos_;
            if (pos_ >= text_.size())
                return true;
            std::size_t start = pos_;
            while (pos_ < text_.size() && text_[pos_] != '=' && !is_space(text_[pos_]))
                ++pos_;
            if (pos_ >= text_.size() || text_[pos_] != '=') {
                error = where_ + "expected Key=Value, got \"" + std::string(text_.substr(start, pos_ - start)) + "\"";
                return false;
            }
            if (pos_ == start) {
                error = where_ + "expected a key before '='";
                return false;
            }
            ConfigPair pair;
            pair.key = std::string(text_.substr(start, pos_ - start));
            ++pos_; // '='
            if (!value(pair, error))
                return false;
            line.pairs.push_back(std::move(pair));
        }
    }

private:
    bool value(ConfigPair& pair, std::string& error)
    {
        if (pos_ < text_.size() && text_[pos_] == '"') {
            ++pos_;
            while (pos_ < text_.size() && text_[pos_] != '"') {
                if (text_[pos_] == '\\' && pos_ + 1 < text_.size())
                    ++pos_;
                pair.value += text_[pos_++];
            }
            if (pos_ >= text_.size()) {
                error = where_ + pair.key + ": expected a closing '\"'";
                return false;
            }
            ++pos_;
            if (pos_ < text_.size() && !is_space(text_[pos_])) {
                error = where_ + pair.key + ": expected a space after the closing '\"'";
                return false;
            }
            return true;
        }
        std::size_t start = pos_;
        while (pos_ < text_.size() && !is_space(text_[pos_]))
            ++pos_;
        pair.value = std::string(text_.substr(start, pos_ - start));
        return true;
    }

    std::string_view text_;
    std::string where_;
    std::size_t pos_ = 0;
};

} // namespace

LexedConfig lex_config(std::string_view text, const std::string& file)
{
    LexedConfig out;
    std::string logical;
    std::size_t logical_start = 0;
    std::size_t number = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t eol = text.find('\n', pos);
        std::string_view physical = text.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
        pos = eol == std::string_view::npos ? text.size() : eol + 1;
        ++number;
        if (logical.empty())
            logical_start = number;
        std::string_view content = trim_right(strip_comment(physical));
        bool continued = !content.empty() && content.back() == '\\';
        if (continued)
            content.remove_suffix(1);
        logical.append(content);
        if (continued) {
            logical += ' ';
            if (pos < text.size())
                continue;
        }
        ConfigLine line;
        line.number = logical_start;
        std::string error;
        LineTokenizer tokenizer(logical, file + ":" + std::to_string(logical_start) + ": ");
        if (!tokenizer.run(line, error))
            out.errors.push_back(error);
        else if (!line.pairs.empty())
            out.lines.push_back(std::move(line));
        logical.clear();
    }
    return out;
}

} // namespace burst
