#pragma once
// Exact parameter counts of a ModelSpec, split the way parallelism splits them.

#include "types/term.h"
#include "types/model_spec.h"

#include <cstdint>
#include <vector>

namespace parascope {

// Parameters of one transformer layer, by how tensor/expert parallelism divides them.
struct LayerParams {
    std::int64_t attention = 0; // Q, K, V, O projections (+ biases, sinks): divided by TP
    std::int64_t attention_replicated = 0; // MLA's down projections and latent norms, q/k norms:
        // every TP rank holds them whole
    std::int64_t dense_mlp = 0; // dense MLP or shared experts: divided by TP
    std::int64_t routed_experts = 0; // all routed experts of the layer: divided by EP·ETP
    std::int64_t router = 0; // gating matrix h·E: replicated
    std::int64_t norms = 0; // the layer's two norms: replicated
    std::int64_t active_experts = 0; // routed-expert parameters one token touches (top_k)

    std::int64_t total() const
    {
        return attention + attention_replicated + dense_mlp + routed_experts + router + norms;
    }
    std::int64_t activePerToken() const
    {
        return attention + attention_replicated + dense_mlp + active_experts + router + norms;
    }
};

struct ParamCounts {
    LayerParams dense_layer; // a layer with a dense MLP
    LayerParams moe_layer; // a layer with an MoE block (zero when the model has none)
    int dense_layers = 0;
    int moe_layers = 0;
    std::int64_t word_embedding = 0; // V·h (input), divided by TP (vocab-parallel)
    std::int64_t position_embedding = 0; // max_positions·h for learned positions
    std::int64_t output_layer = 0; // V·h when untied, else 0
    std::int64_t mtp_module = 0; // one multi-token-prediction module, without the embedding
        // and output layer it shares with the model:
    std::int64_t mtp_projection = 0; //   its 2h → h projection (divided by TP)
    std::int64_t mtp_norms = 0; //   its three norms (replicated), + one layer
    int mtp_modules = 0;
    std::int64_t final_norm = 0;
    std::int64_t total = 0;
    std::int64_t active = 0; // per token: routed experts counted top_k of E
    std::vector<Term> terms; // explanation
};

// One linear map of the attention block: in → out features, divided by TP or held whole.
struct Projection {
    const char* name;
    std::int64_t in = 0, out = 0;
    bool tp_split = true;
    bool bias = false;
    std::int64_t params() const { return in * out + (bias ? out : 0); }
};
// The attention block's projections, in order: Q, K, V, O for MHA/GQA/MQA; for MLA the query
// down/up (or a direct query), the joint key/value down projection (+ the shared rotary key), the
// key/value up projection and O (DeepSeek-V2 eq. 9–18).
std::vector<Projection> attentionProjections(const ModelSpec& m);
std::int64_t attentionParams(const ModelSpec& m); // divided by TP
std::int64_t attentionReplicatedParams(const ModelSpec& m); // held whole on every TP rank
std::int64_t mlpParams(const ModelSpec& m, std::int64_t ffn_hidden); // one MLP / expert
std::int64_t normParams(const ModelSpec& m); // one norm

ParamCounts countParameters(const ModelSpec& m, Explain explain = Explain::Full);

} // namespace parascope
