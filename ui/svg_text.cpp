#include "svg_text.h"

#include <QFont>
#include <QFontMetricsF>
#include <QStringList>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

#include <cmath>

namespace parascope::ui {

namespace {

QString quoted(const QString& family)
{
    return family.contains(QLatin1Char(' ')) ? QLatin1Char('\'') + family + QLatin1Char('\'') : family;
}

} // namespace

QString fontFallbacks(const QString& family)
{
    // Simplified Chinese faces of Linux (Noto, Source Han, WenQuanYi), macOS (PingFang) and
    // Windows (Microsoft YaHei); Latin faces of the same systems; the generic family last.
    static const char* const fallbacks[] = {"Noto Sans CJK SC", "Source Han Sans SC",  "PingFang SC",
                                            "Microsoft YaHei",  "WenQuanYi Micro Hei", "Noto Sans",
                                            "DejaVu Sans",      "Helvetica",           "Arial"};
    QStringList list;
    if (!family.isEmpty())
        list << quoted(family);
    for (const char* f : fallbacks)
        if (QString::fromLatin1(f) != family)
            list << quoted(QString::fromLatin1(f));
    list << QStringLiteral("sans-serif");
    return list.join(QStringLiteral(", "));
}

namespace {

// Copies an SVG element by element, giving every font-family its fallbacks. Qt splits one drawn
// string into runs where its font engine or script changes ("显存容量 80.0 " and "GiB"), each
// placed at the x Noto Sans CJK gave it: in another font they would overlap or gap, so runs that
// continue one another (same y and style, each starting where the last one's advance ends) are
// joined into one <text> that the viewer lays out in whatever font it has.
class Rewriter {
public:
    explicit Rewriter(QByteArray* out)
        : w_(out)
    { }

    void element(const QXmlStreamReader& in)
    {
        flush();
        // Names as written (no namespace bookkeeping of our own): the output keeps the input's
        // default namespace and xlink prefix.
        w_.writeStartElement(in.qualifiedName().toString());
        for (const QXmlStreamNamespaceDeclaration& ns : in.namespaceDeclarations()) {
            if (ns.prefix().isEmpty())
                w_.writeDefaultNamespace(ns.namespaceUri().toString());
            else
                w_.writeNamespace(ns.namespaceUri().toString(), ns.prefix().toString());
        }
        writeAttributes(in.attributes());
    }

    void text(const QXmlStreamAttributes& attrs, const QString& text)
    {
        if (!pending_.isEmpty() && continues(attrs)) {
            pending_text_ += text;
            end_x_ = attrs.value(QLatin1String("x")).toDouble() + advance(attrs, text);
            return;
        }
        flush();
        pending_ = attrs;
        pending_text_ = text;
        end_x_ = attrs.value(QLatin1String("x")).toDouble() + advance(attrs, text);
    }

    void flush()
    {
        if (pending_.isEmpty())
            return;
        w_.writeStartElement(QStringLiteral("text"));
        writeAttributes(pending_);
        w_.writeCharacters(pending_text_);
        w_.writeEndElement();
        pending_.clear();
    }

    bool pending() const { return !pending_.isEmpty(); }
    QXmlStreamWriter& writer() { return w_; }

private:
    void writeAttributes(const QXmlStreamAttributes& attrs)
    {
        for (const QXmlStreamAttribute& a : attrs)
            w_.writeAttribute(a.qualifiedName().toString(),
                              a.name() == QLatin1String("font-family") ? fontFallbacks(a.value().toString())
                                                                       : a.value().toString());
    }

    // The run's width as the app laid it out: its font at its size in user units (pixels).
    static double advance(const QXmlStreamAttributes& a, const QString& text)
    {
        QFont f(a.value(QLatin1String("font-family")).toString());
        f.setPixelSize(std::max(1, int(std::lround(a.value(QLatin1String("font-size")).toDouble()))));
        bool ok = false;
        const int weight = a.value(QLatin1String("font-weight")).toInt(&ok);
        if (ok && weight >= 1 && weight <= 1000)
            f.setWeight(QFont::Weight(weight));
        f.setStyleStrategy(QFont::PreferNoShaping); // as the charts draw (applyTheme)
        return QFontMetricsF(f).horizontalAdvance(text);
    }

    // Whether a run with `attrs` continues the pending one: the same attributes but x, and x
    // where the pending run ends (within a pixel and a half: hinting rounds each run's advance).
    bool continues(const QXmlStreamAttributes& attrs) const
    {
        if (attrs.size() != pending_.size())
            return false;
        for (int i = 0; i < attrs.size(); ++i)
            if (attrs[i].name() != QLatin1String("x")
                && (attrs[i].qualifiedName() != pending_[i].qualifiedName() || attrs[i].value() != pending_[i].value()))
                return false;
        return std::abs(attrs.value(QLatin1String("x")).toDouble() - end_x_) < 1.5;
    }

    QXmlStreamWriter w_;
    QXmlStreamAttributes pending_;
    QString pending_text_;
    double end_x_ = 0;
};

} // namespace

QByteArray withFontFallbacks(const QByteArray& svg, QString* error)
{
    QXmlStreamReader in(svg);
    QByteArray out;
    Rewriter r(&out);
    QXmlStreamWriter& w = r.writer();
    while (!in.atEnd()) {
        const QXmlStreamReader::TokenType token = in.readNext();
        if (token == QXmlStreamReader::Characters && in.isWhitespace() && r.pending())
            continue; // between two runs that may join
        if (token == QXmlStreamReader::StartElement && in.name() == QLatin1String("text")) {
            const QXmlStreamAttributes attrs = in.attributes();
            r.text(attrs, in.readElementText(QXmlStreamReader::IncludeChildElements));
            continue;
        }
        r.flush();
        switch (token) {
        case QXmlStreamReader::StartDocument:
            w.writeStartDocument(in.documentVersion().toString(), in.isStandaloneDocument());
            break;
        case QXmlStreamReader::EndDocument: w.writeEndDocument(); break;
        case QXmlStreamReader::DTD: w.writeDTD(in.text().toString()); break;
        case QXmlStreamReader::Comment: w.writeComment(in.text().toString()); break;
        case QXmlStreamReader::Characters: w.writeCharacters(in.text().toString()); break;
        case QXmlStreamReader::EndElement: w.writeEndElement(); break;
        case QXmlStreamReader::StartElement: r.element(in); break;
        default: break;
        }
    }
    if (in.hasError()) {
        if (error)
            *error = QStringLiteral("SVG line %1, column %2: %3")
                         .arg(in.lineNumber())
                         .arg(in.columnNumber())
                         .arg(in.errorString());
        return {};
    }
    return out;
}

} // namespace parascope::ui
