#pragma once
// Shared by the scenario reader's suites (tst_scenario_json, tst_scenario_json_errors,
// tst_scenario_json_limits): a small valid scenario that each case breaks in one place, a custom
// model and cluster with every field, the reader run on text, and its errors as text (and, from
// string_contains.h, whether a message contains a fragment).

#include "io/scenario_json.h"
#include "string_contains.h"

#include <QByteArray>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace parascope::test {

// A small valid scenario that each case breaks in one place.
inline nlohmann::json base()
{
    return nlohmann::json::parse(R"({
      "schema": "parascope.scenario/1",
      "name": "base",
      "model": "llama2-7b",
      "cluster": "dgx-a100-80g",
      "parallel": { "tp": 2, "pp": 2, "dp": 2, "schedule": "1f1b" },
      "training": { "seq_len": 4096, "micro_batch": 1, "global_batch": 64 }
    })");
}

// A custom model object with every field (the shape of a preset file).
inline nlohmann::json customModel()
{
    return nlohmann::json::parse(R"({
      "name": "Tiny MoE", "layers": 8, "hidden": 1024, "heads": 16, "kv_heads": 4, "ffn_hidden": 4096,
      "vocab": 32000, "mlp": "swiglu", "norm": "rmsnorm", "bias": false, "tied_embeddings": false,
      "position": "rope",
      "moe": { "experts": 8, "top_k": 2, "ffn_hidden": 2048, "shared_experts": 1, "shared_ffn_hidden": 2048,
               "layer_freq": 1, "first_dense_layers": 1 }
    })");
}

inline nlohmann::json customCluster()
{
    return nlohmann::json::parse(R"({
      "name": "Lab cluster", "gpus_per_node": 4, "nodes": 2,
      "gpu": { "name": "Lab GPU", "memory_gib": 48, "hbm_gbps": 960,
               "peak_tflops": { "bf16": 181, "fp8": 362, "fp32": 45 } },
      "intra_node": { "bandwidth_gbps": 32, "latency_us": 7.5, "efficiency": 0.8 },
      "inter_node": { "bandwidth_gbps": 12.5, "latency_us": 9.3 },
      "intra_node_link": "pcie"
    })");
}

inline std::string listErrors(const std::vector<InputError>& errors)
{
    std::string out;
    for (const InputError& e : errors)
        out += "\n  " + e.text();
    return out.empty() ? std::string("\n  (no errors)") : out;
}

// Parses and reads text as a scenario; every error lands in `errors`.
inline std::optional<Scenario> read(const std::string& text, std::vector<InputError>& errors)
{
    const auto j = parseJsonText(text, errors);
    if (!j)
        return std::nullopt;
    return readScenario(*j, errors);
}

inline QByteArray utf8(const std::string& s) { return QByteArray::fromStdString(s); }

} // namespace parascope::test
