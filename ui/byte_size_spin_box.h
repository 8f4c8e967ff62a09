#pragma once
// Number boxes that read what users type with its unit.
//
// A size box that reads what a user types with its unit ("1 GiB", "512 KiB", "64MB", "8M": the
// CLI's parser, util/byte_size.h) and shows the value in the largest binary unit that keeps it
// readable ("1 GiB", not "1024.000 MiB"). value() is in MiB, as the box it replaces.

#include <QDoubleSpinBox>

namespace parascope::ui {

class ByteSizeSpinBox : public QDoubleSpinBox {
public:
    explicit ByteSizeSpinBox(QWidget* parent = nullptr);

protected:
    QString textFromValue(double mib) const override;
    double valueFromText(const QString& text) const override;
    QValidator::State validate(QString& text, int& pos) const override;
};

// A parameter count in millions that reads what a user types: "40" or "40 M" (millions),
// "1.5 G" or "1.5 B" (billions), or a plain count above 100,000 ("536870912" = 536.9 M, as
// Megatron's --ddp-bucket-size counts parameters). value() is in millions.
class ParamCountSpinBox : public QDoubleSpinBox {
public:
    explicit ParamCountSpinBox(QWidget* parent = nullptr);

protected:
    QString textFromValue(double millions) const override;
    double valueFromText(const QString& text) const override;
    QValidator::State validate(QString& text, int& pos) const override;
};

} // namespace parascope::ui
