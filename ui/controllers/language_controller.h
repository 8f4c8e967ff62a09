#pragma once
// The UI language: View → Language (English, 中文), and the translations installed for it: the
// app's (zh_CN and en, embedded under :/i18n) and Qt's own (standard buttons, file dialogs;
// package qt6-translations-l10n, English without it).

#include "controllers/window_part.h"

class QAction;
class QMenu;
class QTranslator;

namespace parascope::ui {

class LanguageController : public WindowPart {
    Q_OBJECT
public:
    explicit LanguageController(QObject* parent);
    void addViewActions(QMenu* view); // the Language submenu
    void retranslate() override;
    void install(bool zh);
    // In Chinese the application font draws Han characters with the Simplified Chinese face (SC),
    // whatever the system locale; in English it is the system's font unchanged.
    static void useSimplifiedChineseGlyphs(bool zh);

signals:
    void chosen(const QString& lang); // "en" or "zh", from the menu

private:
    QTranslator* app_;
    QTranslator* qt_;
    QMenu* menu_ = nullptr;
    QAction* english_ = nullptr;
    QAction* chinese_ = nullptr;
};

} // namespace parascope::ui
