#pragma once
// One layer's ops (time/layer_ops.h) as people read them. The JSON report's time.layer_ops, the
// text report's op table and the app's "Layer ops" tab all read TimeReport::layer_ops and
// moe_layer_ops through these, so the three show one list with one set of numbers.

#include "time/layer_ops.h"
#include "time/step_time.h"
#include "types/diagnostic.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace parascope {

// The op's name for people: "qkv" → "QKV projection" / "QKV 投影"; an unknown name as it is.
Localized layerOpLabel(std::string_view name);

// The op's precision for people ("BF16", "FP8"); "–" for the host's wait, which runs no kernel.
Localized layerOpPrecision(const LayerOp& op);

// An op's time as every view writes it: ms with three decimals (a layer's ops are 10 µs to
// 10 ms), "–" for nothing.
std::string layerOpMs(double seconds);

// A layer's ops added up: the time one microbatch spends in them on one GPU, per pass.
struct LayerOpsTotal {
    double forward_s = 0, input_grad_s = 0, weight_grad_s = 0, cast_s = 0, recompute_s = 0;
    int forward_kernels = 0, backward_kernels = 0;
    double total_s() const { return forward_s + input_grad_s + weight_grad_s + cast_s + recompute_s; }
};
LayerOpsTotal sumLayerOps(const std::vector<LayerOp>& ops);

// The list as the JSON report writes it (lang: the "label" field's language).
nlohmann::json layerOpsToJson(const std::vector<LayerOp>& ops, const std::string& lang);

// The text report's section: one table per kind of layer the model has (dense, MoE); "" when the
// estimate was computed without explanations (no ops listed).
std::string layerOpsText(const ModelSpec& model, const TimeReport& time, const std::string& lang);

} // namespace parascope
