#include "io/layer_ops_report.h"

#include "estimate/display_names.h"
#include "util/text_columns.h"

#include <cstdio>
#include <sstream>

namespace parascope {

namespace {

struct OpLabel {
    std::string_view name;
    Localized label;
};

// clang-format off: one op per row reads as a table
const OpLabel kOpLabels[] = {
    {"qkv", {"QKV projection", "QKV 投影"}},
    {"q", {"query projection", "Q 投影"}},
    {"q_down", {"query down projection (MLA)", "Q 下投影（MLA）"}},
    {"q_up", {"query up projection (MLA)", "Q 上投影（MLA）"}},
    {"kv_down", {"key/value down projection (MLA)", "KV 下投影（MLA）"}},
    {"kv_up", {"key/value up projection (MLA)", "KV 上投影（MLA）"}},
    {"attention", {"attention core (scores, softmax, ·V)", "注意力核心（得分、softmax、·V）"}},
    {"out", {"attention output projection", "注意力输出投影"}},
    {"o", {"attention output projection", "注意力输出投影"}},
    {"mlp_up", {"MLP up (and gate) projection", "MLP 上投影（含门控）"}},
    {"mlp_down", {"MLP down projection", "MLP 下投影"}},
    {"experts_up", {"routed experts, up (grouped GEMM)", "路由专家上投影（分组矩阵乘）"}},
    {"router", {"router (gate scores)", "路由器（门控得分）"}},
    {"experts_down", {"routed experts, down (grouped GEMM)", "路由专家下投影（分组矩阵乘）"}},
    {"routing", {"routing: softmax, top-k, permute", "路由：softmax、top-k、重排"}},
    {"shared_up", {"shared experts, up", "共享专家上投影"}},
    {"shared_down", {"shared experts, down", "共享专家下投影"}},
    {"elementwise", {"norms, activation, residuals, rotary", "归一化、激活、残差、旋转位置编码"}},
    {"sequence_relayout", {"SP collectives' copies (layout, async TP)", "序列并行集合通信的拷贝（重排、异步 TP）"}},
    {"fsdp_copy_out", {"FSDP2 copy-out (per-parameter shards)", "FSDP2 参数拷出（逐参数分片）"}},
    {"kv_repeat", {"K/V repeat (GQA repeat_kv)", "K/V 按查询头复制"}},
    {"cp_ring_merge", {"CP ring merges (fp32)", "CP 环：单精度合并"}},
    {"host_wait", {"host: the GPU waits", "主机下发：GPU 等待"}},
};
// clang-format on

std::string fmt(const char* f, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

struct Column {
    const char* en;
    const char* zh;
    std::size_t width;
    bool right;
};

void table(std::ostringstream& o, const std::vector<LayerOp>& ops, bool zh)
{
    const LayerOpsTotal sum = sumLayerOps(ops);
    const bool casts = sum.cast_s > 0, recompute = sum.recompute_s > 0;
    const auto in = [zh](const Localized& l) { return zh ? l.zh : l.en; };
    const Column columns[]
        = {{"op", "算子", 38, false},      {"rate", "速率类别", 17, false},    {"precision", "精度", 10, false},
           {"kernels", "内核数", 8, true}, {"forward", "前向", 10, true},      {"dX", "输入梯度", 10, true},
           {"dW", "权重梯度", 10, true},   {"FP8 cast", "FP8 转换", 10, true}, {"recompute", "重计算", 10, true}};
    for (const Column& c : columns)
        if ((c.en != std::string_view("FP8 cast") || casts) && (c.en != std::string_view("recompute") || recompute))
            o << padColumns(zh ? c.zh : c.en, c.width, c.right);
    o << "\n";
    const auto row = [&](const std::string& label, const std::string& rate, const std::string& precision, int fk,
                         int bk, const LayerOpsTotal& t) {
        o << padColumns(label, 38, false) << padColumns(rate, 17, false) << padColumns(precision, 10, false)
          << padColumns(std::to_string(fk) + "/" + std::to_string(bk), 8) << padColumns(layerOpMs(t.forward_s), 10)
          << padColumns(layerOpMs(t.input_grad_s), 10) << padColumns(layerOpMs(t.weight_grad_s), 10);
        if (casts)
            o << padColumns(layerOpMs(t.cast_s), 10);
        if (recompute)
            o << padColumns(layerOpMs(t.recompute_s), 10);
        o << "\n";
    };
    for (const LayerOp& op : ops)
        row(in(layerOpLabel(op.name)), in(displayName(op.rate)), in(layerOpPrecision(op)), op.forward_kernels,
            op.backward_kernels, sumLayerOps({op}));
    row(zh ? "合计（一层）" : "layer (sum)", "", "", sum.forward_kernels, sum.backward_kernels, sum);
}

} // namespace

Localized layerOpLabel(std::string_view name)
{
    for (const OpLabel& l : kOpLabels)
        if (l.name == name)
            return l.label;
    return {std::string(name), std::string(name)};
}

Localized layerOpPrecision(const LayerOp& op)
{
    return op.rate == OpRate::Host ? Localized{"–", "–"} : displayName(op.precision);
}

std::string layerOpMs(double seconds) { return seconds > 0 ? fmt("%.3f", seconds * 1e3) : std::string("–"); }

LayerOpsTotal sumLayerOps(const std::vector<LayerOp>& ops)
{
    LayerOpsTotal t;
    for (const LayerOp& op : ops) {
        t.forward_s += op.forward_s;
        t.input_grad_s += op.input_grad_s;
        t.weight_grad_s += op.weight_grad_s;
        t.cast_s += op.cast_forward_s + op.cast_backward_s;
        t.recompute_s += op.recompute_s;
        t.forward_kernels += op.forward_kernels;
        t.backward_kernels += op.backward_kernels;
    }
    return t;
}

nlohmann::json layerOpsToJson(const std::vector<LayerOp>& ops, const std::string& lang)
{
    nlohmann::json out = nlohmann::json::array();
    for (const LayerOp& op : ops)
        out.push_back({{"name", op.name},
                       {"label", layerOpLabel(op.name).in(lang)},
                       {"rate", toString(op.rate)},
                       {"precision", toString(op.precision)},
                       {"flops", op.flops},
                       {"input_grad_flops", op.input_grad_flops},
                       {"weight_grad_flops", op.weight_grad_flops},
                       {"term", op.term},
                       {"bytes", op.bytes},
                       {"forward_kernels", op.forward_kernels},
                       {"backward_kernels", op.backward_kernels},
                       {"forward_s", op.forward_s},
                       {"input_grad_s", op.input_grad_s},
                       {"weight_grad_s", op.weight_grad_s},
                       {"fp8_cast_s", op.cast_forward_s + op.cast_backward_s},
                       {"recompute_s", op.recompute_s}});
    return out;
}

std::string layerOpsText(const ModelSpec& model, const TimeReport& time, const std::string& lang)
{
    const bool zh = lang.rfind("zh", 0) == 0;
    const int moe_layers = time.moe_layer_ops.empty() ? 0 : model.moeLayerCount();
    std::ostringstream o;
    const auto section = [&](const std::vector<LayerOp>& ops, int layers, const char* en, const char* cn) {
        if (ops.empty() || layers <= 0)
            return;
        if (zh)
            o << cn << "（共 " << layers << " 层）：一个微批、一块 GPU，单位 ms\n";
        else
            o << en << " (" << countOf(layers, "layer", "layers") << "), one microbatch on one GPU, in ms\n";
        table(o, ops, zh);
        o << "\n";
    };
    section(time.layer_ops, model.layers - moe_layers, "One dense layer's ops", "每个稠密层的算子");
    section(time.moe_layer_ops, moe_layers, "One MoE layer's ops", "每个 MoE 层的算子");
    return o.str();
}

} // namespace parascope
