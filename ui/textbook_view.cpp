#include "textbook_view.h"

#include "estimate/textbook.h"
#include "language.h"
#include "models/scenario_model.h"

#include <QEvent>
#include <QLabel>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace parascope::ui {

TextbookView::TextbookView(ScenarioModel* model, QWidget* parent)
    : QWidget(parent)
    , model_(model)
    , summary_(new QLabel)
    , text_(new QTextBrowser)
{
    summary_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(text_, 1);
    connect(model_, &ScenarioModel::estimateChanged, this, &TextbookView::refreshIfShown);
}

void TextbookView::refreshIfShown()
{
    stale_ = true;
    if (isVisible())
        refresh();
}

void TextbookView::showEvent(QShowEvent* e)
{
    if (stale_)
        refresh();
    QWidget::showEvent(e);
}

void TextbookView::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        refreshIfShown();
    QWidget::changeEvent(e);
}

// A table that wraps to any width: quantity, formula, the two values, then what the shortcut
// leaves out on a row of its own under them.
void TextbookView::refresh()
{
    stale_ = false;
    summary_->setText(tr("The chapter's shortcuts for this scenario, beside the engine's number for the same "
                         "quantity, and what each shortcut leaves out."));
    const std::string lang = chineseUi() ? "zh" : "en";
    const auto esc = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='3' width='100%'><tr><th align='left'>%1</th>"
                                  "<th align='left'>%2</th><th align='right'>%3</th><th align='right'>%4</th></tr>")
                       .arg(tr("Quantity"), tr("Textbook formula"), tr("Textbook value"), tr("Engine"));
    for (const TextbookRow& r : textbookRows(model_->scenario(), model_->estimate()))
        html
            += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td align='right'>%3</td><td align='right'>%4</td></tr>"
                              "<tr><td colspan='4' style='color:#555'>%5 %6<br>%7 %8</td></tr>")
                   .arg(inUi(r.quantity).toHtmlEscaped(), inUi(r.formula).toHtmlEscaped(),
                        esc(textbookValue(r.textbook, r.unit, lang)), esc(textbookValue(r.engine, r.unit, lang)),
                        tr("Engine:"), inUi(r.engine_what).toHtmlEscaped(), tr("Leaves out:"),
                        inUi(r.leaves_out).toHtmlEscaped());
    text_->setHtml(html + QStringLiteral("</table>"));
}

} // namespace parascope::ui
