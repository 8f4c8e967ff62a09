#pragma once
// The custom-model editor: the scenario's model as JSON (the fields of a preset), checked by the
// core's reader on OK; errors stay in the dialog with their paths.

#include "types/scenario.h"

#include <QDialog>

#include <optional>

class QLabel;
class QPlainTextEdit;

namespace parascope::ui {

class CustomModelDialog : public QDialog {
    Q_OBJECT
public:
    explicit CustomModelDialog(const Scenario& current, QWidget* parent = nullptr);
    // The model read from the text, once the dialog was accepted.
    const std::optional<ModelSpec>& model() const { return model_; }

private:
    void check();
    QPlainTextEdit* edit_;
    QLabel* errors_;
    std::optional<ModelSpec> model_;
};

} // namespace parascope::ui
