#include "search/report_card.h"

#include "estimate/display_names.h"
#include "estimate/evaluate.h"

#include <cctype>
#include <cmath>

namespace parascope {

namespace {

constexpr double kMaterial = 0.02; // a difference of two points of the step or of memory is worth a sentence

// What differs between two layouts, as the knobs the sentences name.
struct Knobs {
    const ParallelConfig& a;
    const ParallelConfig& b;
    bool pp() const { return a.pp != b.pp || a.vpp != b.vpp; }
    bool tp() const { return a.tp != b.tp || a.cp != b.cp || a.ep != b.ep; }
    bool zero() const { return a.zero != b.zero; }
};

// Why the exposed communication differs: the first knob that differs and what it does.
Localized commCause(const ParallelConfig& pa, const ParallelConfig& pb)
{
    const auto two = [](int x, int y) { return std::to_string(x) + " against " + std::to_string(y); };
    const auto twoZh = [](int x, int y) { return std::to_string(x) + " 对 " + std::to_string(y); };
    if (pa.tp != pb.tp)
        return {" (TP " + two(pa.tp, pb.tp) + ": TP's collectives sit between the layers' GEMMs)",
                "（TP " + twoZh(pa.tp, pb.tp) + "：TP 的集合通信夹在各层矩阵乘之间）"};
    if (pa.zero != pb.zero)
        return {" (ZeRO-" + two(pa.zero, pb.zero) + ": ZeRO-3 gathers the weights per layer)",
                "（ZeRO-" + twoZh(pa.zero, pb.zero) + "：ZeRO-3 每层都要收集权重）"};
    if (pa.dp != pb.dp)
        return {" (DP " + two(pa.dp, pb.dp)
                    + ": the gradient collectives span other GPUs and nodes, and fewer microbatches per replica "
                      "leave less backward to hide them behind)",
                "（DP " + twoZh(pa.dp, pb.dp)
                    + "：梯度集合通信跨越的 GPU 与节点不同，每个副本的微批越少，可用来掩盖它的反向计算也越少）"};
    return {};
}

// One comparison: yours (a) against `name`'s layout (b), one sentence per wall that differs.
void compare(std::vector<Localized>& out, const LayoutMarks& a, const ParallelConfig& pa, const LayoutMarks& b,
             const ParallelConfig& pb, const Localized& name)
{
    const Knobs k{pa, pb};
    const std::string pct_a = formatPercent(a.bubble_imbalance), pct_b = formatPercent(b.bubble_imbalance);
    if (std::abs(a.bubble_imbalance - b.bubble_imbalance) > kMaterial)
        out.push_back({"Bubble and uneven stages: " + pct_a + " of the step for your PP " + std::to_string(pa.pp) + ", "
                           + pct_b + " for " + name.en + "'s PP " + std::to_string(pb.pp)
                           + (pb.pp < pa.pp && b.fits ? ": it fits with less pipelining (" + b.layout + ")" : "")
                           + (k.pp() ? "" : " (the same PP: the microbatches per pipeline differ with DP)"),
                       "气泡与阶段不均：你的 PP " + std::to_string(pa.pp) + " 占单步耗时的 " + pct_a + "，" + name.zh
                           + "的 PP " + std::to_string(pb.pp) + " 为 " + pct_b
                           + (pb.pp < pa.pp && b.fits ? "：它用更少的流水线切分就放得下（" + b.layout + "）" : "")
                           + (k.pp() ? "" : "（PP 相同：每条流水线的微批数随 DP 而变）")});
    if (std::abs(a.exposed_comm - b.exposed_comm) > kMaterial) {
        const Localized why = commCause(pa, pb);
        out.push_back({"Exposed communication: " + formatPercent(a.exposed_comm) + " of your step, "
                           + formatPercent(b.exposed_comm) + " of " + name.en + "'s" + why.en,
                       "未重叠通信：你的单步耗时中占 " + formatPercent(a.exposed_comm) + "，" + name.zh + "的占 "
                           + formatPercent(b.exposed_comm) + why.zh});
    }
    if (std::abs(a.memory_headroom - b.memory_headroom) > kMaterial)
        out.push_back({"Memory headroom: " + formatPercent(a.memory_headroom) + " of the GPU free for yours, "
                           + formatPercent(b.memory_headroom) + " for " + name.en + "'s ("
                           + (k.zero() ? "ZeRO-" + std::to_string(pa.zero) + " against ZeRO-" + std::to_string(pb.zero)
                                       : "TP " + std::to_string(pa.tp) + " · PP " + std::to_string(pa.pp)
                                      + " against TP " + std::to_string(pb.tp) + " · PP " + std::to_string(pb.pp))
                           + " shard the states differently)",
                       "显存余量：你的布局剩余 " + formatPercent(a.memory_headroom) + "，" + name.zh + "的剩余 "
                           + formatPercent(b.memory_headroom) + "（"
                           + (k.zero() ? "ZeRO-" + std::to_string(pa.zero) + " 对 ZeRO-" + std::to_string(pb.zero)
                                       : "TP " + std::to_string(pa.tp) + " · PP " + std::to_string(pa.pp) + " 对 TP "
                                      + std::to_string(pb.tp) + " · PP " + std::to_string(pb.pp))
                           + "，对模型状态的切分不同）"});
    if (a.step_s > 0 && b.step_s > 0) {
        const double faster = a.step_s / b.step_s - 1;
        std::string who = name.en;
        who[0] = char(std::toupper(static_cast<unsigned char>(who[0])));
        // Each step with its band ("8.92 s ±10.7 %"): the two may be in different classes.
        const std::string theirs = secondsWithBand(b.step_s, b.step_band);
        const std::string yours = secondsWithBand(a.step_s, a.step_band);
        // The same layout (the procedure stops at yours) is the same step, not "−0.0 % slower".
        const bool same = std::abs(faster) < 0.0005;
        out.push_back({who + "'s " + b.layout + " takes " + theirs + " a step against your " + yours + ": "
                           + (same             ? std::string("the same")
                                  : faster > 0 ? formatPercent(faster) + " faster"
                                               : formatPercent(-faster) + " slower"),
                       name.zh + "的 " + b.layout + " 单步耗时 " + theirs + "，你的为 " + yours + "："
                           + (same             ? std::string("相同")
                                  : faster > 0 ? "快 " + formatPercent(faster)
                                               : "慢 " + formatPercent(-faster))});
    }
}

} // namespace

LayoutMarks marksOf(const Scenario& sc, const Estimate& est)
{
    LayoutMarks m;
    m.layout = layoutText(sc.parallel);
    m.fits = est.memory.fits && !est.has("out_of_memory");
    m.memory_headroom = est.memory.capacity_bytes > 0 ? 1 - est.memory.peak_bytes / est.memory.capacity_bytes : 0;
    m.exposed_comm = est.time.step_s > 0 ? est.time.exposed_comm_s / est.time.step_s : 0;
    m.bubble_imbalance = est.walls.losses.bubble + est.walls.losses.uneven_stages;
    m.stability = est.walls.stability.value;
    m.step_s = est.time.step_s;
    m.tokens_per_s = est.throughput.tokens_per_s;
    m.time_goodput = est.walls.stability_report.time_goodput;
    m.step_band = bandFor(builtInBands(), sc);
    return m;
}

CardReferences cardReferences(const DecisionResult& decision)
{
    CardReferences r{decision.scenario, marksOf(decision.scenario, decision.estimate), decision.search_best, {}};
    if (decision.search_best)
        r.search_marks = marksOf(*decision.search_best, evaluate(*decision.search_best));
    return r;
}

ReportCard reportCard(const Scenario& yours, const Estimate& yours_estimate, const CardReferences& r)
{
    ReportCard card;
    card.yours = marksOf(yours, yours_estimate);
    card.procedure = r.procedure_marks;
    compare(card.differences, card.yours, yours.parallel, card.procedure, r.procedure.parallel,
            {"the procedure", "决策流程"});
    if (r.search && r.search_marks) {
        card.search = r.search_marks;
        compare(card.differences, card.yours, yours.parallel, *card.search, r.search->parallel,
                {"the search", "策略搜索"});
    }
    return card;
}

ReportCard gradeLayout(const Scenario& yours) { return reportCard(yours, evaluate(yours), decide(yours)); }

} // namespace parascope
