#include "svg_outline.h"

#include <QFont>
#include <QGuiApplication>
#include <QScreen>
#include <QPainterPath>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

#include <cmath>

namespace parascope::ui {

namespace {

// The font QSvgGenerator described: font-family, font-size in user units (pixels at the
// generator's resolution), font-weight on the CSS 100–900 scale (QFont's own), font-style. The
// size is set in points at the application's resolution, which QPainterPath::addText lays out
// with: the glyphs then get the same pixel size, hinting and advances as the painter gave them.
QFont fontOf(const QXmlStreamAttributes& a, double size)
{
    QFont f(a.value(QLatin1String("font-family")).toString());
    const QScreen* screen = QGuiApplication::primaryScreen();
    const double dpi = screen ? screen->logicalDotsPerInchY() : 96.0;
    f.setPointSizeF(size * 72.0 / dpi);
    bool ok = false;
    const int weight = a.value(QLatin1String("font-weight")).toInt(&ok);
    if (ok && weight >= 1 && weight <= 1000)
        f.setWeight(QFont::Weight(weight));
    else if (a.value(QLatin1String("font-weight")) == QLatin1String("bold"))
        f.setWeight(QFont::Bold);
    f.setItalic(a.value(QLatin1String("font-style")) == QLatin1String("italic"));
    return f;
}

QString number(double v) { return QString::number(v, 'g', 6); }

// SVG path data of a QPainterPath: M/L for points, C for cubic Béziers, Z closing each figure.
QString pathData(const QPainterPath& path)
{
    QString d;
    d.reserve(path.elementCount() * 16);
    for (int i = 0; i < path.elementCount(); ++i) {
        const QPainterPath::Element e = path.elementAt(i);
        switch (e.type) {
        case QPainterPath::MoveToElement:
            if (!d.isEmpty())
                d += QLatin1Char('Z');
            d += QLatin1Char('M') + number(e.x) + QLatin1Char(' ') + number(e.y);
            break;
        case QPainterPath::LineToElement: d += QLatin1Char('L') + number(e.x) + QLatin1Char(' ') + number(e.y); break;
        case QPainterPath::CurveToElement: d += QLatin1Char('C') + number(e.x) + QLatin1Char(' ') + number(e.y); break;
        case QPainterPath::CurveToDataElement:
            d += QLatin1Char(' ') + number(e.x) + QLatin1Char(' ') + number(e.y);
            break;
        }
    }
    if (!d.isEmpty())
        d += QLatin1Char('Z');
    return d;
}

// Attributes that describe text rather than paint: dropped from the <path>.
bool isTextAttribute(QStringView name)
{
    return name.startsWith(QLatin1String("font-")) || name == QLatin1String("x") || name == QLatin1String("y")
        || name == QLatin1String("space");
}

} // namespace

QByteArray outlineSvgText(const QByteArray& svg, QString* error)
{
    QXmlStreamReader in(svg);
    QByteArray out;
    QXmlStreamWriter w(&out);
    while (!in.atEnd()) {
        switch (in.readNext()) {
        case QXmlStreamReader::StartDocument:
            w.writeStartDocument(in.documentVersion().toString(), in.isStandaloneDocument());
            break;
        case QXmlStreamReader::EndDocument: w.writeEndDocument(); break;
        case QXmlStreamReader::DTD: w.writeDTD(in.text().toString()); break;
        case QXmlStreamReader::Comment: w.writeComment(in.text().toString()); break;
        case QXmlStreamReader::Characters:
            if (!in.isWhitespace())
                w.writeCharacters(in.text().toString());
            break;
        case QXmlStreamReader::EndElement: w.writeEndElement(); break;
        case QXmlStreamReader::StartElement: {
            const QXmlStreamAttributes attrs = in.attributes();
            if (in.name() != QLatin1String("text")) {
                // Names as written (no namespace bookkeeping of our own): the output keeps the
                // input's default namespace and xlink prefix.
                w.writeStartElement(in.qualifiedName().toString());
                for (const QXmlStreamNamespaceDeclaration& ns : in.namespaceDeclarations()) {
                    if (ns.prefix().isEmpty())
                        w.writeDefaultNamespace(ns.namespaceUri().toString());
                    else
                        w.writeNamespace(ns.namespaceUri().toString(), ns.prefix().toString());
                }
                w.writeAttributes(attrs);
                break;
            }
            const QString text = in.readElementText(QXmlStreamReader::IncludeChildElements);
            if (in.hasError())
                break;
            const double given = attrs.value(QLatin1String("font-size")).toDouble();
            const double size = given > 0 ? given : 12; // SVG's initial font-size is "medium"
            QPainterPath glyphs;
            glyphs.addText(0, 0, fontOf(attrs, size), text);
            QTransform placed;
            placed.translate(attrs.value(QLatin1String("x")).toDouble(), attrs.value(QLatin1String("y")).toDouble());
            glyphs = placed.map(glyphs);
            w.writeStartElement(QStringLiteral("path"));
            for (const QXmlStreamAttribute& a : attrs)
                if (!isTextAttribute(a.name()))
                    w.writeAttribute(a.qualifiedName().toString(), a.value().toString());
            w.writeAttribute(QStringLiteral("fill-rule"),
                             glyphs.fillRule() == Qt::WindingFill ? QStringLiteral("nonzero")
                                                                  : QStringLiteral("evenodd"));
            w.writeAttribute(QStringLiteral("d"), pathData(glyphs));
            w.writeEndElement();
            break;
        }
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
