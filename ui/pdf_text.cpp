#include "pdf_text.h"

#include <QByteArrayView>
#include <QList>

#include <algorithm>
#include <utility>
#include <vector>

namespace parascope::ui {

namespace {

// One token of a CMap: a <hex> string (its digits), "[", "]" or a word.
struct Token {
    QByteArray text;
    bool hex = false;
};

std::vector<Token> tokens(const QByteArray& cmap)
{
    std::vector<Token> out;
    qsizetype i = 0;
    while (i < cmap.size()) {
        const char c = cmap[i];
        if (c == '<' && i + 1 < cmap.size() && cmap[i + 1] != '<') {
            const qsizetype end = cmap.indexOf('>', i);
            if (end < 0)
                break;
            out.push_back({cmap.mid(i + 1, end - i - 1), true});
            i = end + 1;
        } else if (c == '[' || c == ']') {
            out.push_back({QByteArray(1, c), false});
            ++i;
        } else if (QChar::isSpace(uchar(c))) {
            ++i;
        } else {
            qsizetype end = i;
            while (end < cmap.size() && !QChar::isSpace(uchar(cmap[end])) && cmap[end] != '<' && cmap[end] != '['
                   && cmap[end] != ']')
                ++end;
            out.push_back({cmap.mid(i, std::max<qsizetype>(1, end - i)), false});
            i = std::max(end, i + 1);
        }
    }
    return out;
}

// UTF-16 code units written as hex (4 digits each).
QString utf16(const QByteArray& hex)
{
    QString s;
    for (qsizetype i = 0; i + 4 <= hex.size(); i += 4)
        s += QChar(char16_t(hex.mid(i, 4).toUInt(nullptr, 16)));
    return s;
}

QByteArray hex4(int v) { return QByteArray::number(v, 16).toUpper().rightJustified(4, '0'); }

// The character a text extractor should give for `c`: the unified ideograph of a Kangxi or CJK
// supplement radical (its compatibility decomposition), a space for a tab.
QChar drawn(QChar c)
{
    if (c == QLatin1Char('\t'))
        return QLatin1Char(' ');
    if (c.unicode() >= 0x2E80 && c.unicode() <= 0x2FDF && c.decompositionTag() == QChar::Compat) {
        const QString d = c.decomposition();
        if (d.size() == 1)
            return d[0];
    }
    return c;
}

QByteArray writeToUnicode(const std::map<int, QString>& text)
{
    QByteArray out = "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
                     "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
                     "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
                     "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n";
    auto it = text.begin();
    while (it != text.end()) {
        const int n = int(std::min<std::ptrdiff_t>(100, std::distance(it, text.end()))); // at most 100 a block
        out += QByteArray::number(n) + " beginbfchar\n";
        for (int k = 0; k < n; ++k, ++it) {
            QByteArray dst;
            for (QChar c : it->second)
                dst += hex4(drawn(c).unicode());
            out += '<' + hex4(it->first) + "> <" + dst + ">\n";
        }
        out += "endbfchar\n";
    }
    return out + "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n";
}

// A ToUnicode stream's place: where its /Length number and its data lie.
struct CMapStream {
    qsizetype length_at = 0, length_digits = 0, data_at = 0, data_size = 0;
};

std::vector<CMapStream> cmapStreams(const QByteArray& pdf)
{
    std::vector<CMapStream> out;
    for (qsizetype at = pdf.indexOf("/CMapName /Adobe-Identity-UCS"); at >= 0;
         at = pdf.indexOf("/CMapName /Adobe-Identity-UCS", at + 1)) {
        const qsizetype stream = pdf.lastIndexOf("stream\n", at);
        const qsizetype length = pdf.lastIndexOf("/Length ", stream);
        if (stream < 0 || length < 0)
            continue;
        CMapStream s;
        s.length_at = length + 8;
        while (s.length_at + s.length_digits < pdf.size() && std::isdigit(uchar(pdf[s.length_at + s.length_digits])))
            ++s.length_digits;
        s.data_at = stream + 7;
        s.data_size = pdf.mid(s.length_at, s.length_digits).toLongLong();
        if (s.length_digits > 0 && s.data_at + s.data_size <= pdf.size())
            out.push_back(s);
    }
    return out;
}

// Moves every offset in the last cross-reference table, and startxref, by the edits made before
// it. Returns false when the table is not where startxref says.
bool moveXref(QByteArray& pdf, const std::vector<std::pair<qsizetype, qsizetype>>& edits)
{
    const auto moved = [&](qsizetype offset) {
        for (const auto& [at, delta] : edits)
            offset += at < offset ? delta : 0;
        return offset;
    };
    const qsizetype startxref = pdf.lastIndexOf("startxref\n");
    if (startxref < 0)
        return false;
    const qsizetype number_at = startxref + 10;
    const qsizetype number_end = pdf.indexOf('\n', number_at);
    const qsizetype xref = moved(pdf.mid(number_at, number_end - number_at).trimmed().toLongLong());
    if (!pdf.mid(xref).startsWith("xref\n"))
        return false;
    qsizetype line = xref + 5;
    while (line < startxref && std::isdigit(uchar(pdf[line]))) {
        const qsizetype eol = pdf.indexOf('\n', line);
        const QList<QByteArray> head = pdf.mid(line, eol - line).simplified().split(' ');
        const qsizetype count = head.size() == 2 ? head[1].toLongLong() : 0;
        for (qsizetype k = 0, entry = eol + 1; k < count; ++k, entry += 20)
            if (pdf.mid(entry + 17, 1) == "n")
                pdf.replace(entry, 10,
                            QByteArray::number(moved(pdf.mid(entry, 10).toLongLong())).rightJustified(10, '0'));
        line = eol + 1 + count * 20;
    }
    pdf.replace(number_at, number_end - number_at, QByteArray::number(xref));
    return true;
}

} // namespace

ToUnicodeMap readToUnicode(const QByteArray& cmap)
{
    ToUnicodeMap m;
    const std::vector<Token> t = tokens(cmap);
    m.ok = true;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i].text == "beginbfchar") {
            for (++i; i + 1 < t.size() && t[i].hex; i += 2)
                m.text[int(t[i].text.toUInt(nullptr, 16))] = utf16(t[i + 1].text);
            m.ok = m.ok && i < t.size() && t[i].text == "endbfchar";
        } else if (t[i].text == "beginbfrange") {
            for (++i; i + 2 < t.size() && t[i].hex && t[i + 1].hex;) {
                const int lo = int(t[i].text.toUInt(nullptr, 16)), hi = int(t[i + 1].text.toUInt(nullptr, 16));
                if (t[i + 2].hex) { // consecutive text: the last code unit counts up
                    QString s = utf16(t[i + 2].text);
                    for (int code = lo; code <= hi && !s.isEmpty(); ++code, s.back() = QChar(s.back().unicode() + 1))
                        m.text[code] = s;
                    i += 3;
                    continue;
                }
                i += 3; // past "["
                for (int code = lo; code <= hi && i < t.size() && t[i].hex; ++code, ++i)
                    m.text[code] = utf16(t[i].text);
                m.ok = m.ok && i < t.size() && t[i].text == "]";
                ++i;
            }
            m.ok = m.ok && i < t.size() && t[i].text == "endbfrange";
        }
    }
    return m;
}

QString pdfMappedText(const QByteArray& pdf)
{
    QString out;
    for (const CMapStream& s : cmapStreams(pdf))
        for (const auto& [code, text] : readToUnicode(pdf.mid(s.data_at, s.data_size)).text)
            out += text;
    return out;
}

QByteArray repairPdfTextLayer(const QByteArray& pdf, QString* why)
{
    QByteArray out = pdf;
    std::vector<CMapStream> streams = cmapStreams(pdf);
    std::vector<std::pair<qsizetype, qsizetype>> edits; // (where in the original, bytes added)
    // Last stream first, so that the places found in `pdf` still hold in `out`.
    for (auto s = streams.rbegin(); s != streams.rend(); ++s) {
        const ToUnicodeMap map = readToUnicode(pdf.mid(s->data_at, s->data_size));
        if (!map.ok) {
            if (why)
                *why = QStringLiteral("a ToUnicode map at byte %1 is not in bfchar/bfrange form").arg(s->data_at);
            return pdf;
        }
        const QByteArray data = writeToUnicode(map.text);
        out.replace(s->data_at, s->data_size, data);
        const QByteArray length = QByteArray::number(data.size());
        out.replace(s->length_at, s->length_digits, length);
        edits.emplace_back(s->data_at, data.size() - s->data_size);
        edits.emplace_back(s->length_at, length.size() - s->length_digits);
    }
    if (!moveXref(out, edits)) {
        if (why)
            *why = QStringLiteral("the cross-reference table is not where startxref says");
        return pdf;
    }
    return out;
}

} // namespace parascope::ui
