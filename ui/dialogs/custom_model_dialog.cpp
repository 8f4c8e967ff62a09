#include "dialogs/custom_model_dialog.h"

#include "format.h"
#include "io/scenario_json.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace parascope::ui {

CustomModelDialog::CustomModelDialog(const Scenario& current, QWidget* parent)
    : QDialog(parent)
    , edit_(new QPlainTextEdit)
    , errors_(new QLabel)
{
    setWindowTitle(tr("Custom model"));
    auto* layout = new QVBoxLayout(this);
    auto* hint = new QLabel(tr("A model is a JSON object with the fields of a preset (layers, hidden, heads, kv_heads, "
                               "ffn_hidden, vocab, mlp, norm, bias, tied_embeddings, position, moe) and, where the "
                               "model has them, qkv_bias, qk_norm, attention_sinks, parallel_block, sliding_window, "
                               "mla and mtp_modules (README, \"Scenario files\")."));
    hint->setWordWrap(true);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    edit_->setFont(mono);
    Scenario s = current;
    s.model.id = "custom"; // always show the fields
    edit_->setPlainText(str(scenarioToJson(s)["model"].dump(2)));
    errors_->setStyleSheet(QStringLiteral("color: #D55E00"));
    errors_->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    layout->addWidget(hint);
    layout->addWidget(edit_, 1);
    layout->addWidget(errors_);
    layout->addWidget(buttons);
    resize(520, 560);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, &CustomModelDialog::check);
}

void CustomModelDialog::check()
{
    std::vector<InputError> errors;
    const auto parsed = parseJsonText(edit_->toPlainText().toStdString(), errors);
    std::optional<ModelSpec> m;
    if (parsed)
        m = readModel(*parsed, "model", errors);
    if (!m) {
        errors_->setText(errorsText(errors));
        return;
    }
    model_ = std::move(m);
    accept();
}

} // namespace parascope::ui
