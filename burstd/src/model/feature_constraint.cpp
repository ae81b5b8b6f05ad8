#include "model/feature_constraint.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

namespace burst {
namespace {

bool is_operator(char c)
{
    return c == '&' || c == ',' || c == '|' || c == '*' || c == '(' || c == ')' || c == '[' || c == ']';
}

} // namespace

// Recursive descent over: expression = operand { ('&'|','|'|') operand };
// operand = name ['*' count] | '(' expression ')' | '[' expression ']'.
// Each operator is emitted after both its operands, left to right, which
// is Slurm's order of evaluation.
FeatureConstraint::FeatureConstraint(std::string_view text)
{
    std::size_t at = 0;
    std::size_t nesting = 0;
    bool in_brackets = false;
    auto fail = [&](const std::string& expected) {
        throw std::invalid_argument("constraint \"" + std::string(text) + "\" at character " + std::to_string(at + 1) +
                                    ": expected " + expected);
    };
    // Returns at the end of the text or at a closing bracket it leaves unread.
    auto expression = [&](auto& self, char closing) -> void {
        auto operand = [&] {
            if (at >= text.size())
                fail("a feature name");
            const char c = text[at];
            if (c == '(' || c == '[') {
                if (c == '[') {
                    if (in_brackets)
                        fail("no '[' within brackets");
                    in_brackets = true;
                }
                ++at;
                self(self, c == '(' ? ')' : ']');
                if (at >= text.size() || text[at] != (c == '(' ? ')' : ']'))
                    fail(std::string("'") + (c == '(' ? ')' : ']') + "'");
                ++at;
                if (c == '[')
                    in_brackets = false;
                return;
            }
            const std::size_t start = at;
            while (at < text.size() && !is_operator(text[at]) && !std::isspace(static_cast<unsigned char>(text[at])))
                ++at;
            if (at == start)
                fail("a feature name");
            terms_.push_back(Term{Term::Feature, std::string(text.substr(start, at - start))});
            if (at < text.size() && text[at] == '*') {
                const std::size_t digits = ++at;
                while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])))
                    ++at;
                if (at == digits || text.substr(digits, at - digits).find_first_not_of('0') == std::string_view::npos)
                    fail("a node count above 0 after '*'");
            }
        };
        if (++nesting > kMaxDepth - 1)
            fail("parentheses nested at most " + std::to_string(kMaxDepth - 2) + " deep");
        operand();
        while (at < text.size() && text[at] != closing) {
            const char op = text[at];
            if (op != '&' && op != ',' && op != '|')
                fail(closing ? std::string("'&', '|' or '") + closing + "'" : "'&' or '|'");
            ++at;
            operand();
            terms_.push_back(Term{op == '|' ? Term::Or : Term::And, {}});
        }
        --nesting;
    };
    if (text.empty())
        return;
    expression(expression, '\0');
    if (at != text.size())
        fail("the end of the constraint");
}

bool FeatureConstraint::met_by(const std::vector<std::string>& sorted_features) const
{
    // The stack holds one value per open operand: as deep as the
    // parentheses nest, plus one.  Slurm allows no nesting at all.
    std::array<bool, kMaxDepth> stack{};
    std::size_t depth = 0;
    for (const Term& t : terms_) {
        if (t.kind == Term::Feature) {
            stack[depth++] = std::binary_search(sorted_features.begin(), sorted_features.end(), t.feature);
            continue;
        }
        const bool right = stack[--depth];
        stack[depth - 1] = t.kind == Term::And ? stack[depth - 1] && right : stack[depth - 1] || right;
    }
    return depth == 0 || stack[0];
}

} // namespace burst
