#pragma once
// ModelSpec: the shape of a dense or MoE decoder-only transformer, as the course describes it.

#include "util/enum_names.h"

#include <cstdint>
#include <optional>
#include <string>

namespace parascope {

enum class MlpKind { SwiGlu, Gelu };       // SwiGLU: gate, up, down (3 matrices); GELU: 2
enum class NormKind { RmsNorm, LayerNorm }; // RMSNorm: weight only; LayerNorm: weight + bias
enum class PositionKind { Rope, Learned };  // learned absolute positions add max_positions·h
inline constexpr EnumName<MlpKind> kMlpKindNames[] = {{MlpKind::SwiGlu, "swiglu"}, {MlpKind::Gelu, "gelu"}};
constexpr std::span<const EnumName<MlpKind>> enumNames(MlpKind) { return kMlpKindNames; }
inline const char* toString(MlpKind v) { return nameOf(v); }
inline constexpr EnumName<NormKind> kNormKindNames[] = {{NormKind::RmsNorm, "rmsnorm"}, {NormKind::LayerNorm, "layernorm"}};
constexpr std::span<const EnumName<NormKind>> enumNames(NormKind) { return kNormKindNames; }
inline const char* toString(NormKind v) { return nameOf(v); }
inline constexpr EnumName<PositionKind> kPositionKindNames[] = {{PositionKind::Rope, "rope"}, {PositionKind::Learned, "learned"}};
constexpr std::span<const EnumName<PositionKind>> enumNames(PositionKind) { return kPositionKindNames; }
inline const char* toString(PositionKind v) { return nameOf(v); }

struct MoeSpec {
    int experts = 0;             // routed experts per MoE layer
    int top_k = 0;               // routed experts each token visits
    std::int64_t ffn_hidden = 0; // FFN width of one routed expert
    int shared_experts = 0;      // always-on experts (DeepSeek style)
    std::int64_t shared_ffn_hidden = 0; // FFN width of one shared expert (0 = ffn_hidden)
    int layer_freq = 1;          // every layer_freq-th layer (after the dense ones) is MoE
    int first_dense_layers = 0;  // leading layers that keep a dense MLP
};

struct ModelSpec {
    std::string id;   // preset id, or "custom"
    std::string name; // display name
    int layers = 0;
    std::int64_t hidden = 0;
    int heads = 0;
    int kv_heads = 0;            // = heads for MHA, 1 for MQA, in between for GQA
    std::int64_t head_dim = 0;   // defaults to hidden/heads
    std::int64_t ffn_hidden = 0; // dense MLP width
    std::int64_t vocab = 0;
    MlpKind mlp = MlpKind::SwiGlu;
    NormKind norm = NormKind::RmsNorm;
    bool bias = false;           // biases on every linear layer (GPT-2/3 style)
    bool tied_embeddings = false;
    PositionKind position = PositionKind::Rope;
    std::int64_t max_positions = 0; // used by learned positions
    std::optional<MoeSpec> moe;

    bool isMoeLayer(int layer) const;
    int moeLayerCount() const;
    std::int64_t queryWidth() const { return heads * head_dim; }  // a·d_head
    std::int64_t kvWidth() const { return kv_heads * head_dim; }  // g·d_head
};


} // namespace parascope
