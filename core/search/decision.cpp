#include "search/decision.h"

#include "estimate/display_names.h"
#include "estimate/evaluate.h"
#include "io/error_bands.h"
#include "search/search.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace parascope {

namespace {

struct Candidate {
    Scenario sc;
    Estimate e;
    bool valid = false; // breaks no rule (out of memory aside)
    bool fits = false;
};

// The first error other than out of memory, in both languages ("" when none).
Localized firstError(const Estimate& e)
{
    const Diagnostic* d = e.layoutError();
    return d ? d->message : Localized{};
}

DecisionStep makeStep(const std::string& id, const Localized& title)
{
    DecisionStep s;
    s.id = id;
    s.title = title;
    return s;
}

class Procedure {
public:
    explicit Procedure(const Scenario& base)
        : base_(base)
        , gpus_(base.parallel.gpus())
        , per_node_(std::max(1, base.cluster.gpus_per_node))
    { }

    // The base's model, cluster and batch with this layout (1F1B, no CP, experts spread inside a
    // node for an MoE model).
    Candidate evaluateLayout(int tp, int pp, int zero, int vpp = 1) const
    {
        Strategy s{base_.parallel, base_.training};
        ParallelConfig& p = s.parallel;
        p.tp = tp;
        p.pp = pp;
        p.cp = 1;
        p.dp = int(gpus_ / (std::int64_t(tp) * pp));
        p.vpp = vpp;
        p.zero = zero;
        p.sequence_parallel = tp > 1;
        p.schedule = vpp > 1 ? ScheduleKind::Interleaved : ScheduleKind::OneFOneB;
        p.stage_layers.clear();
        p.shard_size = 0;
        p.offload = Offload::None;
        p.etp = 0;
        p.ep = 1;
        if (base_.model.moe && base_.model.moe->experts > 1)
            for (int ep = per_node_; ep >= 2; ep /= 2)
                if (base_.model.moe->experts % ep == 0 && (std::int64_t(tp) * p.dp) % ep == 0) {
                    p.ep = ep;
                    break;
                }
        Candidate c;
        c.sc = applyStrategy(base_, s);
        c.e = evaluate(c.sc);
        c.valid = firstError(c.e).en.empty();
        c.fits = c.valid && c.e.memory.fits;
        return c;
    }

    DecisionResult run(const DecisionOptions& options);

private:
    DecisionStep memoryStep(std::optional<Candidate>& pick);
    DecisionStep topologyStep(std::optional<Candidate>& pick, bool needed);
    DecisionStep communicationStep(const Candidate& pick) const;
    DecisionStep balanceStep(Candidate& pick) const;
    Localized compareWithSearch(DecisionResult& out) const;

    const Scenario& base_;
    std::int64_t gpus_;
    int per_node_;
    std::optional<Candidate> nearest_; // the valid layout closest to fitting, if none fits
    void remember(const Candidate& c)
    {
        if (c.valid && (!nearest_ || c.e.memory.peak_bytes < nearest_->e.memory.peak_bytes))
            nearest_ = c;
    }
};

DecisionStep Procedure::memoryStep(std::optional<Candidate>& pick)
{
    DecisionStep step = makeStep(
        "memory", {"1. Does it fit? Data parallelism first, then ZeRO", "1. 放得下吗？先用数据并行，再用 ZeRO"});
    step.why = {"Data parallelism copies the model to every GPU and needs no communication per layer: use it alone "
                "when the model "
                "states and activations fit. ZeRO-1/2/3 shard the optimizer states, then the gradients, then the "
                "weights over the "
                "data-parallel GPUs: each stage saves memory for some more communication.",
                "数据并行在每块 GPU 上放一份完整模型，每层不需要通信：模型状态和激活放得下时只用它。ZeRO-1/2/3 "
                "依次把优化器状态、梯度、"
                "权重切分到数据并行的各 GPU 上：每一级多省显存，也多一些通信。"};
    std::string tried_en, tried_zh;
    for (int zero = 0; zero <= 3; ++zero) {
        const Candidate c = evaluateLayout(1, 1, zero);
        remember(c);
        const std::string what = "ZeRO-" + std::to_string(zero);
        if (!c.valid) {
            const Localized why = firstError(c.e);
            step.verdict = DecisionVerdict::Warn;
            step.finding
                = {"Data parallelism alone over " + std::to_string(gpus_) + " GPUs is not a valid layout: " + why.en,
                   "只用数据并行铺满 " + std::to_string(gpus_) + " 块 GPU 不是有效布局：" + why.zh};
            return step;
        }
        const std::string peak = formatBytes(c.e.memory.peak_bytes);
        step.numbers.push_back({"decision.peak_zero" + std::to_string(zero), c.e.memory.peak_bytes, "bytes",
                                "peak memory per GPU, DP " + std::to_string(gpus_) + ", " + what,
                                layoutText(c.sc.parallel), "evaluate()"});
        tried_en += (tried_en.empty() ? "" : ", ") + what + " " + peak;
        tried_zh += (tried_zh.empty() ? "" : "，") + what + " " + peak;
        if (c.fits) {
            pick = c;
            step.verdict = zero == 0 ? DecisionVerdict::Ok : DecisionVerdict::Changed;
            step.finding
                = {"DP " + std::to_string(gpus_) + ": " + tried_en + " of " + formatBytes(c.e.memory.capacity_bytes)
                       + " — " + what + " fits. No model parallelism needed.",
                   "DP " + std::to_string(gpus_) + "：" + tried_zh + "，容量 " + formatBytes(c.e.memory.capacity_bytes)
                       + " —— " + what + " 放得下，不需要模型并行。"};
            return step;
        }
    }
    step.verdict = DecisionVerdict::Changed;
    step.finding
        = {"DP " + std::to_string(gpus_) + ": " + tried_en + " — over the "
               + formatBytes(nearest_->e.memory.capacity_bytes)
               + " of a GPU even with ZeRO-3 (the activations of a micro batch do not shard): split the model.",
           "DP " + std::to_string(gpus_) + "：" + tried_zh + " —— 即使 ZeRO-3 也超过单卡 "
               + formatBytes(nearest_->e.memory.capacity_bytes) + "（一个微批的激活不会被切分）：需要切分模型。"};
    return step;
}

DecisionStep Procedure::topologyStep(std::optional<Candidate>& pick, bool needed)
{
    DecisionStep step = makeStep("topology",
                                 {"2. Topology: TP inside a node, PP and DP across nodes",
                                  "2. 拓扑：节点内张量并行，跨节点流水线并行和数据并行"});
    step.why = {
        "Tensor parallelism communicates in every layer, forward and backward: it needs NVLink, so TP stays within the "
            + std::to_string(per_node_)
            + " GPUs of a node. Pipeline parallelism sends only activations at stage boundaries and "
              "data parallelism one gradient reduction per step: both can cross the network. Smallest TP first, then "
              "the smallest PP.",
        "张量并行每一层的前向和反向都要通信，需要 NVLink，所以 TP 不超出一个节点的 " + std::to_string(per_node_)
            + " 块 GPU。流水线并行只在阶段边界发送激活，数据并行每步只做一次梯度归约：两者都可以跨网络。先取最小的 "
              "TP，再取最小的 PP。"};
    if (!needed) {
        step.finding
            = {"Not needed: the model fits with data parallelism; TP or PP would only add communication and bubbles.",
               "不需要：数据并行已经放得下；再加 TP 或 PP 只会增加通信和气泡。"};
        return step;
    }
    step.verdict = DecisionVerdict::Changed;
    const auto found = [&](const Candidate& c, const std::string& en, const std::string& zh) {
        pick = c;
        step.numbers.push_back({"decision.peak", c.e.memory.peak_bytes, "bytes", "peak memory per GPU",
                                layoutText(c.sc.parallel), "evaluate()"});
        step.finding = {en + ": " + layoutText(c.sc.parallel) + ", peak " + formatBytes(c.e.memory.peak_bytes) + " of "
                            + formatBytes(c.e.memory.capacity_bytes) + ".",
                        zh + "：" + layoutText(c.sc.parallel) + "，峰值 " + formatBytes(c.e.memory.peak_bytes)
                            + "，容量 " + formatBytes(c.e.memory.capacity_bytes) + "。"};
    };
    const int heads = base_.model.heads, kv = base_.model.kv_heads > 0 ? base_.model.kv_heads : base_.model.heads;
    int tp_max = 1;
    for (int tp = 2; tp <= per_node_ && gpus_ % tp == 0; tp *= 2) {
        if (heads % tp != 0 || kv % tp != 0)
            break;
        tp_max = tp;
        const Candidate c = evaluateLayout(tp, 1, 1);
        remember(c);
        if (c.fits) {
            found(c, "TP " + std::to_string(tp) + " inside a node is enough",
                  "节点内 TP " + std::to_string(tp) + " 就够了");
            return step;
        }
    }
    for (int pp = 2; pp <= base_.model.layers && std::int64_t(tp_max) * pp <= gpus_; ++pp) {
        if (gpus_ % (std::int64_t(tp_max) * pp) != 0)
            continue;
        const Candidate c = evaluateLayout(tp_max, pp, 1);
        remember(c);
        if (c.fits) {
            found(c,
                  "TP " + std::to_string(tp_max) + " fills the node's NVLink; PP " + std::to_string(pp)
                      + " across nodes makes it fit",
                  "TP " + std::to_string(tp_max) + " 用满节点内 NVLink；跨节点 PP " + std::to_string(pp)
                      + " 让它放得下");
            return step;
        }
    }
    step.verdict = DecisionVerdict::Warn;
    if (nearest_)
        pick = nearest_;
    step.finding
        = {"Nothing fits on these GPUs with TP ≤ " + std::to_string(per_node_) + " and any PP"
               + (nearest_ ? ": the closest, " + layoutText(nearest_->sc.parallel) + ", needs "
                          + formatBytes(nearest_->e.memory.peak_bytes)
                          + " per GPU. Use full recompute, a smaller micro batch or more GPUs."
                           : "."),
           "在 TP ≤ " + std::to_string(per_node_) + " 和任意 PP 下都放不下"
               + (nearest_ ? "：最接近的 " + layoutText(nearest_->sc.parallel) + " 每块 GPU 需要 "
                          + formatBytes(nearest_->e.memory.peak_bytes) + "。请用完全重计算、更小的微批或更多 GPU。"
                           : "。")};
    return step;
}

DecisionStep Procedure::communicationStep(const Candidate& pick) const
{
    DecisionStep step = makeStep("communication", {"3. Communication per group", "3. 各通信组的通信量"});
    step.why = {"Each group's collectives move bytes over its link; what compute cannot hide lengthens the step (the "
                "communication "
                "wall). A ring moves about 2·P per GPU for an AllReduce of P bytes, whatever the group size.",
                "每个通信组的集合通信在各自的链路上传输数据；计算掩盖不了的部分会拉长单步（通信墙）。环形 AllReduce "
                "每块 GPU 约传 2·P 字节，"
                "与组的大小无关。"};
    struct Sum {
        double bytes = 0, time = 0, exposed = 0;
        Link link = Link::NvLink;
    };
    std::map<Group, Sum> groups;
    for (const CommEntry& c : pick.e.communication) {
        Sum& s = groups[c.group];
        s.bytes += c.bytes_per_gpu_per_step;
        s.time += c.time_s;
        s.exposed += c.exposed_s;
        if (c.link == Link::Network)
            s.link = Link::Network;
    }
    std::string en, zh;
    for (const auto& [g, s] : groups) {
        const Localized name = displayName(g), link = displayName(s.link);
        en += (en.empty() ? "" : "; ") + name.en + " " + formatBytes(s.bytes) + " per GPU over " + link.en + ", "
            + formatSeconds(s.time) + " (" + formatSeconds(s.exposed) + " exposed)";
        zh += (zh.empty() ? "" : "；") + name.zh + " 每块 GPU " + formatBytes(s.bytes) + "（" + link.zh + "），"
            + formatSeconds(s.time) + "，未重叠 " + formatSeconds(s.exposed);
        step.numbers.push_back({std::string("decision.comm_") + toString(g) + "_bytes_per_gpu", s.bytes, "bytes",
                                "Σ bytes per GPU per step of the group's collectives", "", "comm/comm_volume"});
    }
    const Wall& wall = pick.e.walls.communication;
    step.verdict = wall.verdict == WallVerdict::Ok ? DecisionVerdict::Ok : DecisionVerdict::Warn;
    const std::string share = formatPercent(wall.value);
    step.finding = {(en.empty() ? std::string("No communication.") : en + ".") + " Exposed: " + share + " of the step.",
                    (zh.empty() ? std::string("没有通信。") : zh + "。") + "未重叠部分占单步 " + share + "。"};
    return step;
}

DecisionStep Procedure::balanceStep(Candidate& pick) const
{
    DecisionStep step = makeStep("balance", {"4. Load balance and the bubble", "4. 负载均衡与流水线气泡"});
    const int p = pick.sc.parallel.pp;
    const long long m = pick.sc.microbatches();
    step.why
        = {"A pipeline idles (p − 1)/(m + p − 1) of the step with m microbatches on p stages; interleaving v virtual "
           "stages per GPU "
           "cuts it to about (p − 1)/(v·m + p − 1). Stages with more layers than the others make every stage wait for "
           "them.",
           "p 级流水线、m 个微批时，气泡约占 (p − 1)/(m + p − 1)；每块 GPU 交错 v 个虚拟阶段可降到约 (p − 1)/(v·m + p "
           "− 1)。"
           "层数多的阶段会让其他阶段都等它。"};
    if (p <= 1) {
        step.finding = {"No pipeline: no bubble, and every GPU holds all layers.",
                        "没有流水线：没有气泡，每块 GPU 都有全部层。"};
        return step;
    }
    const double formula = double(p - 1) / double(m + p - 1);
    const double bubble = pick.e.time.bubble_fraction;
    step.numbers.push_back({"decision.bubble_formula", formula, "fraction", "(p − 1)/(m + p − 1)",
                            "p = " + std::to_string(p) + ", m = " + std::to_string(m), "Narayanan et al. 2021"});
    step.numbers.push_back({"decision.bubble", bubble, "fraction", "simulated idle / step", "", "schedule/simulator"});
    const bool uneven = pick.sc.model.layers % p != 0;
    std::string en = "PP " + std::to_string(p) + ", " + std::to_string(m) + " microbatches: bubble "
        + formatPercent(formula) + " by the formula, " + formatPercent(bubble) + " simulated"
        + (uneven ? "; the layers do not divide evenly" : "");
    std::string zh = "PP " + std::to_string(p) + "，" + std::to_string(m) + " 个微批：公式气泡 "
        + formatPercent(formula) + "，模拟 " + formatPercent(bubble) + (uneven ? "；层数不能均分" : "");
    constexpr double kLargeBubble = 0.10;
    if (bubble > kLargeBubble && pick.sc.model.layers % (2 * p) == 0 && m % p == 0) {
        Candidate v = evaluateLayout(pick.sc.parallel.tp, p, pick.sc.parallel.zero, 2);
        if (v.fits && v.e.time.step_s < pick.e.time.step_s) {
            en += ". Interleaving (VPP 2) brings it to " + formatPercent(v.e.time.bubble_fraction) + ", step "
                + formatSeconds(pick.e.time.step_s) + " → " + formatSeconds(v.e.time.step_s);
            zh += "。交错式调度（VPP 2）降到 " + formatPercent(v.e.time.bubble_fraction) + "，单步 "
                + formatSeconds(pick.e.time.step_s) + " → " + formatSeconds(v.e.time.step_s);
            pick = std::move(v);
            step.verdict = DecisionVerdict::Changed;
        }
    }
    if (step.verdict == DecisionVerdict::Ok && (bubble > kLargeBubble || uneven))
        step.verdict = DecisionVerdict::Warn;
    step.finding = {en + ".", zh + "。"};
    return step;
}

Localized Procedure::compareWithSearch(DecisionResult& out) const
{
    SearchOptions options;
    options.gpus = gpus_;
    options.top = 1;
    options.threads = 1; // deterministic and gentle; the app runs this on a worker
    const SearchResult found = searchStrategies(base_, options);
    if (found.top.empty() || !found.top.front().fits)
        return {"The strategy search finds no layout that fits either.", "策略搜索也找不到放得下的布局。"};
    const SearchRow& best = found.top.front();
    out.search_best = applyStrategy(base_, {best.parallel, best.training});
    out.search_best_step_s = best.step_s;
    const double mine = out.estimate.time.step_s;
    if (best.step_s >= mine * 0.99)
        return {"The strategy search finds nothing faster (its best: " + formatSeconds(best.step_s)
                    + "): the rule of thumb is right here.",
                "策略搜索没有找到更快的布局（最好 " + formatSeconds(best.step_s) + "）：这里经验法则是对的。"};
    std::string en, zh;
    const auto differs = [&](const Localized& what, long long a, long long b) {
        if (a == b)
            return;
        en += (en.empty() ? "" : ", ") + what.en + " " + std::to_string(a) + " → " + std::to_string(b);
        zh += (zh.empty() ? "" : "，") + what.zh + " " + std::to_string(a) + " → " + std::to_string(b);
    };
    const ParallelConfig &a = out.scenario.parallel, &b = best.parallel;
    differs({"TP", "TP"}, a.tp, b.tp);
    differs({"PP", "PP"}, a.pp, b.pp);
    differs({"DP", "DP"}, a.dp, b.dp);
    differs({"CP", "CP"}, a.cp, b.cp);
    differs({"EP", "EP"}, a.ep, b.ep);
    differs({"VPP", "VPP"}, a.vpp, b.vpp);
    differs({"ZeRO", "ZeRO"}, a.zero, b.zero);
    differs({"micro batch", "微批大小"}, out.scenario.training.micro_batch, best.training.micro_batch);
    if (out.scenario.training.recompute != best.training.recompute) {
        en += (en.empty() ? "" : ", ") + displayName(out.scenario.training.recompute).en + " → "
            + displayName(best.training.recompute).en;
        zh += (zh.empty() ? "" : "，") + displayName(out.scenario.training.recompute).zh + " → "
            + displayName(best.training.recompute).zh;
    }
    const std::string gain = formatPercent(1 - best.step_s / mine);
    // Each step with how sure it is (its class's band, io/error_bands.h): "8.92 s ±10.7 %".
    const std::string theirs = secondsWithBand(best.step_s, bandFor(builtInBands(), *out.search_best));
    const std::string yours = secondsWithBand(mine, bandFor(builtInBands(), out.scenario));
    return {"The strategy search's best is " + gain + " faster: step " + theirs + " against " + yours + " (" + en
                + "). The procedure stops at the first layout that fits; the search weighs every layout by its step "
                  "time, and finds "
                  "what the rule of thumb misses (less model parallelism with more sharding, a larger micro batch, "
                  "less recompute).",
            "策略搜索的最优解快 " + gain + "：单步 " + theirs + "，本流程为 " + yours + "（" + zh
                + "）。决策流程停在第一个放得下的布局；搜索按单步耗时比较所有布局，能找到经验法则漏掉的方案（更少的模型"
                  "并行配合更多切分、"
                  "更大的微批、更少的重计算）。"};
}

DecisionResult Procedure::run(const DecisionOptions& options)
{
    DecisionResult out;
    std::optional<Candidate> pick;
    out.steps.push_back(memoryStep(pick));
    out.steps.push_back(topologyStep(pick, !pick.has_value()));
    if (!pick) { // not even a valid layout: say so and keep the scenario
        out.scenario = base_;
        out.estimate = evaluate(base_);
        return out;
    }
    out.steps.push_back(communicationStep(*pick));
    out.steps.push_back(balanceStep(*pick));
    out.scenario = pick->sc;
    out.estimate = pick->e;
    out.fits = pick->fits;
    if (options.compare_with_search)
        out.comparison = compareWithSearch(out);
    return out;
}

} // namespace

std::string layoutText(const ParallelConfig& p)
{
    std::string s = "TP " + std::to_string(p.tp) + " · PP " + std::to_string(p.pp) + " · DP " + std::to_string(p.dp);
    if (p.cp > 1)
        s += " · CP " + std::to_string(p.cp);
    if (p.ep > 1)
        s += " · EP " + std::to_string(p.ep);
    if (p.vpp > 1)
        s += " · VPP " + std::to_string(p.vpp);
    return s + " · ZeRO-" + std::to_string(p.zero);
}

DecisionResult decide(const Scenario& base, const DecisionOptions& options) { return Procedure(base).run(options); }

} // namespace parascope
