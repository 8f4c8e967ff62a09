#pragma once
// Rows of a form that show only where they apply (the FP8 recipe under FP8, the CP algorithm under
// CP > 1, …). A row that does not apply is taken out of the form and put back at its place when it
// applies again, rather than hidden in place: Qt 6.4's QFormLayout, with WrapLongRows on a narrow
// panel, under-counted the height of a form holding hidden rows and squeezed another row's label
// to nothing (EP's or CP's on a 1024-pixel projector).

#include <QFormLayout>
#include <QWidget>

#include <vector>

namespace parascope::ui {

class OptionalRows {
public:
    explicit OptionalRows(QFormLayout* form)
        : form_(form)
    { }

    // `field` is already in the form (its label, if any, beside it); call in the rows' order.
    void add(QWidget* field)
    {
        int row = -1;
        QFormLayout::ItemRole role{};
        form_->getWidgetPosition(field, &row, &role);
        QLayoutItem* label = form_->itemAt(row, QFormLayout::LabelRole);
        rows_.push_back({field, label ? label->widget() : nullptr, row, true});
    }

    void setShown(QWidget* field, bool shown)
    {
        int taken_before = 0;
        for (Row& r : rows_) {
            if (r.field != field) {
                taken_before += r.shown ? 0 : 1;
                continue;
            }
            if (r.shown != shown)
                shown ? putBack(r, r.row - taken_before) : take(r, r.row - taken_before);
            return;
        }
    }

private:
    struct Row {
        QWidget* field;
        QWidget* label; // nullptr: a row across both columns
        int row; // its place with every optional row in the form
        bool shown;
    };

    void take(Row& r, int at)
    {
        const QFormLayout::TakeRowResult taken = form_->takeRow(at);
        delete taken.labelItem; // the layout items, not the widgets
        delete taken.fieldItem;
        r.field->hide();
        if (r.label)
            r.label->hide();
        r.shown = false;
    }

    void putBack(Row& r, int at)
    {
        if (r.label)
            form_->insertRow(at, r.label, r.field);
        else
            form_->insertRow(at, r.field);
        r.field->show();
        if (r.label)
            r.label->show();
        r.shown = true;
    }

    QFormLayout* form_;
    std::vector<Row> rows_;
};

} // namespace parascope::ui
