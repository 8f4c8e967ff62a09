#pragma once
// The statement runner behind io/shell_script.h: a recursive-descent reader of bash's grammar
// over the tokens of io/shell_words, running what is live (the branches taken) and only parsing
// the rest. Internal to io/shell_script.cpp and io/shell_compound.cpp.

#include "io/shell_script.h"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace parascope::shell::detail {

using Kind = Token::Kind;

inline constexpr int kMaxScriptDepth = 4; // bash -c / eval / here-documents inside each other
inline constexpr int kMaxLoopRuns = 1000; // iterations of all `for` loops together

struct Simple {
    std::vector<std::pair<Assignment, int>> assignments; // scalar ones, with their line
    struct Array {
        Assignment name;
        std::vector<Token> words;
    };
    std::vector<Array> arrays;
    std::vector<Token> words;
    std::vector<Token> heredocs;
    int line = 0;
};

class Runner {
public:
    Runner(Shell& shell, ScriptReading& out, std::vector<InputError>& errors, int depth)
        : shell_(shell)
        , out_(out)
        , errors_(errors)
        , depth_(depth)
    { }

    // Runs the tokens as a script; lines are shifted by line_offset (a here-document's start) or
    // all set to fixed_line (a `bash -c` string). False on a hard error.
    bool run(std::vector<Token> tokens, int line_offset, int fixed_line)
    {
        for (Token& t : tokens)
            t.line = fixed_line > 0 ? fixed_line : t.line + line_offset;
        t_ = std::move(tokens);
        i_ = 0;
        while (i_ < t_.size() && !failed_) {
            list(true, {});
            if (i_ < t_.size() && !failed_) { // a stray keyword or ')': step over it
                note(t_[i_].line, shown(t_[i_].text.empty() ? ")" : t_[i_].text) + " where no command starts");
                step();
            }
        }
        return !failed_;
    }

private:
    const Token* peek() const { return i_ < t_.size() ? &t_[i_] : nullptr; }
    // Moves to the next token, never past the end: a clause cut short (`function` or `case` as
    // the last word) must leave i_ a valid end for the token ranges a function body is copied from.
    void step()
    {
        if (i_ < t_.size())
            ++i_;
    }
    bool atWord(std::string_view w) const { return peek() && peek()->kind == Kind::Word && peek()->text == w; }
    void note(int line, const std::string& what) { out_.notes.push_back("line " + std::to_string(line) + ": " + what); }
    void skipSeparators()
    {
        while (peek() && peek()->kind == Kind::Separator)
            step();
    }
    bool expectWord(std::string_view w)
    {
        if (failed_)
            return false;
        skipSeparators();
        if (atWord(w)) {
            step();
            return true;
        }
        const int line = peek() ? peek()->line : (t_.empty() ? 0 : t_.back().line);
        errors_.push_back({"line " + std::to_string(line),
                           "\"" + std::string(w)
                               + "\" expected (the script's "
                                 "syntax is not what bash reads)"});
        failed_ = true;
        return false;
    }

    // Commands up to a keyword of `stops` at a command's start (not consumed), a ')' or the end.
    // Returns the last command's status.
    bool list(bool live, std::initializer_list<std::string_view> stops)
    {
        bool status = true;
        for (;;) {
            skipSeparators();
            const Token* t = peek();
            if (!t || failed_ || t->kind == Kind::Close || t->kind == Kind::CaseEnd)
                return status;
            if (t->kind == Kind::Word && std::find(stops.begin(), stops.end(), t->text) != stops.end())
                return status;
            status = andOr(live);
            if (peek() && (peek()->kind == Kind::Background))
                step();
        }
    }

    bool andOr(bool live)
    {
        bool status = pipeline(live);
        while (peek() && (peek()->kind == Kind::And || peek()->kind == Kind::Or)) {
            const bool run_next = peek()->kind == Kind::And ? status : !status;
            step();
            skipSeparators();
            const bool s = pipeline(live && run_next);
            if (live && run_next)
                status = s;
        }
        return status;
    }

    bool pipeline(bool live)
    {
        const bool negate = atWord("!");
        if (negate)
            step();
        bool status = command(live);
        while (peek() && peek()->kind == Kind::Pipe && !failed_) {
            step();
            skipSeparators();
            status = command(live);
        }
        return negate ? !status : status;
    }

    bool command(bool live);
    bool compoundOrSimple(bool live, const Token& t);
    bool ifClause(bool live);
    bool forClause(bool live);
    bool whileClause(bool live);
    bool caseClause(bool live);
    bool group(bool live, Kind close_kind, std::string_view close_word);
    bool functionDefinition(bool keyword);
    Simple collectSimple();
    bool runSimple(Simple& s);
    bool runCommandWords(const std::vector<Field>& f, const Simple& s);
    bool runNested(const std::string& text, int line_offset, int fixed_line, const std::string& what, int line);
    bool assignAll(Simple& s);
    bool callFunction(const std::vector<Token>& body, int line);
    bool launchOrShell(const std::vector<Field>& f, const Simple& s);

    Shell& shell_;
    ScriptReading& out_;
    std::vector<InputError>& errors_;
    int depth_;
    std::vector<Token> t_;
    std::size_t i_ = 0;
    bool failed_ = false, exited_ = false;
    int loop_runs_ = 0, calls_ = 0, nesting_ = 0;
    std::map<std::string, std::vector<Token>> functions_;
};

} // namespace parascope::shell::detail
