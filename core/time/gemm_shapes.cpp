#include "time/gemm_shapes.h"

#include "model/parameter_count.h"

#include <algorithm>
#include <string_view>

namespace parascope {

std::vector<GemmShape> scenarioGemmShapes(const Scenario& sc)
{
    const ModelSpec& m = sc.model;
    const ParallelConfig& p = sc.parallel;
    const std::int64_t tp = std::max(1, p.tp);
    // Tokens of one microbatch on one GPU (context parallelism splits the sequence).
    const std::int64_t M = std::max<std::int64_t>(1, sc.training.seq_len / std::max(1, p.cp) * sc.training.micro_batch);
    const std::int64_t h = m.hidden;
    const std::int64_t up = m.mlp == MlpKind::SwiGlu ? 2 : 1; // gate and up fused
    std::vector<GemmShape> out;
    const auto add = [&](std::string name, std::int64_t rows, std::int64_t n, std::int64_t k) {
        GemmShape g{std::move(name), std::max<std::int64_t>(1, rows), std::max<std::int64_t>(1, n),
                    std::max<std::int64_t>(1, k)};
        for (const GemmShape& e : out)
            if (e.m == g.m && e.n == g.n && e.k == g.k)
                return;
        out.push_back(std::move(g));
    };
    // Attention: Q, K and V fused into one column-parallel GEMM (MLA, or training.fused_projections
    // off: each projection alone); the output projection is row-parallel.
    const bool fused = sc.training.fused_projections;
    std::int64_t qkv = 0;
    for (const Projection& pr : attentionProjections(m)) {
        const std::string_view name = pr.name;
        if (name == "o")
            add("attention out", M, pr.out, pr.in / (pr.tp_split ? tp : 1));
        else if (m.mla || !fused)
            add(std::string("attention ") + pr.name, M, pr.out / (pr.tp_split ? tp : 1), pr.in);
        else
            qkv += pr.out;
    }
    if (qkv > 0)
        add("qkv", M, qkv / tp, h);
    const bool dense_layers = !m.moe || m.moeLayerCount() < m.layers;
    if (dense_layers) {
        add("mlp up", M, (fused ? up : 1) * m.ffn_hidden / tp, h); // unfused SwiGLU: w1 and w3 alike
        add("mlp down", M, h, m.ffn_hidden / tp);
    }
    if (m.moe && m.moeLayerCount() > 0) {
        const MoeSpec& e = *m.moe;
        const std::int64_t etp = std::max(1, p.expertTp());
        const std::int64_t rows = std::max<std::int64_t>(1, std::int64_t(p.ep) * M * e.top_k / std::max(1, e.experts));
        add("expert up", rows, up * e.ffn_hidden / etp, h);
        add("expert down", rows, h, e.ffn_hidden / etp);
        if (e.shared_experts > 0) {
            const std::int64_t f = e.shared_experts * (e.shared_ffn_hidden > 0 ? e.shared_ffn_hidden : e.ffn_hidden);
            add("shared experts up", M, up * f / tp, h);
            add("shared experts down", M, h, f / tp);
        }
    }
    return out;
}

} // namespace parascope
