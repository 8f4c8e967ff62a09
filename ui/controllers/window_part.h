#pragma once
// A part of the main window (controllers/): owns its actions and state, adds its actions to the
// menus it is given, and sets their texts in the current language when asked.

#include <QObject>

namespace parascope::ui {

class WindowPart : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    virtual void retranslate() = 0;
};

} // namespace parascope::ui
