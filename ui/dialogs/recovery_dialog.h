#pragma once
// After a crash: restore the scenario a killed session was working on, discard it, or decide later.

#include <QString>

class QWidget;

namespace parascope::ui {

enum class RecoveryAnswer { Restore, Discard, Later };

// `file`: the autosaved scenario; `others`: how many more wait for an answer.
RecoveryAnswer askRecovery(QWidget* parent, const QString& file, int others);

} // namespace parascope::ui
