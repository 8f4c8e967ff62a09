#include "diagnostics_panel.h"

#include "models/diagnostics_model.h"
#include "models/scenario_model.h"

#include <QLabel>
#include <QListView>
#include <QVBoxLayout>

namespace parascope::ui {

DiagnosticsPanel::DiagnosticsPanel(ScenarioModel* model, QWidget* parent)
    : QWidget(parent)
    , model_(model)
    , diagnostics_(new DiagnosticsModel(this))
    , view_(new QListView)
    , header_(new QLabel)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(header_);
    layout->addWidget(view_, 1);
    header_->setWordWrap(true); // a long verdict wraps instead of widening the window
    view_->setModel(diagnostics_);
    view_->setWordWrap(true);
    view_->setUniformItemSizes(false);
    view_->setSpacing(3);
    view_->setAlternatingRowColors(true);
    view_->setResizeMode(QListView::Adjust);
    connect(view_, &QListView::clicked, this, [this](const QModelIndex& i) {
        const int stage = i.data(DiagnosticsModel::StageRole).toInt();
        if (stage >= 0)
            emit stageActivated(stage);
        const QString knob = i.data(DiagnosticsModel::KnobRole).toString();
        if (!knob.isEmpty())
            emit knobActivated(knob);
    });
    connect(model_, &ScenarioModel::estimateChanged, this, &DiagnosticsPanel::refresh);
    refresh();
}

void DiagnosticsPanel::retranslate()
{
    diagnostics_->languageChanged();
    refresh();
}

void DiagnosticsPanel::refresh()
{
    const auto& d = model_->estimate().diagnostics;
    diagnostics_->setDiagnostics(d);
    int errors = 0, warnings = 0;
    for (const Diagnostic& x : d) {
        errors += x.severity == Severity::Error;
        warnings += x.severity == Severity::Warning;
    }
    header_->setText(d.empty() ? tr("<b>What breaks:</b> nothing — the configuration is valid and fits.")
                               : tr("<b>What breaks:</b> %1 error(s), %2 warning(s)").arg(errors).arg(warnings));
}

} // namespace parascope::ui
