#include "main_window.h"

#include "collectives_view.h"
#include "comm_chart.h"
#include "dialogs/advisor_dialog.h"
#include "exercise_panel.h"
#include "models/scenario_model.h"
#include "save_file.h"

#include <QGraphicsBlurEffect>
#include <QStatusBar>
#include <QTabWidget>

// The course's companions: the Collectives tab and the communication chart (a row opens its
// collective; the tab follows that row while the scenario changes), and the Advisor.

namespace parascope::ui {

void MainWindow::watchCollective(int entry)
{
    const auto& comm = model_->estimate().communication;
    if (entry < 0 || entry >= int(comm.size()))
        return;
    const CommEntry& e = comm[std::size_t(entry)];
    if (collectives_->showEntry(e, CommChart::entryName(e)))
        showTab(Tab::Collectives);
    else
        statusBar()->showMessage(
            tr("%1 has no step-by-step form: the Collectives tab shows AllReduce, AllGather, ReduceScatter, "
               "All-to-All and broadcast")
                .arg(CommChart::entryName(e)),
            5000);
}

void MainWindow::followCollective()
{
    // A view opened from a row (or on the default row at the start) keeps showing that row of
    // the new estimate, else the longest collective; one the user set up by hand stays.
    const CollectiveChoice& now = collectives_->chart()->choice();
    if (now.origin.isEmpty() && collective_shown_)
        return;
    collective_shown_ = true;
    const auto& comm = model_->estimate().communication;
    for (const CommEntry& e : comm)
        if (!now.origin_key.isEmpty() && CollectivesView::originKey(e) == now.origin_key) {
            if (e.bytes_per_call != now.bytes || e.group_size != now.ranks)
                collectives_->showEntry(e, CommChart::entryName(e));
            else // keep the animation's place; the name follows the language
                collectives_->chart()->setOriginName(CommChart::entryName(e));
            return;
        }
    if (const int best = CollectivesView::defaultEntry(comm); best >= 0)
        collectives_->showEntry(comm[std::size_t(best)], CommChart::entryName(comm[std::size_t(best)]));
}

void MainWindow::hideForExercise(bool pending)
{
    // The blur is the tab widget's own effect: it goes when the estimate is revealed.
    if (pending) {
        auto* blur = new QGraphicsBlurEffect;
        blur->setBlurRadius(18);
        tabs_->setGraphicsEffect(blur);
    } else {
        tabs_->setGraphicsEffect(nullptr);
    }
    tabs_->setEnabled(!pending);
    retranslate(); // the step's text and the status line
}

QString MainWindow::exportExerciseResults(const QString& file)
{
    const QString e = writeFileAtomically(file, exercise_->recordsCsv());
    if (e.isEmpty())
        statusBar()->showMessage(tr("Exported %n answer(s) to %1", nullptr, int(exercise_->records().size())).arg(file),
                                 3000);
    return e;
}

AdvisorDialog* MainWindow::showAdvisor()
{
    if (!advisor_) {
        advisor_ = new AdvisorDialog(model_, this);
        advisor_->setAttribute(Qt::WA_DeleteOnClose);
    }
    advisor_->show();
    advisor_->raise();
    return advisor_;
}

} // namespace parascope::ui
