#pragma once
// ModelSpec: the shape of a dense or MoE decoder-only transformer, as the course describes it.

#include "util/enum_names.h"

#include <cstdint>
#include <optional>
#include <string>

namespace parascope {

enum class MlpKind { SwiGlu, Gelu }; // SwiGLU: gate, up, down (3 matrices); GELU: 2
enum class NormKind { RmsNorm, LayerNorm }; // RMSNorm: weight only; LayerNorm: weight + bias
enum class PositionKind {
    Rope,
    Learned,
    Alibi,
    None
}; // learned absolute positions add max_positions·h;
    // ALiBi (Press et al. 2022) and none (NoPE) add nothing
inline constexpr EnumName<MlpKind> kMlpKindNames[] = {{MlpKind::SwiGlu, "swiglu"}, {MlpKind::Gelu, "gelu"}};
constexpr std::span<const EnumName<MlpKind>> enumNames(MlpKind) { return kMlpKindNames; }
inline const char* toString(MlpKind v) { return nameOf(v); }
inline constexpr EnumName<NormKind> kNormKindNames[]
    = {{NormKind::RmsNorm, "rmsnorm"}, {NormKind::LayerNorm, "layernorm"}};
constexpr std::span<const EnumName<NormKind>> enumNames(NormKind) { return kNormKindNames; }
inline const char* toString(NormKind v) { return nameOf(v); }
inline constexpr EnumName<PositionKind> kPositionKindNames[] = {{PositionKind::Rope, "rope"},
                                                                {PositionKind::Learned, "learned"},
                                                                {PositionKind::Alibi, "alibi"},
                                                                {PositionKind::None, "none"}};
constexpr std::span<const EnumName<PositionKind>> enumNames(PositionKind) { return kPositionKindNames; }
inline const char* toString(PositionKind v) { return nameOf(v); }

struct MoeSpec {
    int experts = 0; // routed experts per MoE layer
    int top_k = 0; // routed experts each token visits
    std::int64_t ffn_hidden = 0; // FFN width of one routed expert
    int shared_experts = 0; // always-on experts (DeepSeek style)
    std::int64_t shared_ffn_hidden = 0; // FFN width of one shared expert (0 = ffn_hidden)
    int layer_freq = 1; // every layer_freq-th layer (after the dense ones) is MoE
    int first_dense_layers = 0; // leading layers that keep a dense MLP
    bool expert_bias = false; // a per-expert routing bias (DeepSeek-V3 §2.1.2 auxiliary-loss-free
        // balancing; Megatron --moe-router-enable-expert-bias): E more
    bool shared_expert_gate = false; // a sigmoid gate h → 1 on the shared experts' output
        // (Qwen2-MoE shared_expert_gate): h more
};

// Multi-head latent attention (DeepSeek-V2 §2.1, DeepSeek-V3 §2.1.1): queries and keys/values
// pass through low-rank latents; each head's query/key is a "nope" part plus a shared rotary part.
struct MlaSpec {
    std::int64_t q_lora_rank = 0; // query latent width (0: queries projected directly, V2-Lite)
    std::int64_t kv_lora_rank = 0; // key/value latent width
    std::int64_t qk_nope_head_dim = 0; // per-head query/key width without rotary embedding
    std::int64_t qk_rope_head_dim = 0; // rotary part (one key part shared by all heads)
    std::int64_t v_head_dim = 0; // per-head value width
};

// Sliding-window attention (Mistral 7B, Gemma 2/3, GPT-OSS): a query attends to the last `size`
// keys. With global_every = N > 0 every N-th layer (layers N−1, 2N−1, …) attends to all keys;
// with 0 every layer slides.
struct SlidingWindow {
    std::int64_t size = 0;
    int global_every = 0;
};

struct ModelSpec {
    std::string id; // preset id, or "custom"
    std::string name; // display name
    int layers = 0;
    std::int64_t hidden = 0;
    int heads = 0;
    int kv_heads = 0; // = heads for MHA, 1 for MQA, in between for GQA
    std::int64_t head_dim = 0; // defaults to hidden/heads
    std::int64_t ffn_hidden = 0; // dense MLP width
    std::int64_t vocab = 0;
    MlpKind mlp = MlpKind::SwiGlu;
    NormKind norm = NormKind::RmsNorm;
    bool bias = false; // biases on every linear layer (GPT-2/3 style)
    bool tied_embeddings = false;
    PositionKind position = PositionKind::Rope;
    std::int64_t max_positions = 0; // used by learned positions
    std::optional<MoeSpec> moe;
    // Variants (all off by default):
    bool qkv_bias = false; // bias on Q, K and V only (Qwen2); `bias` puts one on every linear
    bool qk_norm = false; // RMSNorm over each head's query and key (Qwen3, Gemma 3): 2·d_head
    bool attention_sinks = false; // one learned logit per head and layer (GPT-OSS)
    bool parallel_block = false; // attention and MLP read one norm's output side by side (GPT-J, PaLM)
    bool output_bias = false; // the output layer (lm_head) has a bias of vocab (Phi-1/1.5/2)
    bool post_norms = false; // a norm after attention and after the MLP as well as before
        // ("sandwich", Gemma 2/3): 4 norms per layer instead of 2
    std::optional<SlidingWindow> sliding_window;
    std::optional<MlaSpec> mla; // replaces Q/K/V projections; kv_heads = heads, head_dim unused
    int mtp_modules = 0; // multi-token prediction depth (DeepSeek-V3 §2.2), on the last stage

    bool isMoeLayer(int layer) const;
    int moeLayerCount() const;
    bool isSlidingLayer(int layer) const;
    int slidingLayerCount() const;
    // Widths per token of the attention's tensors (all heads): the query and key multiplied in QKᵀ,
    // the value and the attention output (input of the output projection).
    std::int64_t queryWidth() const
    {
        return mla ? heads * (mla->qk_nope_head_dim + mla->qk_rope_head_dim) : heads * head_dim;
    }
    std::int64_t kvWidth() const
    {
        return mla ? heads * (mla->qk_nope_head_dim + mla->qk_rope_head_dim) : kv_heads * head_dim;
    }
    std::int64_t valueWidth() const { return mla ? heads * mla->v_head_dim : kv_heads * head_dim; }
    std::int64_t attentionOutWidth() const { return mla ? heads * mla->v_head_dim : heads * head_dim; }
    // Fewer KV heads than query heads (GQA, MQA): what training.repeat_kv expands (MLA's keys and
    // values are per query head already).
    bool groupedKv() const { return !mla && kv_heads < heads; }
    // K and V as the attention kernel takes them: the KV heads, or every query head where the
    // model code repeats them first (training.repeat_kv; MLA's already are).
    std::int64_t kernelKeyWidth(bool repeat_kv) const { return repeat_kv ? queryWidth() : kvWidth(); }
    std::int64_t kernelValueWidth(bool repeat_kv) const { return repeat_kv ? attentionOutWidth() : valueWidth(); }
};

} // namespace parascope
