#pragma once
// SVG for slide machines that lack our fonts: every <text> of an SVG that QSvgGenerator wrote
// becomes a <path> of its glyph outlines, drawn with the same font, size, position and fill, so
// the slide shows exactly what the app drew (Chinese included) whatever fonts it has.

#include <QByteArray>
#include <QString>

namespace parascope::ui {

// The SVG with its text outlined; on malformed input, `error` says where and the result is empty.
QByteArray outlineSvgText(const QByteArray& svg, QString* error);

} // namespace parascope::ui
