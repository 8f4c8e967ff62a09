#pragma once
// Runs parascope-probe --quick on this machine with a progress dialog (its last stderr line as
// the label, Cancel kills it) and hands back the profile it wrote, or why there is none. Given a
// scenario (its JSON), the probe also times that scenario's own GEMMs (--scenario).

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>

#include <memory>

class QWidget;

namespace parascope::ui {

struct ProbeRun {
    QString profile_file; // in `dir`; empty on error
    QString error; // for the user; empty on success
    std::shared_ptr<QTemporaryDir> dir; // keeps the profile until the run is dropped
};

// The probe is $PARASCOPE_PROBE when set; else next to the app when installed, in ../probe in the
// build tree, or on PATH. `event_loop`: wait in a local event loop (the window stays live) rather
// than blocking.
ProbeRun runProbe(QWidget* parent, bool event_loop, const QByteArray& scenario_json = {});

} // namespace parascope::ui
