// Validation against published training runs (resources/presets/validation/published-runs.json,
// a copy of the reference set): the engine's defaults — one set per GPU type — must predict the
// published step times with MAPE ≤ 10 % and no run off by more than 25 %.

#include "validation/published_runs.h"
#include "scenario_fixture.h"

using namespace parascope;

class TstValidation : public QObject {
    Q_OBJECT

private slots:
    void referenceSetWithinBounds()
    {
        std::vector<InputError> errors;
        const ValidationSummary v = validateRuns(findPreset("validation", "published-runs")->json, errors);
        QVERIFY(errors.empty());
        QVERIFY2(v.evaluated >= 30, std::to_string(v.evaluated).c_str());
        std::string table;
        for (const ValidationRow& r : v.rows)
            if (r.evaluated)
                table += r.id + " " + std::to_string(r.error * 100) + " %\n";
        qInfo("MAPE %.1f %% over %d runs, worst %s %.1f %%", v.mape * 100, v.evaluated, v.worst.c_str(), v.max_abs_error * 100);
        QVERIFY2(v.mape <= 0.10, table.c_str());
        QVERIFY2(v.max_abs_error <= 0.25, table.c_str());
    }

    void unstatedFieldsAreDocumented()
    {
        std::vector<InputError> errors;
        const ValidationSummary v = validateRuns(findPreset("validation", "published-runs")->json, errors);
        for (const ValidationRow& r : v.rows) {
            if (!r.evaluated) {
                QVERIFY2(!r.skipped_because.empty(), r.id.c_str());
                continue;
            }
            QVERIFY2(!r.source_family.empty(), r.id.c_str());
            QVERIFY2(!r.convention.empty(), r.id.c_str());
            QVERIFY(r.published_step_s > 0 && r.predicted_step_s > 0);
        }
        // The Narayanan 2021 table leaves the micro batch and recompute unstated.
        for (const ValidationRow& r : v.rows)
            if (r.id == "narayanan21_t1_1T") {
                const auto has = [&](const std::string& what) {
                    for (const std::string& d : r.defaults_used)
                        if (d.find(what) != std::string::npos)
                            return true;
                    return false;
                };
                QVERIFY(has("micro_batch = 1"));
                QVERIFY(has("recompute = full"));
            }
    }

    void publishedConventionsAreApplied()
    {
        // Narayanan 2021 counts TFLOP/s with eq. 3 including recomputation:
        // 96·B·s·L·h²(1 + s/6h + V/16Lh). For the 1T run (B 3072, s 2048, L 128, h 25600,
        // V 51200, 3072 GPUs, 163 TFLOP/s) that is a step of F/(163e12·3072).
        std::vector<InputError> errors;
        const ValidationSummary v = validateRuns(findPreset("validation", "published-runs")->json, errors);
        for (const ValidationRow& r : v.rows)
            if (r.id == "narayanan21_t1_1T") {
                const double B = 3072, s = 2048, L = 128, h = 25600, V = 51200;
                const double F = 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h));
                QCOMPARE(r.published_step_s, F / (163e12 * 3072));
                return;
            }
        QFAIL("narayanan21_t1_1T missing");
    }

    void badFileIsAnError()
    {
        std::vector<InputError> errors;
        validateRuns(nlohmann::json::array(), errors);
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(errors[0].path, std::string("runs"));
    }
};

QTEST_GUILESS_MAIN(TstValidation)
#include "tst_validation.moc"
