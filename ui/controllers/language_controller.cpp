#include "controllers/language_controller.h"

#include "chart_export.h"

#include "language.h"

#include <QActionGroup>
#include <QApplication>
#include <QFont>
#include <QLibraryInfo>
#include <QMenu>
#include <QTranslator>

namespace parascope::ui {

LanguageController::LanguageController(QObject* parent)
    : WindowPart(parent)
    , app_(new QTranslator(this))
    , qt_(new QTranslator(this))
{ }

void LanguageController::addViewActions(QMenu* view)
{
    menu_ = view->addMenu(QString());
    auto* group = new QActionGroup(this);
    english_ = menu_->addAction(QStringLiteral("English"), this, [this] { emit chosen(QStringLiteral("en")); });
    chinese_ = menu_->addAction(QStringLiteral("中文"), this, [this] { emit chosen(QStringLiteral("zh")); });
    for (QAction* a : {english_, chinese_}) {
        a->setCheckable(true);
        group->addAction(a);
    }
}

void LanguageController::retranslate()
{
    menu_->setTitle(tr("&Language"));
    english_->setChecked(!chineseUi());
    chinese_->setChecked(chineseUi());
}

void LanguageController::install(bool zh)
{
    QApplication::removeTranslator(app_);
    QApplication::removeTranslator(qt_);
    // English too has a translation: its plural forms ("1 node", "2 nodes" from "%n node(s)").
    if (app_->load(zh ? QStringLiteral(":/i18n/parascope_zh_CN.qm") : QStringLiteral(":/i18n/parascope_en.qm")))
        QApplication::installTranslator(app_);
    if (zh && qt_->load(QStringLiteral("qtbase_zh_CN"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(qt_);
    useSimplifiedChineseGlyphs(zh);
}

void LanguageController::useSimplifiedChineseGlyphs(bool zh)
{
    // Without a Chinese system locale fontconfig may pick the Japanese forms of Han characters (反
    // with a flat first stroke) for the UI font's fallback; the exports already draw with the
    // Simplified Chinese face. In Chinese, Latin text keeps the UI's own family and Han goes to the
    // SC face; in English the UI font is left as the system gives it.
    static const QFont system = QApplication::font();
    const QString sc = simplifiedChineseFamily();
    if (!zh || sc.isEmpty()) {
        if (QApplication::font() != system)
            QApplication::setFont(system);
        return;
    }
    QFont f = system;
    QStringList families = f.families().isEmpty() ? QStringList{f.family()} : f.families();
    if (!families.contains(sc))
        families.append(sc);
    f.setFamilies(families);
    if (QApplication::font() != f)
        QApplication::setFont(f);
}

} // namespace parascope::ui
