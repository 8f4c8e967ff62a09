#include "io/shell_script.h"

#include "io/shell_runner.h"
#include "io/shell_test.h"

namespace parascope::shell {

namespace detail {

namespace {

std::string baseName(const std::string& path)
{
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A Megatron-LM training entry point: pretrain_gpt.py, pretrain_mamba.py, …
bool isTrainingScript(const std::string& word)
{
    const std::string b = baseName(word);
    return b.rfind("pretrain_", 0) == 0 && b.size() > 3 && b.compare(b.size() - 3, 3, ".py") == 0;
}

bool endsCommand(Kind k)
{
    return k == Kind::Separator || k == Kind::And || k == Kind::Or || k == Kind::Pipe || k == Kind::Background
        || k == Kind::CaseEnd || k == Kind::Close;
}

} // namespace

Simple Runner::collectSimple()
{
    Simple s;
    s.line = peek() ? peek()->line : 0;
    const bool double_bracket = atWord("[[");
    while (const Token* t = peek()) {
        if (double_bracket
            && (t->kind == Kind::And || t->kind == Kind::Or || t->kind == Kind::Open || t->kind == Kind::Close)) {
            const char* w = t->kind == Kind::And ? "&&"
                : t->kind == Kind::Or            ? "||"
                : t->kind == Kind::Open          ? "("
                                                 : ")";
            s.words.push_back({Kind::Word, w, t->line, false});
            step();
            continue;
        }
        if (endsCommand(t->kind) || (t->kind == Kind::Open && !s.words.empty()))
            break;
        step();
        if (t->kind == Kind::Redirect) {
            if (peek() && peek()->kind == Kind::Word)
                step();
        } else if (t->kind == Kind::HereDoc) {
            s.heredocs.push_back(*t);
        } else if (t->kind == Kind::Open) {
            break; // "( … )" after nothing: not a simple command's word
        } else if (const auto a = s.words.empty() ? splitAssignment(t->text) : std::nullopt) {
            if (a->raw.empty() && peek() && peek()->kind == Kind::Open) {
                Simple::Array arr{*a, {}};
                for (step(); peek() && peek()->kind != Kind::Close; step())
                    if (peek()->kind == Kind::Word)
                        arr.words.push_back(*peek());
                step();
                s.arrays.push_back(std::move(arr));
            } else {
                s.assignments.push_back({*a, t->line});
            }
        } else {
            s.words.push_back(*t);
        }
        if (double_bracket && !s.words.empty() && s.words.back().text == "]]")
            break;
    }
    return s;
}

bool Runner::assignAll(Simple& s)
{
    for (const auto& [a, line] : s.assignments) {
        std::string why;
        if (!shell_.assign(a, line, why)) {
            errors_.push_back({"", why});
            return false;
        }
    }
    for (Simple::Array& arr : s.arrays) {
        std::vector<Field> elements;
        for (const Token& w : arr.words)
            for (Field& f : shell_.fields(w.text, w.line))
                elements.push_back(std::move(f));
        if (!shell_.assignArray(arr.name.name, std::move(elements), arr.name.append)) {
            errors_.push_back({"line " + std::to_string(s.line) + ": " + arr.name.name + "=( … )",
                               "the script's variables together grow past " + std::to_string(kMaxTotalBytes >> 20)
                                   + " MiB (ParaScope's limit)"});
            return false;
        }
    }
    return true;
}

bool Runner::runSimple(Simple& s)
{
    if (!assignAll(s)) {
        failed_ = true;
        return false;
    }
    std::vector<Field> f;
    for (const Token& w : s.words)
        for (Field& x : shell_.fields(w.text, w.line))
            f.push_back(std::move(x));
    if (f.empty())
        return true;
    return runCommandWords(f, s);
}

bool Runner::runNested(const std::string& text, int line_offset, int fixed_line, const std::string& what, int line)
{
    if (depth_ + 1 > kMaxScriptDepth) {
        note(line, what + " nested deeper than " + std::to_string(kMaxScriptDepth) + " levels is not read");
        return true;
    }
    Runner inner(shell_, out_, errors_, depth_ + 1);
    inner.functions_ = functions_;
    if (!inner.run(lex(text), line_offset, fixed_line))
        failed_ = true;
    return !failed_;
}

bool Runner::runCommandWords(const std::vector<Field>& f, const Simple& s)
{
    const std::string& name = f.front().text;
    const int line = s.line;
    if (name == "export" || name == "local" || name == "declare" || name == "readonly" || name == "typeset") {
        for (std::size_t k = 1; k < s.words.size(); ++k)
            if (const auto a = splitAssignment(s.words[k].text)) {
                std::string why;
                if (!shell_.assign(*a, s.words[k].line, why)) {
                    errors_.push_back({"", why});
                    failed_ = true;
                }
            }
        return true;
    }
    if (name == "unset") {
        for (std::size_t k = 1; k < f.size(); ++k)
            shell_.unset(f[k].text);
        return true;
    }
    if (name == "[" || name == "[[" || name == "test") {
        std::vector<Field> words(f.begin() + 1, f.end());
        if (name != "test" && !words.empty() && (words.back().text == "]" || words.back().text == "]]"))
            words.pop_back();
        const TestResult r = evaluateTest(words, shell_);
        if (!r.note.empty()) {
            std::string written;
            for (const Token& w : s.words)
                written += (written.empty() ? "" : " ") + w.text;
            note(line,
                 "the test " + shown(written) + (r.decided ? ": " : " cannot be decided here: ") + r.note
                     + "; the test taken as " + (r.value ? "true" : "false"));
        }
        return r.value;
    }
    if (name == "false")
        return false;
    if (name == "exit") {
        exited_ = true;
        note(line, "the script exits here; nothing after it is read");
        return true;
    }
    if (name == "source" || name == ".") {
        note(line, "\"" + name + "\" reads another file, which is not read here");
        return true;
    }
    if (name == "eval") {
        std::string text;
        for (std::size_t k = 1; k < f.size(); ++k)
            text += (k > 1 ? " " : "") + f[k].text;
        return runNested(text, 0, line, "eval", line);
    }
    if (const auto fn = functions_.find(name); fn != functions_.end())
        return callFunction(fn->second, line);
    return launchOrShell(f, s);
}

bool Runner::callFunction(const std::vector<Token>& body, int line)
{
    if (++calls_ > kMaxLoopRuns || depth_ + 1 > kMaxScriptDepth * 8) {
        note(line, "function calls stopped after " + std::to_string(kMaxLoopRuns));
        return true;
    }
    std::vector<Token> saved = std::move(t_);
    const std::size_t at = i_;
    t_ = body;
    i_ = 0;
    ++depth_;
    const bool status = command(true);
    --depth_;
    t_ = std::move(saved);
    i_ = at;
    return status;
}

// The launcher (a command naming pretrain_*.py), a shell given a command string (bash -c …) or
// a here-document (sbatch <<EOF …), or an argument list's line (it starts with a flag).
bool Runner::launchOrShell(const std::vector<Field>& f, const Simple& s)
{
    for (std::size_t k = 0; k < f.size(); ++k) {
        if (!isTrainingScript(f[k].text))
            continue;
        if (out_.launch) {
            note(s.line,
                 "another launcher (" + shown(f[k].text) + "); the one on line " + std::to_string(out_.launch->line)
                     + " is read");
            return true;
        }
        LaunchCommand c;
        c.before.assign(f.begin(), f.begin() + std::ptrdiff_t(k));
        c.script = f[k].text;
        c.arguments.assign(f.begin() + std::ptrdiff_t(k) + 1, f.end());
        c.line = s.line;
        out_.launch = std::move(c);
        return true;
    }
    for (std::size_t k = 0; k + 2 < f.size(); ++k) {
        const std::string b = baseName(f[k].text);
        if (b != "bash" && b != "sh")
            continue;
        for (std::size_t j = k + 1; j + 1 < f.size() && f[j].text.size() > 1 && f[j].text[0] == '-'; ++j)
            if (f[j].text.find('c') != std::string::npos && f[j].text.rfind("--", 0) != 0) {
                note(s.line,
                     "the command string " + b + " -c runs is read as a script"
                         + (f[j + 1].why.empty() ? std::string() : " (" + f[j + 1].why + ")"));
                return runNested(f[j + 1].text, 0, s.line, b + " -c", s.line);
            }
    }
    const std::string b = baseName(f.front().text);
    if (!s.heredocs.empty() && (b == "bash" || b == "sh" || b == "sbatch" || b == "srun")) {
        for (const Token& h : s.heredocs)
            if (!runNested(h.text, h.line, 0, "a here-document", s.line))
                return false;
        return true;
    }
    if (f.front().text.rfind("--", 0) == 0)
        out_.arguments.insert(out_.arguments.end(), f.begin(), f.end());
    return true;
}

} // namespace detail

std::optional<ScriptReading> readScript(const std::string& text, Shell& shell, std::vector<InputError>& errors)
{
    ScriptReading out;
    detail::Runner r(shell, out, errors, 0);
    if (!r.run(lex(text), 0, 0))
        return std::nullopt;
    return out;
}

} // namespace parascope::shell
