// The textbook beside the engine (core/estimate/textbook.h): each shortcut computed by hand for
// Llama-2 7B (Ψ = 6,738,415,616) on 8 A100s, plain DP (ZeRO-0), global batch 64 × 4096 — the
// chapter's §1.3 case — against the engine's number for the same quantity.

#include "estimate/evaluate.h"
#include "estimate/textbook.h"
#include "io/textbook_report.h"
#include "scenario_fixture.h"

#include <QtTest>

#include <cmath>

using namespace parascope;
using namespace parascope::test;

namespace {

const TextbookRow& row(const std::vector<TextbookRow>& rows, const std::string& id)
{
    for (const TextbookRow& r : rows)
        if (r.id == id)
            return r;
    static const TextbookRow none;
    QTest::qFail(("no row " + id).c_str(), __FILE__, __LINE__);
    return none;
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

} // namespace

class TstTextbook : public QObject {
    Q_OBJECT
private slots:
    void theChaptersCaseByHand()
    {
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
        sc.parallel.zero = 0;
        sc.training.global_batch = 64;
        const Estimate e = evaluate(sc);
        const std::vector<TextbookRow> rows = textbookRows(sc, e);
        const double P = 6738415616.0, GiB = double(1ull << 30);
        QCOMPARE(double(e.params.total), P);
        // 16P = 100.41 GiB; with nothing sharded the engine's weights + gradients + optimizer on
        // one GPU are the same 2P + 2P + 12P.
        QVERIFY(near(row(rows, "model_states").textbook, 16 * P / GiB));
        QVERIFY(std::abs(row(rows, "model_states").engine - 16 * P / GiB) < 1e-6);
        // The chapter's 4 B/param: 25.1 GiB against the engine's 12P = 75.31 GiB of Adam state.
        QVERIFY(near(row(rows, "adamw_4b").textbook, 4 * P / GiB));
        QVERIFY(std::abs(row(rows, "adamw_4b").engine - 12 * P / GiB) < 1e-6);
        // "7B fits on 80 GB": 2P = 12.55 GiB of weights; the engine's peak is 119.71 GiB.
        QVERIFY(near(row(rows, "weights_fit").textbook, 2 * P / GiB));
        QVERIFY(std::abs(row(rows, "weights_fit").engine - 119.71) < 0.01);
        // DP traffic: the textbook's 2·P·DP = 2·(2P bytes)·8 = 32P B is every GPU's together; one
        // ring AllReduce of bf16 gradients sends 2·7/8·2P = 3.5P B = 21.96 GiB per GPU, which is
        // exactly what the engine's plan sends (one AllReduce per step, ZeRO-0).
        QVERIFY(near(row(rows, "dp_traffic").textbook, 32 * P / GiB));
        QVERIFY(near(row(rows, "ring_traffic").textbook, 3.5 * P / GiB));
        QVERIFY(std::abs(row(rows, "ring_traffic").engine - 3.5 * P / GiB) < 1e-6);
        // Activations B·S·H·L = 64·4096·4096·32 elements = 32 GiB-of-elements, against the
        // engine's 17.08 GiB of bytes on the one in-flight microbatch.
        QVERIFY(near(row(rows, "activations").textbook, 64.0 * 4096 * 4096 * 32 / GiB));
        QVERIFY(std::abs(row(rows, "activations").engine - 17.08) < 0.01);
        // No TP: no TP traffic either way. 64·4096 = 262,144 tokens "≈ 262 sequences" against 64.
        QCOMPARE(row(rows, "tp_traffic").textbook, 0.0);
        QCOMPARE(row(rows, "tp_traffic").engine, 0.0);
        QVERIFY(near(row(rows, "sequences").textbook, 262.144));
        QCOMPARE(row(rows, "sequences").engine, 64.0);
        // Nothing overlapped: every collective's time over compute + communication; the engine's
        // exposed share is smaller (the AllReduce hides behind the backward).
        double comm = 0;
        for (const CommEntry& c : e.communication)
            comm += c.time_s;
        QVERIFY(near(row(rows, "comm_share").textbook, comm / (e.time.compute_s + comm)));
        QVERIFY(row(rows, "comm_share").engine < row(rows, "comm_share").textbook);
        // Every row says what it leaves out, in both languages; the CLI's text and JSON list them all.
        for (const TextbookRow& r : rows)
            QVERIFY2(!r.leaves_out.en.empty() && !r.leaves_out.zh.empty() && !r.engine_what.zh.empty(), r.id.c_str());
        QCOMPARE(textbookToJson(rows, "zh").size(), rows.size());
        QVERIFY(textbookText(rows, "en").find("2P + 2P + 12P = 16P bytes = 100.4 GiB") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstTextbook)
#include "tst_textbook.moc"
