// The shell tokenizer of io/shell_words.h: words with their quotes kept, operators, comments,
// line continuations, array parentheses and here-documents.

#include "io/shell_words.h"

#include <cctype>

namespace parascope::shell {

namespace {

bool isOperatorChar(char c) { return c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')'; }

// A "NAME=" or "NAME+=" word so far: the next '(' opens an array.
bool isArrayStart(const std::string& cur)
{
    if (cur.size() < 2 || cur.back() != '=' || !isNameStart(cur[0]))
        return false;
    std::size_t j = 1;
    while (j < cur.size() && isNameChar(cur[j]))
        ++j;
    return j == cur.size() - 1 || (j == cur.size() - 2 && cur[j] == '+');
}

class Lexer {
public:
    explicit Lexer(const std::string& s)
        : s_(s)
    { }

    std::vector<Token> run()
    {
        while (i_ < s_.size())
            step();
        flush();
        return std::move(out_);
    }

private:
    char at(std::size_t k) const { return k < s_.size() ? s_[k] : '\0'; }

    void emit(Token::Kind kind, std::string text = {})
    {
        flush();
        out_.push_back({kind, std::move(text), line_, false});
    }

    void flush()
    {
        if (in_word_)
            out_.push_back({Token::Kind::Word, cur_, word_line_, false});
        cur_.clear();
        in_word_ = false;
    }

    void step()
    {
        const char c = s_[i_];
        if (c == '\\' && (at(i_ + 1) == '\n' || (at(i_ + 1) == '\r' && at(i_ + 2) == '\n'))) {
            i_ += at(i_ + 1) == '\r' ? 3 : 2;
            ++line_;
            return;
        }
        if (c == '\n') {
            emit(Token::Kind::Separator);
            ++i_;
            ++line_;
            readHereDocBodies();
            return;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            flush();
            ++i_;
            return;
        }
        if (c == '#' && !in_word_) {
            while (i_ < s_.size() && s_[i_] != '\n')
                ++i_;
            return;
        }
        if (in_word_ && c == '(' && isArrayStart(cur_)) {
            emit(Token::Kind::Open);
            ++i_;
            ++array_depth_;
            return;
        }
        if (!in_word_ && c == '(' && !out_.empty() && out_.back().kind == Token::Kind::Word
            && out_.back().text.rfind("--", 0) == 0 && array_depth_ == 0) {
            // A flag's value that starts with a parenthesis, unquoted in a text file:
            // --moe-layer-freq ([0]*3+[1]*58).
            startWord();
            readBalanced('(', ')');
            return;
        }
        if (isOperatorChar(c)) {
            readOperator();
            return;
        }
        startWord();
        readPiece();
    }

    // "2>" or ">": a word of digits (or nothing) before '<' / '>' makes a redirection.
    bool isRedirectPrefix() const
    {
        for (char ch : cur_)
            if (!std::isdigit(static_cast<unsigned char>(ch)))
                return false;
        return true;
    }

    void startWord()
    {
        if (!in_word_) {
            in_word_ = true;
            word_line_ = line_;
        }
    }

    void readOperator()
    {
        const char c = s_[i_];
        const char n = at(i_ + 1);
        if (c == ';') {
            emit(n == ';' ? Token::Kind::CaseEnd : Token::Kind::Separator);
            i_ += n == ';' ? 2 : 1;
        } else if (c == '&' && n == '&') {
            emit(Token::Kind::And);
            i_ += 2;
        } else if (c == '|' && n == '|') {
            emit(Token::Kind::Or);
            i_ += 2;
        } else if (c == '|') {
            emit(Token::Kind::Pipe);
            i_ += 1 + (n == '&');
        } else if (c == '&' && n != '>') {
            emit(Token::Kind::Background);
            ++i_;
        } else if (c == '(' || c == ')') {
            if (c == ')' && array_depth_ > 0)
                --array_depth_;
            emit(c == '(' ? Token::Kind::Open : Token::Kind::Close);
            ++i_;
        } else {
            readRedirect();
        }
    }

    // '>', '>>', '<', '&>', '2>&1', '<<EOF', '<<-EOF', '<<<': the operator, then a here-document's
    // delimiter (its body is read after the line ends).
    void readRedirect()
    {
        std::string op; // a file descriptor number before it ("2>")
        if (in_word_ && isRedirectPrefix()) {
            op = cur_;
            cur_.clear();
            in_word_ = false;
        }
        flush();
        while (i_ < s_.size() && (s_[i_] == '<' || s_[i_] == '>' || s_[i_] == '&' || s_[i_] == '-') && op.size() < 8)
            op += s_[i_++];
        if (op.find("<<") != std::string::npos && op.find("<<<") == std::string::npos) {
            readHereDocDelimiter(op.find("<<-") != std::string::npos);
            return;
        }
        if (!op.empty() && op.back() == '&') // 2>&1: the descriptor is part of the operator
            while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_])))
                op += s_[i_++];
        out_.push_back({Token::Kind::Redirect, op, line_, false});
    }

    void readHereDocDelimiter(bool strip_tabs)
    {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t'))
            ++i_;
        std::string delimiter;
        bool quoted = false;
        while (i_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[i_])) && !isOperatorChar(s_[i_])) {
            if (s_[i_] == '\'' || s_[i_] == '"' || s_[i_] == '\\')
                quoted = true;
            else
                delimiter += s_[i_];
            ++i_;
        }
        out_.push_back({Token::Kind::HereDoc, {}, line_, quoted});
        pending_.push_back({out_.size() - 1, delimiter, strip_tabs});
    }

    // After a newline: the bodies of the here-documents its line opened, each up to its delimiter.
    void readHereDocBodies()
    {
        for (const Pending& p : pending_) {
            std::string body;
            while (i_ < s_.size()) {
                std::size_t end = s_.find('\n', i_);
                if (end == std::string::npos)
                    end = s_.size();
                std::string row = s_.substr(i_, end - i_);
                i_ = std::min(s_.size(), end + 1);
                ++line_;
                if (p.strip_tabs)
                    row.erase(
                        0, row.find_first_not_of('\t') == std::string::npos ? row.size() : row.find_first_not_of('\t'));
                if (!row.empty() && row.back() == '\r')
                    row.pop_back();
                if (row == p.delimiter)
                    break;
                body += row + "\n";
            }
            out_[p.token].text = std::move(body);
        }
        pending_.clear();
    }

    // One piece of a word, kept as written: a quoted string, an escape, a $( … ), $(( … )) or
    // ${ … }, a `…` command, or one character.
    void readPiece()
    {
        const char c = s_[i_];
        if (c == '\'') {
            readQuoted('\'');
        } else if (c == '"') {
            readQuoted('"');
        } else if (c == '\\' && i_ + 1 < s_.size()) {
            cur_ += s_.substr(i_, 2);
            i_ += 2;
        } else if (c == '$' && (at(i_ + 1) == '(' || at(i_ + 1) == '{')) {
            cur_ += '$';
            ++i_;
            readBalanced(s_[i_], s_[i_] == '(' ? ')' : '}');
        } else if (c == '`') {
            readQuoted('`');
        } else {
            cur_ += c;
            ++i_;
        }
    }

    // A quoted string from s_[i_] to its closing quote (a backslash escapes inside "…" and `…`).
    void readQuoted(char q)
    {
        cur_ += s_[i_++];
        while (i_ < s_.size() && s_[i_] != q) {
            if (q != '\'' && s_[i_] == '\\' && i_ + 1 < s_.size())
                cur_ += s_[i_++];
            line_ += s_[i_] == '\n';
            cur_ += s_[i_++];
        }
        if (i_ < s_.size())
            cur_ += s_[i_++];
    }

    // From s_[i_] == open to its balancing close, skipping quoted strings.
    void readBalanced(char open, char close)
    {
        int depth = 0;
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '\'' || c == '"') {
                readQuoted(c);
                continue;
            }
            line_ += c == '\n';
            cur_ += c;
            ++i_;
            depth += c == open ? 1 : c == close ? -1 : 0;
            if (depth == 0)
                return;
        }
    }

    struct Pending {
        std::size_t token;
        std::string delimiter;
        bool strip_tabs;
    };
    const std::string& s_;
    std::size_t i_ = 0;
    int line_ = 1, word_line_ = 1, array_depth_ = 0;
    bool in_word_ = false;
    std::string cur_;
    std::vector<Token> out_;
    std::vector<Pending> pending_;
};

} // namespace

std::vector<Token> lex(const std::string& script) { return Lexer(script).run(); }

} // namespace parascope::shell
