#pragma once
// The UI language ("en" or "zh"), for texts that come from the core or from lesson files in
// both languages (Qt's own strings go through tr()).

#include "types/diagnostic.h"

#include <QString>

namespace parascope::ui {

inline QString& uiLanguageStorage()
{
    static QString lang = QStringLiteral("en");
    return lang;
}
inline QString uiLanguage() { return uiLanguageStorage(); }
inline bool chineseUi() { return uiLanguageStorage().startsWith(QLatin1String("zh")); }

// A text of the core (both languages) in the UI language.
inline QString inUi(const Localized& text) { return QString::fromStdString(chineseUi() ? text.zh : text.en); }

} // namespace parascope::ui
