#pragma once
// Shows what a hardware profile measured next to the datasheet-derived defaults it replaces,
// and lets the user apply it to the scenario's cluster.

#include "types/scenario.h"
#include "hardware/hardware_profile.h"

#include <QDialog>

class QTableWidget;

namespace parascope::ui {

class CalibrationDialog : public QDialog {
    Q_OBJECT
public:
    CalibrationDialog(const ClusterSpec& before, const HardwareProfile& profile, QWidget* parent = nullptr);
    const ClusterSpec& calibrated() const { return after_; }
    QTableWidget* table() const { return table_; }

private:
    ClusterSpec after_;
    QTableWidget* table_;
};

} // namespace parascope::ui
