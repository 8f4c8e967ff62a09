#pragma once
// "What breaks" as an item model: one row per diagnostic, in the UI language, with severity
// icon, code, stage and the knob it concerns.

#include "types/diagnostic.h"

#include <QAbstractListModel>

#include <vector>

namespace parascope::ui {

class DiagnosticsModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { CodeRole = Qt::UserRole + 1, StageRole, KnobRole, SeverityRole, SuggestionRole, MessageRole };

    explicit DiagnosticsModel(QObject* parent = nullptr);
    void setDiagnostics(std::vector<Diagnostic> d);
    // Re-reads the language (texts come from the core in both languages).
    void languageChanged();

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    std::vector<Diagnostic> items_;
};

} // namespace parascope::ui
