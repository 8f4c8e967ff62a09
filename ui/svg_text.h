#pragma once
// SVG text a lecturer can select and edit on a slide machine that may lack our fonts: every
// font-family QSvgGenerator wrote becomes a fallback list (the font the app drew with first, then
// the Simplified Chinese and Latin faces common on Linux, macOS and Windows, then sans-serif), so
// the text stays real <text> and Chinese never falls back to boxes or to Japanese glyph forms.

#include <QByteArray>
#include <QString>

namespace parascope::ui {

// The CSS font-family list for text drawn with `family`.
QString fontFallbacks(const QString& family);

// The SVG with each font-family replaced by fontFallbacks() of it; on malformed input, `error`
// says where and the result is empty.
QByteArray withFontFallbacks(const QByteArray& svg, QString* error);

} // namespace parascope::ui
