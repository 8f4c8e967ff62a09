#include "io/shell_words.h"

#include "io/shell_arithmetic.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace parascope::shell {

bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// For messages: the construct as written on one line (a newline shown as ⏎), at most 60 bytes.
std::string shown(std::string_view w)
{
    std::string s;
    for (const char c : w.substr(0, 256))
        s += c == '\n' ? std::string("⏎") : std::string(1, c);
    if (w.size() > 256)
        s += w.substr(256, 64);
    return quoteInput(s, 60);
}

// A whole number as a variable holds it ("-3", "42"); nothing for anything else.
std::optional<long long> wholeNumber(std::string_view s)
{
    if (s.empty() || s.size() > 19)
        return std::nullopt;
    const std::string t(s);
    char* end = nullptr;
    errno = 0;
    const long long n = std::strtoll(t.c_str(), &end, 10);
    if (errno != 0 || end == t.c_str() || *end != '\0')
        return std::nullopt;
    return n;
}

std::optional<Assignment> splitAssignment(const std::string& word)
{
    if (word.empty() || !isNameStart(word[0]))
        return std::nullopt;
    std::size_t j = 1;
    while (j < word.size() && isNameChar(word[j]))
        ++j;
    const bool append = j + 1 < word.size() && word[j] == '+' && word[j + 1] == '=';
    if (j >= word.size() || (word[j] != '=' && !append))
        return std::nullopt;
    return Assignment{word.substr(0, j), word.substr(j + (append ? 2 : 1)), append};
}

// What an expansion appends to: words split where an unquoted expansion has blanks (field
// splitting), or one value (an assignment: no splitting).
class FieldSink {
public:
    FieldSink(bool split, int line)
        : split_(split)
        , line_(line)
    { }

    // Text that is part of the word as written (a literal character, a quoted string).
    bool literal(std::string_view s, bool quoted)
    {
        present_ = present_ || quoted || !s.empty();
        return add(s);
    }
    // An unquoted expansion's value: split at blanks.
    bool expansion(std::string_view s)
    {
        if (!split_)
            return literal(s, false);
        std::size_t i = 0;
        while (i < s.size()) {
            if (std::isspace(static_cast<unsigned char>(s[i]))) {
                breakField();
                while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
                    ++i;
                continue;
            }
            const std::size_t end = std::find_if(s.begin() + i, s.end(),
                                                 [](char c) { return std::isspace(static_cast<unsigned char>(c)); })
                - s.begin();
            present_ = true;
            if (!add(s.substr(i, end - i)))
                return false;
            i = end;
        }
        return true;
    }
    // Between two elements of "${A[@]}" (one value: a space).
    void breakField()
    {
        if (!split_) {
            add(" ");
            return;
        }
        if (present_)
            out_.push_back({cur_, line_, why_});
        cur_.clear();
        why_.clear();
        reasons_ = 0;
        present_ = false;
    }
    void lineHint(int line)
    {
        if (!present_)
            line_ = line;
    }
    // Each reason once, at most three (a word with several unset variables names them all).
    void cannotRead(const std::string& why)
    {
        present_ = true;
        if (why_.find(why) != std::string::npos || reasons_ >= 3)
            return;
        why_ += (why_.empty() ? "" : "; ") + why;
        ++reasons_;
    }
    std::vector<Field> finish()
    {
        if (present_)
            out_.push_back({cur_, line_, why_});
        return std::move(out_);
    }
    bool overflowed() const { return overflowed_; }

private:
    bool add(std::string_view s)
    {
        if (cur_.size() + s.size() > kMaxValueBytes) {
            overflowed_ = true;
            return false;
        }
        cur_ += s;
        return true;
    }
    bool split_;
    int line_;
    bool present_ = false, overflowed_ = false;
    int reasons_ = 0;
    std::string cur_, why_;
    std::vector<Field> out_;
};

// A parameter reference starting at w[i] == '$': ${NAME}, ${NAME:-default}, ${NAME-default},
// ${ARRAY[@]}, ${ARRAY[*]}, $NAME, $1, ${1:-default}, $#, $@, $*. `last` is the index of its
// last character.
struct Reference {
    std::string name; // empty: a lone '$', kept as it is
    std::string_view fallback; // ${NAME:-fallback}
    bool has_fallback = false;
    bool fallback_if_empty = true; // ':-' (else '-': only when unset)
    bool array = false; // ${ARRAY[@]}
    bool joined = false; // ${ARRAY[*]}
    std::size_t last = 0;
};

namespace {

constexpr std::string_view kSpecial = "@*#?$!-0123456789";

bool positional(const std::string& name)
{
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The `}` closing the "${" at `open`, counting nested "${": npos when there is none.
std::size_t closingBrace(std::string_view w, std::size_t open)
{
    int depth = 0;
    for (std::size_t j = open; j < w.size(); ++j) {
        if (w[j] == '$' && j + 1 < w.size() && w[j + 1] == '{') {
            ++depth;
            ++j;
        } else if (w[j] == '}' && --depth == 0) {
            return j;
        }
    }
    return std::string_view::npos;
}

// The first `)` of the "))" closing the "$((" at `open`: npos when there is none.
std::size_t closingArithmetic(std::string_view w, std::size_t open)
{
    int depth = 0;
    for (std::size_t j = open + 3; j < w.size(); ++j) {
        if (w[j] == '(')
            ++depth;
        else if (w[j] == ')' && depth > 0)
            --depth;
        else if (w[j] == ')')
            return j + 1 < w.size() && w[j + 1] == ')' ? j : std::string_view::npos;
    }
    return std::string_view::npos;
}

std::optional<Reference> parseBraced(std::string_view w, std::size_t i, std::string& why)
{
    Reference r;
    const std::size_t end = closingBrace(w, i);
    if (end == std::string_view::npos) {
        why = "the parameter expansion " + shown(w.substr(i)) + " is not closed by \"}\"";
        return std::nullopt;
    }
    const std::string_view inside = w.substr(i + 2, end - i - 2);
    std::size_t n = 0;
    while (n < inside.size() && isNameChar(inside[n]))
        ++n;
    r.name = std::string(inside.substr(0, n));
    const std::string_view rest = inside.substr(n);
    r.last = end;
    const bool named = !r.name.empty() && (isNameStart(r.name[0]) || positional(r.name));
    r.array = named && rest == "[@]";
    r.joined = named && rest == "[*]";
    r.has_fallback = named && (rest.substr(0, 2) == ":-" || rest.substr(0, 1) == "-");
    r.fallback_if_empty = rest.substr(0, 1) == ":";
    if (r.has_fallback)
        r.fallback = rest.substr(r.fallback_if_empty ? 2 : 1);
    if (!named || (!rest.empty() && !r.array && !r.joined && !r.has_fallback)) {
        why = "the parameter expansion " + shown(w.substr(i, end + 1 - i))
            + " (ParaScope reads ${NAME}, ${NAME:-default} and ${ARRAY[@]})";
        return std::nullopt;
    }
    return r;
}

std::optional<Reference> parseReference(std::string_view w, std::size_t i, std::string& why)
{
    if (w[i + 1] == '{')
        return parseBraced(w, i, why);
    Reference r;
    if (kSpecial.find(w[i + 1]) != std::string_view::npos) {
        r.name = std::string(1, w[i + 1]);
        r.last = i + 1;
        return r;
    }
    std::size_t j = i + 1;
    while (j < w.size() && isNameChar(w[j]))
        ++j;
    r.name = std::string(w.substr(i + 1, j - i - 1));
    r.last = r.name.empty() ? i : j - 1;
    return r;
}

// Positional and special parameters of a script read without arguments.
std::optional<std::string> special(const std::string& name)
{
    if (name == "#" || name == "?" || name == "$")
        return std::string("0");
    if (name == "0")
        return std::string("script.sh");
    if (name.size() == 1 && kSpecial.find(name[0]) != std::string_view::npos)
        return std::string();
    if (positional(name))
        return std::string();
    return std::nullopt;
}

} // namespace

std::optional<std::string> Shell::lookup(const std::string& name, std::string& why) const
{
    if (const auto v = vars_.find(name); v != vars_.end())
        return v->second.empty() ? std::string() : v->second.front().text;
    if (auto s = special(name))
        return s;
    if (const auto f = failed_.find(name); f != failed_.end())
        why = "$" + name + " is not set: " + f->second;
    else
        why = "$" + name + " is not set in the script";
    return std::nullopt;
}

const std::vector<Field>* Shell::elements(const std::string& name) const
{
    const auto v = vars_.find(name);
    return v != vars_.end() ? &v->second : nullptr;
}

std::vector<Field> Shell::fields(const std::string& raw, int line) const
{
    FieldSink sink(true, line);
    std::string why;
    if (!expandInto(raw, 0, sink, why)) {
        if (sink.overflowed())
            why = "the value grows past " + std::to_string(kMaxValueBytes >> 20)
                + " MiB (ParaScope's limit for one shell value)";
        return {{raw, line, why}};
    }
    return sink.finish();
}

std::optional<std::string> Shell::value(const std::string& raw, std::string& why, std::string* unread) const
{
    FieldSink sink(false, 0);
    if (!expandInto(raw, 0, sink, why)) {
        if (sink.overflowed())
            why = "the value grows past " + std::to_string(kMaxValueBytes >> 20)
                + " MiB (ParaScope's limit for one shell value)";
        return std::nullopt;
    }
    std::vector<Field> f = sink.finish();
    if (!f.empty() && !f.front().why.empty()) {
        if (!unread) {
            why = f.front().why;
            return std::nullopt;
        }
        *unread = f.front().why;
    }
    return f.empty() ? std::string() : f.front().text;
}

bool Shell::expandInto(std::string_view w, int depth, FieldSink& sink, std::string& why) const
{
    bool in_double = false;
    bool quoted_array = false; // "${A[@]}" of no elements is no word at all
    for (std::size_t i = 0; i < w.size(); ++i) {
        const char c = w[i];
        if (c == '\'' && !in_double) {
            const std::size_t end = std::min(w.size(), w.find('\'', i + 1));
            if (!sink.literal(w.substr(i + 1, end - i - 1), true))
                return false;
            i = end;
        } else if (c == '"') {
            if (in_double && !quoted_array)
                sink.literal({}, true); // "" is a word, even empty
            in_double = !in_double;
            quoted_array = false;
        } else if (c == '\\' && i + 1 < w.size()) {
            const bool escapes = !in_double || std::string_view("$`\"\\\n").find(w[i + 1]) != std::string_view::npos;
            if (!sink.literal(escapes ? w.substr(i + 1, 1) : w.substr(i, 2), true))
                return false;
            ++i;
        } else if (c == '`' || (c == '$' && w.compare(i, 2, "$(") == 0 && w.compare(i, 3, "$((") != 0)) {
            why = "the command substitution " + shown(w.substr(i)) + " (ParaScope does not run commands)";
            return false;
        } else if (c == '$' && w.compare(i, 3, "$((") == 0) {
            if (!appendArithmetic(w, i, in_double, sink, why))
                return false;
        } else if (c == '$' && i + 1 < w.size()) {
            const std::optional<Reference> r = parseReference(w, i, why);
            if (!r)
                return false;
            i = r->last;
            quoted_array = quoted_array || (in_double && r->array);
            if (r->name.empty() ? !sink.literal("$", in_double) : !appendReference(*r, in_double, depth, sink, why))
                return false;
        } else if (!sink.literal(w.substr(i, 1), in_double)) {
            return false;
        }
    }
    return true;
}

bool Shell::appendArithmetic(std::string_view w, std::size_t& i, bool quoted, FieldSink& sink, std::string& why) const
{
    const std::size_t end = closingArithmetic(w, i);
    if (end == std::string_view::npos) {
        why = "the arithmetic " + shown(w.substr(i)) + " is not closed by \"))\"";
        return false;
    }
    const auto value = evaluateArithmetic(
        w.substr(i + 3, end - i - 3),
        [this](const std::string& name, std::string& cause) { return lookup(name, cause); }, why);
    if (!value)
        return false;
    i = end + 1;
    const std::string text = std::to_string(*value);
    return quoted ? sink.literal(text, true) : sink.expansion(text);
}

bool Shell::appendReference(const Reference& r, bool quoted, int depth, FieldSink& sink, std::string& why) const
{
    const auto v = vars_.find(r.name);
    const bool unset = v == vars_.end() && !special(r.name);
    const std::vector<Field> none;
    const std::vector<Field>& elements = v != vars_.end() ? v->second : none;
    const std::string scalar
        = v != vars_.end() ? (elements.empty() ? "" : elements.front().text) : special(r.name).value_or("");
    if (r.has_fallback && (unset || (r.fallback_if_empty && scalar.empty()))) {
        if (depth + 1 >= kMaxNesting) {
            why = "${…:-…} nested deeper than " + std::to_string(kMaxNesting) + " levels";
            return false;
        }
        return expandInto(r.fallback, depth + 1, sink, why);
    }
    if (unset) {
        std::string cause;
        lookup(r.name, cause);
        sink.cannotRead(cause);
        return true;
    }
    if (!r.array && !r.joined) {
        if (!elements.empty() && !elements.front().why.empty())
            sink.cannotRead(elements.front().why);
        return quoted ? sink.literal(scalar, true) : sink.expansion(scalar);
    }
    for (std::size_t k = 0; k < elements.size(); ++k) {
        const Field& e = elements[k];
        if (k > 0 && (!quoted || r.array))
            sink.breakField(); // "${A[@]}": one word per element; unquoted: split anyway
        else if (k > 0 && !sink.literal(" ", true)) // "${A[*]}": the elements joined
            return false;
        sink.lineHint(e.line);
        if (!e.why.empty())
            sink.cannotRead(e.why);
        if (!(quoted ? sink.literal(e.text, true) : sink.expansion(e.text)))
            return false;
    }
    return true;
}

bool Shell::store(const std::string& name, std::vector<Field> value)
{
    std::size_t size = 0, before = 0;
    for (const Field& f : value)
        size += f.text.size();
    if (const auto old = vars_.find(name); old != vars_.end())
        for (const Field& f : old->second)
            before += f.text.size();
    if (total_bytes_ - before + size > kMaxTotalBytes)
        return false;
    total_bytes_ = total_bytes_ - before + size;
    vars_[name] = std::move(value);
    failed_.erase(name);
    return true;
}

void Shell::unset(const std::string& name)
{
    if (const auto old = vars_.find(name); old != vars_.end()) {
        for (const Field& f : old->second)
            total_bytes_ -= f.text.size();
        vars_.erase(old);
    }
    failed_.erase(name);
}

bool Shell::assignArray(const std::string& name, std::vector<Field> elements, bool append)
{
    if (append)
        if (const std::vector<Field>* old = this->elements(name))
            elements.insert(elements.begin(), old->begin(), old->end());
    return store(name, std::move(elements));
}

bool Shell::assign(const Assignment& a, int line, std::string& why)
{
    std::string cause, unread;
    std::optional<std::string> value = this->value(a.raw, cause, &unread);
    const std::string where = "line " + std::to_string(line) + ": " + a.name + (a.append ? "+=" : "=") + shown(a.raw);
    if (!value && cause.find("ParaScope's limit") != std::string::npos) {
        why = where + ": " + cause;
        return false;
    }
    if (!value) {
        // Unset until used: a script may define what it never passes on.
        unset(a.name);
        failed_[a.name] = "its assignment on " + where + " could not be read: " + cause;
        return true;
    }
    std::vector<Field> elements;
    if (const std::vector<Field>* old = this->elements(a.name); old && a.append)
        elements = *old;
    if (elements.empty())
        elements.push_back({"", line, ""});
    elements.front().text += *value;
    if (!unread.empty() && elements.front().why.empty()) // set, with what could not be read said on use
        elements.front().why = "$" + a.name + " is not fully read: its assignment on " + where + " has " + unread;
    if (elements.front().text.size() > kMaxValueBytes) {
        why = where + ": the value grows past " + std::to_string(kMaxValueBytes >> 20)
            + " MiB (ParaScope's limit for one shell value)";
        return false;
    }
    if (!store(a.name, std::move(elements))) {
        why = where + ": the script's variables together grow past " + std::to_string(kMaxTotalBytes >> 20)
            + " MiB (ParaScope's limit)";
        return false;
    }
    return true;
}

} // namespace parascope::shell
