#pragma once
// The "Textbook" tab (教材对照): the shortcuts the course chapter teaches, computed for the current
// scenario beside the engine's number for the same quantity, with what each leaves out
// (core/estimate/textbook.h; the CLI's evaluate report and JSON list the same rows).

#include <QWidget>

class QLabel;
class QTextBrowser;

namespace parascope::ui {

class ScenarioModel;

class TextbookView : public QWidget {
    Q_OBJECT
public:
    explicit TextbookView(ScenarioModel* model, QWidget* parent = nullptr);
    QTextBrowser* text() const { return text_; } // one row per shortcut, what it leaves out under it

protected:
    void changeEvent(QEvent* e) override; // retranslates itself on a language change
    void showEvent(QShowEvent* e) override; // a slider move while hidden is drawn when shown

private:
    void refresh();
    void refreshIfShown();
    ScenarioModel* model_;
    bool stale_ = true;
    QLabel* summary_;
    QTextBrowser* text_;
};

} // namespace parascope::ui
