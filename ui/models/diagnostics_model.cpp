#include "models/diagnostics_model.h"

#include "language.h"

#include <QApplication>
#include <QIcon>
#include <QStyle>

namespace parascope::ui {

DiagnosticsModel::DiagnosticsModel(QObject* parent)
    : QAbstractListModel(parent)
{ }

void DiagnosticsModel::setDiagnostics(std::vector<Diagnostic> d)
{
    beginResetModel();
    items_ = std::move(d);
    endResetModel();
}

void DiagnosticsModel::languageChanged()
{
    if (!items_.empty())
        emit dataChanged(index(0), index(int(items_.size()) - 1));
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(items_.size()); }

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() < 0 || index.row() >= int(items_.size()) || index.column() != 0)
        return {};
    const Diagnostic& d = items_[std::size_t(index.row())];
    const std::string lang = chineseUi() ? "zh" : "en";
    const QString message = QString::fromStdString(d.message.in(lang));
    const QString suggestion = QString::fromStdString(d.suggestion.in(lang));
    switch (role) {
    case Qt::DisplayRole: return QString(message + QStringLiteral("\n→ ") + suggestion);
    case Qt::ToolTipRole: return QString(QString::fromStdString(d.code) + QStringLiteral(": ") + suggestion);
    case Qt::DecorationRole: {
        if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
            return {};
        const QStyle::StandardPixmap px = d.severity == Severity::Error ? QStyle::SP_MessageBoxCritical
            : d.severity == Severity::Warning                           ? QStyle::SP_MessageBoxWarning
                                                                        : QStyle::SP_MessageBoxInformation;
        return QApplication::style()->standardIcon(px);
    }
    case CodeRole: return QString::fromStdString(d.code);
    case StageRole: return d.stage;
    case KnobRole: return QString::fromStdString(d.knob);
    case SeverityRole: return QString::fromLatin1(toString(d.severity));
    case SuggestionRole: return suggestion;
    case MessageRole: return message;
    default: return {};
    }
}

QHash<int, QByteArray> DiagnosticsModel::roleNames() const
{
    QHash<int, QByteArray> r = QAbstractListModel::roleNames();
    r[CodeRole] = "code";
    r[StageRole] = "stage";
    r[KnobRole] = "knob";
    r[SeverityRole] = "severity";
    r[SuggestionRole] = "suggestion";
    r[MessageRole] = "message";
    return r;
}

} // namespace parascope::ui
