#pragma once
// The course's one word for each idea in Chinese (shared/reference/zh-terminology.md, with the
// project's additions marked): a Chinese text says `use`, never `banned`. The lessons
// (tst_lessons), the CLI's Chinese output (cli_chinese.h) and the app's translations
// (tst_lessons: translationsUseTheTerms) are checked against it.

#include <string>
#include <vector>

namespace parascope::test {

struct ZhTerm {
    const char* banned;
    const char* use;
    const char* meaning;
    const char* except[2]; // compounds where the banned word is right (内存 of the host is 内存)
};

inline constexpr ZhTerm kZhTerms[] = {
    {"内存", "显存", "GPU memory", {"主机内存", "CPU 内存"}},
    {"步长", "单步耗时", "step time", {}},
    {"仿真", "模拟", "simulated (the event-driven timeline): project addition, issue 34", {}},
};

// "where says 内存 (use 显存: GPU memory)" for each banned word in `text`.
inline std::vector<std::string> zhTermFailures(const std::string& where, const std::string& text)
{
    std::vector<std::string> out;
    for (const ZhTerm& t : kZhTerms) {
        std::string rest = text;
        for (const char* e : t.except)
            for (std::size_t at; e && (at = rest.find(e)) != std::string::npos;)
                rest.erase(at, std::string(e).size());
        if (rest.find(t.banned) != std::string::npos)
            out.push_back(where + " says " + t.banned + " (use " + t.use + ": " + t.meaning + ")");
    }
    return out;
}

} // namespace parascope::test
