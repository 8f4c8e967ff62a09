#include "comm/grad_compression.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace parascope {

double powerSgdRatio(const ModelSpec& m, int tp, int rank)
{
    const double t = std::max(1, tp), h = double(m.hidden), f = double(m.ffn_hidden), r = std::max(1, rank);
    const double qkv = double(m.queryWidth() + 2 * m.kvWidth()), out = double(m.attentionOutWidth());
    const double up = (m.mlp == MlpKind::SwiGlu ? 2 : 1) * f;
    // (rows, columns) of each matrix on one GPU: column-parallel splits the output, row-parallel
    // the input (Megatron TP).
    const std::vector<std::pair<double, double>> mats = {{h, qkv / t}, {out / t, h}, {h, up / t}, {f / t, h}};
    double sent = 0, whole = 0;
    for (const auto& [n, k] : mats) {
        if (n <= 0 || k <= 0)
            continue;
        sent += r * (n + k);
        whole += n * k;
    }
    return whole > 0 ? std::min(1.0, sent / whole) : 1.0;
}

GradWire gradWire(const ModelSpec& m, const ParallelConfig& p, const TrainingConfig& t)
{
    TrainingConfig native = t;
    native.grad_comm = GradComm::Same;
    const double bytes = native.gradWireBytes();
    GradWire w;
    w.bytes_per_element = t.gradWireBytes();
    if (t.grad_comm == GradComm::PowerSgd) {
        w.bytes_per_element = bytes * powerSgdRatio(m, p.tp, t.powersgd_rank);
        w.calls_per_bucket = 2;
        // Add the error, P = M·Q, orthogonalise, Q = Mᵀ·P, P·Qᵀ, the new error: 9 passes over M
        // (read M and the error, write M; read M twice; write P·Qᵀ; read two, write the error).
        w.passes = 9;
        w.source = "PowerSGD (Vogels et al., NeurIPS 2019, Alg. 1 with error feedback; PyTorch powerSGD_hook): P and "
                   "Q all-reduced, r·(n + m) of n·m elements per matrix";
    } else if (t.grad_comm == GradComm::TopK) {
        w.bytes_per_element = t.topkDensity() * (bytes + 4);
        w.gathered = true;
        // Add the residual (read two, write one), find the threshold and gather the k largest
        // (two reads), keep the rest as the residual (one write), zero and scatter-add the
        // gathered elements into a dense gradient (two writes): 8 passes.
        w.passes = 8;
        w.source = "top-k sparsification (Aji & Heafield 2017; Deep Gradient Compression, Lin et al. ICLR 2018): k "
                   "values and 4-byte indices per rank, all-gathered; the rest kept as a residual";
    }
    return w;
}

} // namespace parascope
