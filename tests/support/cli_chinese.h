#pragma once
// "Chinese means Chinese" for parascope-cli (tst_cli, tst_cli_language): output asked for with
// --lang zh has Chinese in it, and no Latin word is left once the names, identifiers, options,
// parallel degrees and number formats are taken out, but for the course's allowed words.

#include "cli_run.h"
#include "zh_terms.h"

#include <QByteArray>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace parascope::test {

// What may stay in Latin letters in Chinese output: the standard abbreviations and unit
// symbols of the course (docs: shared/reference/zh-terminology.md keeps TP/PP/DP/CP/EP/VPP/SP,
// GPU, MFU/HFU, ZeRO, NVLink, InfiniBand), the collectives' one spelling, schedule and
// framework names, number formats, and the product's name. Everything else is a word that
// should have been translated.
inline const std::set<QString>& allowedWords()
{
    static const std::set<QString> words
        = {QStringLiteral("TP"), QStringLiteral("PP"), QStringLiteral("DP"), QStringLiteral("CP"), QStringLiteral("EP"),
           QStringLiteral("VPP"), QStringLiteral("SP"), QStringLiteral("ETP"), QStringLiteral("GPU"),
           QStringLiteral("CPU"), QStringLiteral("CUDA"), QStringLiteral("MFU"), QStringLiteral("HFU"),
           QStringLiteral("ZeRO"), QStringLiteral("GiB"), QStringLiteral("MiB"), QStringLiteral("TiB"),
           QStringLiteral("GB"), QStringLiteral("TB"), QStringLiteral("ms"), QStringLiteral("AllReduce"),
           QStringLiteral("AllGather"), QStringLiteral("ReduceScatter"), QStringLiteral("NVLink"),
           QStringLiteral("InfiniBand"), QStringLiteral("PCIe"), QStringLiteral("GPipe"), QStringLiteral("DualPipeV"),
           QStringLiteral("DualPipe"), QStringLiteral("KV"), QStringLiteral("GQA"), QStringLiteral("MoE"),
           QStringLiteral("FLOPs"), QStringLiteral("MAPE"), QStringLiteral("Megatron"), QStringLiteral("DeepSpeed"),
           QStringLiteral("PyTorch"), QStringLiteral("torchtitan"), // frameworks, named like Megatron
           QStringLiteral("Narayanan"), QStringLiteral("GPT"), QStringLiteral("ParaScope"), QStringLiteral("FSDP"),
           QStringLiteral("HSDP"), QStringLiteral("Ulysses"), QStringLiteral("rank"), QStringLiteral("GEMM"),
           QStringLiteral("algbw"), QStringLiteral("busbw"), QStringLiteral("KiB"), QStringLiteral("NCCL"),
           QStringLiteral("NVLS"), QStringLiteral("NVSwitch"), QStringLiteral("DeepEP"),
           // the optimizer's and an author's names, and the course's "token" (zh-terminology.md)
           QStringLiteral("Adam"), QStringLiteral("AdamW"), QStringLiteral("Korthikanti"), QStringLiteral("token"),
           // op names Chinese texts keep (the layer-ops table)
           QStringLiteral("QKV"), QStringLiteral("MLP"), QStringLiteral("MLA"), QStringLiteral("softmax"),
           // gradient compression: the methods, the models and the authors the caveat cites (FP8-LM, Top-k)
           QStringLiteral("PowerSGD"), QStringLiteral("DDP"), QStringLiteral("DGC"), QStringLiteral("SGD"),
           QStringLiteral("BERT"), QStringLiteral("ResNet"), QStringLiteral("LSTM"), QStringLiteral("LM"),
           QStringLiteral("Top"), QStringLiteral("Peng"), QStringLiteral("Tang"), QStringLiteral("Vogels"),
           QStringLiteral("Lin")};
    return words;
}

// Exact strings that are names, not words: unit symbols with a slash, schedule names with a
// dash, the program, and every preset's id and display name (models, GPUs, clusters).
inline QStringList namesToStrip()
{
    static QStringList names;
    if (!names.isEmpty())
        return names;
    names = {QStringLiteral("All-to-All"), QStringLiteral("ZB-H1"),      QStringLiteral("ZB-V"),
             QStringLiteral("tokens/s"),   QStringLiteral("TFLOP/s"),    QStringLiteral("parascope-cli"),
             QStringLiteral("top-k"),      QStringLiteral("nccl-tests"), QStringLiteral("PipeDream-2BW"),
             QStringLiteral("PipeDream"),  QStringLiteral("flush")}; // flush: parallel.async_pipeline's value
    const Run r = run({QStringLiteral("presets"), QStringLiteral("--format"), QStringLiteral("json")});
    const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
    for (const auto& kind : j.items())
        for (const auto& preset : kind.value().items()) {
            names << QString::fromStdString(preset.key());
            if (preset.value().contains("name"))
                names << QString::fromStdString(preset.value()["name"].get<std::string>());
        }
    return names;
}

// The Latin words left in `text` once names, identifiers a user types or looks up (scenario
// paths, diagnostic codes, option and file names, run ids: anything with "_" or "." inside),
// parallel degrees ("TP8") and number formats ("BF16") are taken out: must be none.
inline QStringList englishWords(QString text, const QStringList& names)
{
    QStringList sorted = names + namesToStrip();
    std::sort(sorted.begin(), sorted.end(), [](const QString& a, const QString& b) { return a.size() > b.size(); });
    for (const QString& n : sorted)
        if (!n.isEmpty())
            text.replace(n, QStringLiteral(" "));
    static const QRegularExpression identifier(QStringLiteral(R"([A-Za-z0-9\-]*[A-Za-z0-9](?:[_.][A-Za-z0-9\-]+)+)"));
    static const QRegularExpression degree(QStringLiteral(R"(\b(?:TP|PP|DP|CP|EP|VPP|BF|FP)\d+\b)"));
    static const QRegularExpression word(QStringLiteral("[A-Za-z]{2,}"));
    static const QRegularExpression option(QStringLiteral(R"(--[a-z][a-z0-9\-]*)")); // command-line options
    text.replace(option, QStringLiteral(" "));
    text.replace(identifier, QStringLiteral(" "));
    text.replace(degree, QStringLiteral(" "));
    QStringList left;
    for (auto it = word.globalMatch(text); it.hasNext();) {
        const QString w = it.next().captured();
        if (!allowedWords().count(w) && !left.contains(w))
            left << w;
    }
    return left;
}

inline void expectChinese(const QString& what, const QByteArray& output, const QStringList& names)
{
    const QString text = QString::fromUtf8(output);
    QVERIFY2(text.contains(QRegularExpression(QStringLiteral("[\u4e00-\u9fff]"))),
             qPrintable(what + QStringLiteral(": no Chinese")));
    const QStringList left = englishWords(text, names);
    QVERIFY2(left.isEmpty(), qPrintable(what + QStringLiteral(": untranslated ") + left.join(QStringLiteral(", "))));
    const std::vector<std::string> terms = zhTermFailures(what.toStdString(), output.toStdString());
    QVERIFY2(terms.empty(), terms.empty() ? "" : terms.front().c_str());
}

} // namespace parascope::test
