#include "controllers/language_controller.h"

#include "language.h"

#include <QActionGroup>
#include <QApplication>
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
}

} // namespace parascope::ui
