#pragma once
// The text layer of a PDF that Qt wrote, repaired so that copying or searching a slide gives the
// text that was drawn. Qt's ToUnicode map names, for each glyph, the first code point the font
// maps to it: Noto Sans CJK shares 大 (U+5927) with the Kangxi radical ⼤ (U+2F24) and the space
// with the tab, so pdftotext read 大小气比水 as radicals and spaces as tabs. Each such code point
// is replaced by the one its Unicode compatibility decomposition names (⼤ → 大, tab → space).

#include <QByteArray>
#include <QString>

#include <map>

namespace parascope::ui {

// A ToUnicode CMap read into glyph code → text; `ok` false when it is not Qt's bfrange/bfchar form.
struct ToUnicodeMap {
    std::map<int, QString> text;
    bool ok = false;
};
ToUnicodeMap readToUnicode(const QByteArray& cmap);

// Everything the ToUnicode maps of `pdf` map glyphs to, one entry after another: the characters a
// text extractor can give back.
QString pdfMappedText(const QByteArray& pdf);

// `pdf` with its ToUnicode maps repaired and its cross-reference table moved to match; when the
// file is not laid out as Qt writes it, `pdf` unchanged and `why` says what was not understood.
QByteArray repairPdfTextLayer(const QByteArray& pdf, QString* why);

} // namespace parascope::ui
