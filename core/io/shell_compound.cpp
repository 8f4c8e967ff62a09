// The compound commands of io/shell_runner.h: if, for, while / until, case, { } and ( ) groups,
// function definitions.

#include "io/shell_runner.h"

#include "io/shell_test.h"

namespace parascope::shell::detail {

bool Runner::command(bool live)
{
    live = live && !exited_;
    const Token* t = peek();
    if (!t)
        return true;
    if (nesting_ >= kMaxNesting * 4) { // ( ( ( … or if if if …: refused before the stack runs out
        errors_.push_back({"line " + std::to_string(t->line),
                           "commands nested deeper than " + std::to_string(kMaxNesting * 4) + " levels"});
        failed_ = true;
        i_ = t_.size();
        return false;
    }
    ++nesting_;
    const bool status = compoundOrSimple(live, *t);
    --nesting_;
    return status;
}

bool Runner::compoundOrSimple(bool live, const Token& token)
{
    const Token* t = &token;
    if (t->kind == Kind::Open) {
        step();
        return group(live, Kind::Close, "");
    }
    if (t->kind == Kind::Word) {
        const std::string& w = t->text;
        if (w == "if")
            return ifClause(live);
        if (w == "for")
            return forClause(live);
        if (w == "while" || w == "until")
            return whileClause(live);
        if (w == "case")
            return caseClause(live);
        if (w == "{") {
            step();
            return group(live, Kind::Word, "}");
        }
        if (w == "function")
            return functionDefinition(true);
        if (i_ + 2 < t_.size() && t_[i_ + 1].kind == Kind::Open && t_[i_ + 2].kind == Kind::Close
            && std::all_of(w.begin(), w.end(), [](char c) { return isNameChar(c) || c == '-' || c == '.'; }))
            return functionDefinition(false);
    }
    Simple s = collectSimple();
    return live ? runSimple(s) : true;
}

bool Runner::group(bool live, Kind close_kind, std::string_view close_word)
{
    const bool status = list(live, {close_word});
    skipSeparators();
    if (peek() && peek()->kind == close_kind && (close_kind != Kind::Word || peek()->text == close_word)) {
        step();
        return status;
    }
    return expectWord(close_kind == Kind::Close ? ")" : close_word);
}

bool Runner::ifClause(bool live)
{
    bool taken = false, status = true;
    do {
        step(); // "if" or "elif"
        const bool cond = list(live && !taken, {"then"});
        if (!expectWord("then"))
            return false;
        const bool run = live && !taken && cond;
        const bool s = list(run, {"elif", "else", "fi"});
        if (run) {
            status = s;
            taken = true;
        }
        skipSeparators();
    } while (atWord("elif"));
    if (atWord("else")) {
        step();
        const bool s = list(live && !taken, {"fi"});
        if (live && !taken)
            status = s;
    }
    return expectWord("fi") && status;
}

bool Runner::forClause(bool live)
{
    const int line = peek()->line;
    step();
    if (!peek() || peek()->kind != Kind::Word || !isNameStart(peek()->text.empty() ? '0' : peek()->text[0])) {
        note(line, "a for loop other than \"for NAME in WORDS\" is not run");
        while (peek() && !atWord("do"))
            step();
        if (!expectWord("do"))
            return false;
        list(false, {"done"});
        return expectWord("done");
    }
    const std::string name = t_[i_++].text;
    std::vector<Field> values;
    skipSeparators();
    if (atWord("in"))
        for (step(); peek() && peek()->kind == Kind::Word; step())
            for (Field& f : shell_.fields(peek()->text, peek()->line))
                values.push_back(std::move(f));
    if (!expectWord("do"))
        return false;
    const std::size_t body = i_;
    bool status = true;
    if (live)
        for (const Field& v : values) {
            if (++loop_runs_ > kMaxLoopRuns) {
                note(line, "loops stopped after " + std::to_string(kMaxLoopRuns) + " runs");
                break;
            }
            shell_.assignArray(name, {v}, false);
            i_ = body;
            status = list(true, {"done"});
        }
    i_ = body;
    list(false, {"done"});
    return expectWord("done") && status;
}

bool Runner::whileClause(bool live)
{
    const int line = peek()->line;
    const bool until = peek()->text == "until";
    step();
    const std::size_t before = out_.notes.size();
    const bool cond = list(live, {"do"}) != until;
    if (live && cond && out_.notes.size() == before)
        note(line, std::string(until ? "until" : "while") + " loop: its body is not run (a loop is not followed)");
    if (!expectWord("do"))
        return false;
    list(false, {"done"});
    return expectWord("done");
}

bool Runner::caseClause(bool live)
{
    step();
    const Token word = peek() ? *peek() : Token{};
    step();
    const std::vector<Field> f = shell_.fields(word.text, word.line);
    const std::string subject = f.empty() ? std::string() : f.front().text;
    if (live && !f.empty() && !f.front().why.empty())
        note(word.line, "case " + shown(word.text) + ": " + f.front().why + "; no branch taken");
    if (!expectWord("in"))
        return false;
    bool taken = false;
    for (;;) {
        skipSeparators();
        if (!peek() || atWord("esac"))
            break;
        if (peek()->kind == Kind::Open)
            step();
        bool match = false;
        while (peek() && peek()->kind != Kind::Close) {
            if (peek()->kind == Kind::Word)
                for (const Field& p : shell_.fields(peek()->text, peek()->line))
                    match = match || globMatch(subject, p.text);
            step();
        }
        step(); // ')'
        const bool run = live && !taken && match && (f.empty() || f.front().why.empty());
        list(run, {"esac"});
        taken = taken || run;
        if (peek() && peek()->kind == Kind::CaseEnd)
            step();
    }
    return expectWord("esac");
}

bool Runner::functionDefinition(bool keyword)
{
    if (keyword)
        step();
    if (!peek() || peek()->kind != Kind::Word) {
        const int line = peek() ? peek()->line : t_.back().line;
        errors_.push_back({"line " + std::to_string(line), "\"function\" without a name"});
        failed_ = true;
        return false;
    }
    const std::string name = peek()->text;
    step();
    if (peek() && peek()->kind == Kind::Open && i_ + 1 < t_.size() && t_[i_ + 1].kind == Kind::Close)
        i_ += 2;
    skipSeparators();
    const std::size_t start = i_;
    command(false);
    functions_[name] = std::vector<Token>(t_.begin() + std::ptrdiff_t(start), t_.begin() + std::ptrdiff_t(i_));
    return true;
}

// One simple command's tokens: its leading assignments (arrays with their words), words,
// redirections (dropped) and here-documents. `[[ … ]]` keeps its && and || as words.

} // namespace parascope::shell::detail
