#include "time/op_fixed_costs.h"

namespace parascope {

// Each FP8 quantization is a kernel of its own (one before each GEMM's forward, one before its
// backward), and pays the fixed cost every kernel of the layer pays: gpu.kernel_overhead_s is a
// bf16 layer pass's launches and tails, so one kernel's share is kernel_overhead_s over the
// pass's kernels without the casts. Nothing fitted: the casts' bytes are fp8_casts.cpp's, the
// per-kernel cost the preset's; at small hidden sizes this fixed part is most of a cast.
void castKernelCosts(std::vector<LayerOp>& ops, const GpuSpec& gpu, const LayerOpRates& r)
{
    if (!r.fp8 || gpu.kernel_overhead_s <= 0)
        return;
    int kernels = 0, casts = 0;
    for (const LayerOp& op : ops) {
        const bool cast = op.precision == Precision::Fp8 && op.cast_forward_s > 0;
        kernels += op.forward_kernels - (cast ? 1 : 0);
        casts += cast ? 1 : 0;
    }
    if (kernels <= 0 || casts == 0)
        return;
    const double per_kernel = gpu.kernel_overhead_s / kernels;
    for (LayerOp& op : ops)
        if (op.precision == Precision::Fp8 && op.cast_forward_s > 0) {
            op.cast_forward_s += per_kernel;
            op.cast_backward_s += per_kernel;
        }
}

namespace {

// TP communication overlap runs a GEMM beside its collective in chunks, and each chunk pays the
// GEMM size curve's fixed cost (gemmSeconds: t(F) = (F + g_half)/rate): n chunks one after
// another take n·t(F/n) − t(F) = (n − 1)·g_half/rate longer.
//   async_tp     PyTorch's micro-pipelined TP (fused_all_gather_matmul,
//                fused_matmul_reduce_scatter) splits every such GEMM by the TP size and runs the
//                chunks one after another on the compute stream (the copies go to copy engines):
//                TP chunks, forward and input gradient. Without SP only the output projections
//                sit beside a collective (the all-reduce).
//   userbuffers  Transformer Engine splits too (ring exchange: TP chunks; pipeline: 4) but issues
//                the chunk GEMMs on up to three concurrent streams (initialize_ub:
//                _NUM_MAX_UB_STREAMS), so one chunk's tail overlaps the next one's start: not
//                charged (the H100 constants fitted on Megatron's --tp-comm-overlap runs agree:
//                charging it raised their MAPE from 5.0 % to 8.3 %).
// The dW GEMMs, the routed experts' grouped GEMMs and the router are not split. Nothing fitted:
// g_half is the GPU preset's, the chunk count the framework's.
int overlapChunks(const ParallelConfig& p, TpSlot slot)
{
    const bool out = slot == TpSlot::AttentionOut || slot == TpSlot::MlpOut;
    if (!p.asyncTp() || (!p.sequence_parallel && !out))
        return 1;
    return p.tp;
}

} // namespace

void overlapSplitCosts(std::vector<LayerOp>& ops, const Scenario& sc, const LayerOpRates& r)
{
    const ParallelConfig& p = sc.parallel;
    if (!p.tp_comm_overlap || p.tp <= 1)
        return;
    for (LayerOp& op : ops) {
        const bool grouped = op.name == "experts_up" || op.name == "experts_down" || op.name == "router";
        if (op.rate != OpRate::Gemm || grouped || op.slot == TpSlot::None)
            continue;
        const double rate = op.precision == Precision::Fp8 ? r.gemm_rate : r.bf16_gemm_rate;
        const auto extra = [&](int n) {
            return n * gemmSeconds(sc.cluster.gpu, r, op.flops / n, rate)
                - gemmSeconds(sc.cluster.gpu, r, op.flops, rate);
        };
        const int chunks = overlapChunks(p, op.slot);
        op.overlap_split_s = op.gemms * extra(chunks); // each of the op's GEMMs is split (t is affine in F)
        op.forward_s += op.overlap_split_s;
        op.input_grad_s += op.overlap_split_s;
    }
}

} // namespace parascope
