#pragma once
// Shared by the diagnostics suites (tst_diagnostics, tst_diagnostics_text): the scenario files
// under tests/data that trigger each diagnostic code and variant, with the severity and stage
// they must raise. The comments in cases() say why each file triggers its code, with the
// arithmetic.

#include "estimate/evaluate.h"
#include "types/scenario.h"

#include <string>
#include <vector>

namespace parascope::test {

struct Case {
    const char* file; // under tests/data
    const char* code; // the diagnostic it must raise
    const char* severity; // "error" | "warning"
    int stage; // the pipeline stage the diagnostic names (−1: none)
    // Other error-severity codes the file raises on purpose (the file is otherwise valid and fits).
    std::vector<std::string> other_errors;
    // A change made after reading, for what only an edited scenario can hold (the reader refuses
    // it in a file): nullptr for none.
    void (*edit)(Scenario&) = nullptr;
};

// One row per (code, variant). Why each file triggers its code:
inline const std::vector<Case>& cases()
{
    static const std::vector<Case> list = {
        // Cluster of 12 nodes × 8 = 96 GPUs, but tp·pp·dp·cp = 8·4·4·1 = 128 ≠ 96: an error because
        // the cluster says how many nodes it has (96 % (8·4·1) = 0, so the suggestion is dp = 3).
        {"diag-gpu_count_mismatch.parascope.json", "gpu_count_mismatch", "error", -1, {}},
        // Preset cluster (nodes not fixed): tp·dp = 4·3 = 12 GPUs > 8 per node and 12 % 8 = 4, so the
        // last node is half empty: a warning.
        {"diag-gpu_count_mismatch-partial-node.parascope.json", "gpu_count_mismatch", "warning", -1, {}},
        // Llama-2 13B has 40 heads; 40 % 16 = 8 ≠ 0. Its 40 KV heads (MHA) fail the same way, so
        // kv_heads_not_divisible_by_tp comes too (any TP dividing the KV heads divides the heads).
        {"diag-heads_not_divisible_by_tp.parascope.json",
         "heads_not_divisible_by_tp",
         "error",
         -1,
         {"kv_heads_not_divisible_by_tp"}},
        // Llama-2 70B: 64 heads % 16 = 0, but its 8 KV heads (GQA groups) % 16 = 8 ≠ 0.
        {"diag-kv_heads_not_divisible_by_tp.parascope.json", "kv_heads_not_divisible_by_tp", "error", -1, {}},
        // Llama-2 7B has 32 layers; PP = 64 > 32, so stages 32 … 63 hold no layer.
        {"diag-pp_exceeds_layers.parascope.json", "pp_exceeds_layers", "error", -1, {}},
        // Llama-3.1 405B has 126 layers; 126 % 16 = 14: 14 stages get 8 layers and 2 get 7
        // (14·8 + 2·7 = 126). Uneven but runnable: a warning.
        {"diag-layers_not_divisible_by_pp.parascope.json", "layers_not_divisible_by_pp", "warning", -1, {}},
        // parallel.stage_layers [19, 20, 20, 19] add up to 78, Llama-2 70B has 80: an error. A file
        // saying so is refused by the reader (tests/data/bad-stage_layers-sum); the app can still
        // hold it after a model change, so the file has a valid [20, 20, 20, 20] and the test edits it.
        {"diag-layers_not_divisible_by_pp-stage-layers.parascope.json",
         "layers_not_divisible_by_pp",
         "error",
         -1,
         {},
         [](Scenario& sc) {
             sc.parallel.stage_layers = {19, 20, 20, 19};
         }},
        // Interleaved with PP·VPP = 4·3 = 12 and 32 layers: 32 % 12 = 8 ≠ 0: chunks of 3 and 2
        // layers, possible with an explicit layout (Megatron-Core), so a warning. (Microbatches
        // 256/(1·4) = 64, a multiple of PP = 4, so only the VPP rule fires.)
        {"diag-vpp_not_divisible.parascope.json", "vpp_not_divisible", "warning", -1, {}},
        // Interleaved with VPP = 1 is 1F1B (said, as info); a chunk without a layer is an error
        // (PP·VPP = 4·16 = 64 virtual stages for 32 layers).
        {"diag-vpp_not_divisible.parascope.json",
         "vpp_not_divisible",
         "info",
         -1,
         {},
         [](Scenario& sc) { sc.parallel.vpp = 1; }},
        {"diag-vpp_not_divisible.parascope.json",
         "vpp_not_divisible",
         "error",
         -1,
         {},
         [](Scenario& sc) { sc.parallel.vpp = 16; }},
        // Parameters offloaded to the CPU with ZeRO-2: every GPU keeps a full copy, so nothing
        // could move; FSDP's CPUOffload(offload_params) needs sharded parameters.
        {"diag-offload_needs_zero3.parascope.json", "offload_needs_zero3", "error", -1, {}},
        // A custom cluster without `host`: offload has no memory or PCIe bandwidth to use.
        {"diag-offload_needs_host.parascope.json", "offload_needs_host", "error", -1, {}},
        // Llama 3.1 405B (Ψ = 405.85e9) on 8 GPUs, ZeRO-3 with everything offloaded: each GPU's
        // shard needs 2 + 2 + 12 + 4 = 20 B per parameter on the host, 20·Ψ/8 = 1.01 TB, × 8 GPUs
        // = 8.1 TB per node > the DGX H100's 2 TiB.
        {"diag-host_out_of_memory.parascope.json", "host_out_of_memory", "error", -1, {}},
        // HSDP shard groups of 8 do not divide DP·CP = 12.
        {"diag-shard_size_not_divisible.parascope.json", "shard_size_not_divisible", "error", -1, {}},
        // Llama 3.1 8B: 32 heads, 8 KV heads; Ulysses CP 4 with TP 4 splits heads 16 ways: 8 % 16 ≠ 0.
        {"diag-cp_a2a_heads_not_divisible.parascope.json", "cp_a2a_heads_not_divisible", "error", -1, {}},
        // VPP = 2 with the plain 1F1B schedule: VPP only applies to interleaved, it is ignored: a warning.
        {"diag-vpp_not_divisible-ignored.parascope.json", "vpp_not_divisible", "warning", -1, {}},
        // ZB-V puts two chunks on every rank: 40 layers % (2·PP = 16) = 8 ≠ 0.
        {"diag-vpp_not_divisible-zb-v.parascope.json", "vpp_not_divisible", "error", -1, {}},
        // Global batch 1000, micro batch × DP = 1·16 = 16; 1000 % 16 = 8 ≠ 0 (992 or 1008 would do).
        {"diag-batch_not_divisible.parascope.json", "batch_not_divisible", "error", -1, {}},
        // m = 32 / (1·8) = 4 microbatches < PP = 8: the 1F1B pipeline never fills (a warning; the
        // bubble (8−1)/(4+8−1) = 64 % also raises large_bubble).
        {"diag-microbatches_lt_pp.parascope.json", "microbatches_lt_pp", "warning", -1, {}},
        // DualPipeV needs m ≥ 2·PP = 8; m = 24 / (1·4) = 6 (≥ PP = 4, so not the warning): an error.
        {"diag-microbatches_lt_pp-dualpipe-v.parascope.json", "microbatches_lt_pp", "error", -1, {}},
        // DualPipe sends half of the microbatches each way: m = 36 / (1·4) = 9 is odd (and ≥ 2·PP = 8).
        {"diag-microbatches_lt_pp-dualpipe.parascope.json", "microbatches_lt_pp", "error", -1, {}},
        // DualPipe pairs rank r with rank PP−1−r: PP = 3 is odd.
        {"diag-dualpipe_needs_even_pp.parascope.json", "dualpipe_needs_even_pp", "error", -1, {}},
        // Interleaved PP4 VPP2 (32 layers % 8 = 0, fine), m = 40 / (1·4) = 10 and 10 % 4 = 2 ≠ 0.
        {"diag-interleaved_needs_microbatch_multiple.parascope.json",
         "interleaved_needs_microbatch_multiple",
         "error",
         -1,
         {}},
        // PP = 8 with m = 64 / (1·8) = 8 microbatches: 1F1B idles (p−1)/(m+p−1) = 7/15 = 47 % of
        // compute + bubble; with the exposed communication in the step still ≈ 41 % > 25 %.
        {"diag-large_bubble.parascope.json", "large_bubble", "warning", -1, {}},
        // Qwen3-30B-A3B (hidden 2048, 128 experts of 768, top 8) on 16 H100, micro batch 1 of 4096
        // tokens: a MoE layer's forward is about 1 ms of GPU work against the host's 3.1 ms, so the
        // GPU waits for the host most of the step.
        {"diag-moe_host_bound.parascope.json", "moe_host_bound", "warning", -1, {}},
        // Llama-2 13B, DP = 64 without ZeRO: every GPU holds all of Ψ = 13.0e9 params × 16 B
        // (2 weights + 2 grads + 12 AdamW) = 208 GB = 194 GiB of model states > 80 GiB. One stage: 0.
        {"diag-out_of_memory.parascope.json", "out_of_memory", "error", 0, {}},
        // Llama-2 70B, TP8 PP4 DP2, ZeRO-0, stage_layers [2, 2, 2, 74]: one layer is 855.7e6 params,
        // 855.6e6/8 + 16384 (norms) = 106.97e6 per GPU; stage 3 holds 74 of them + the output layer
        // 32000·8192/8 = 32.8e6: Ψ = 7.95e9 × 16 B = 127 GB = 118 GiB > 80 GiB. Stages 0-2 hold 2 layers
        // (0.21-0.25e9 params with the embedding, 3.4-3.9 GB of states): only stage 3 overflows.
        {"diag-out_of_memory-last-stage.parascope.json", "out_of_memory", "error", 3, {}},
        // Llama-2 70B, TP8 PP8 DP8, micro batch 8: one layer's activations are
        // s·b·(10h/t + (2q + 4kv + 2q + 6f)/t) = 4096·8·(10240 + 26112) = 1.19e9 B; 1F1B keeps 8 − i
        // microbatches in flight on stage i, 10 layers each: stage 0 ≈ 8·10·1.19e9 = 95.6 GB = 89 GiB of
        // activations alone > 80 GiB; stage 1 (7/8 of that, + 5.9 GB states) 88 GiB; stage 2 76.5 GiB fits.
        // Full recompute keeps one layer input per layer and saves enough: "(fits)".
        {"diag-out_of_memory-activations.parascope.json", "out_of_memory", "error", 0, {}},
        // The last case on a GPU whose capacity is the predicted peak / 1.01: the peak is 1 % over,
        // inside the ±3 % band (memory_verdict.h): borderline on stage 0, neither fits nor out
        // of memory.
        {"diag-out_of_memory-activations.parascope.json",
         "memory_borderline",
         "warning",
         0,
         {},
         [](Scenario& sc) { sc.cluster.gpu.memory_bytes = evaluate(sc).memory.peak_bytes / 1.01; }},
        // TP = 16 on DGX H100 (8 GPUs per node): each TP group spans 2 nodes. GPT-3's 96 heads
        // % 16 = 0, so TP16 is otherwise legal.
        {"diag-tp_spans_nodes.parascope.json", "tp_spans_nodes", "warning", -1, {}},
        // Llama-2 7B on DP = 512 (64 nodes), one 1024-token sequence per GPU, overlap_grad_reduce off:
        // ZeRO-1 reduce-scatters the bf16 gradients and all-gathers the parameters, 2 B × 6.74e9 =
        // 13.5 GB each, hierarchical: NVLink 0.875·13.5e9/231e9 ≈ 0.051 s + network (13.5e9/8)/24e9
        // ≈ 0.070 s ⇒ 0.126 s per collective, 0.25 s exposed. Compute: 6·6.74e9·1024 FLOP / 271 TFLOP/s
        // ≈ 0.16 s. Exposed ≈ 0.25 / 0.41 ≈ 61 % > 20 % of the step.
        {"diag-exposed_comm_high.parascope.json", "exposed_comm_high", "warning", -1, {}},
        // Mixtral 8x7B has 8 experts; EP = 16: 8 % 16 ≠ 0.
        {"diag-ep_invalid.parascope.json", "ep_invalid", "error", -1, {}},
        // EP = 2 on Llama-2 7B, a dense model: there are no experts to spread.
        {"diag-ep_invalid-dense.parascope.json", "ep_invalid", "error", -1, {}},
        // Mixtral, EP = 8 (divides 8 experts), ETP = TP = 2: EP·ETP = 16 must divide the
        // tp·cp·dp = 2·1·2 = 4 GPUs of a stage; 4 % 16 ≠ 0.
        {"diag-ep_invalid-grid.parascope.json", "ep_invalid", "error", -1, {}},
        // Mixtral, EP = 1 with an explicit ETP = 8: EP·ETP = 8 must divide tp·cp·dp = 2·1·2 = 4.
        // (Before, the rule looked only at EP > 1, and the 8-way expert split made a GPU's share
        // of the expert FLOPs 1/8 instead of 1/TP = 1/2: MFU above 100 %.)
        {"diag-ep_invalid-etp.parascope.json", "ep_invalid", "error", -1, {}},
        // sequence_parallel with TP = 1: nothing to split over.
        {"diag-sp_requires_tp.parascope.json", "sp_requires_tp", "info", -1, {}},
        // fp8_activations in bf16: no FP8 copies to keep.
        {"diag-fp8_activations_need_fp8.parascope.json", "fp8_activations_need_fp8", "info", -1, {}},
        // Mixtral, dropless, with whole MoE layers as CUDA graphs: their token counts change every
        // step, so Megatron-Core refuses the graph; a capacity factor would pad them to one size.
        {"diag-cuda_graphs_need_static_shapes.parascope.json", "cuda_graphs_need_static_shapes", "error", -1, {}},
        // FP8 asked of an A100, whose tensor cores have no FP8 (datasheet: 0 FP8 TFLOP/s).
        {"diag-fp8_unsupported.parascope.json", "fp8_unsupported", "warning", -1, {}},
        // PowerSGD (a DDP all-reduce hook) asked of ZeRO-1's sharded reduce-scatter.
        {"diag-grad_compression_needs_ddp.parascope.json", "grad_compression_needs_ddp", "error", -1, {}},
        // Top-k gradients under DDP: the caveat that convergence is outside the model.
        {"diag-grad_compression_accuracy.parascope.json", "grad_compression_accuracy", "info", -1, {}},
        // The straggler on stage 4 of PP = 2 (stages 0 … 1): no GPU would be slowed.
        {"diag-straggler_stage_outside_pipeline.parascope.json", "straggler_stage_outside_pipeline", "error", -1, {}},
        // One GPU of stage 1 30 % slower: its rank's compute 1.3×, the step longer than without it.
        {"diag-straggler_slows_step.parascope.json", "straggler_slows_step", "warning", -1, {}},
        // One node's links at 25 % on a 2-node job: the DP and PP traffic across nodes at a quarter.
        {"diag-degraded_link.parascope.json", "degraded_link", "warning", -1, {}},
        // PipeDream-2BW is 1F1B without a flush; the schedule is interleaved.
        {"diag-async_pipeline_needs_1f1b.parascope.json", "async_pipeline_needs_1f1b", "error", -1, {}},
        // PipeDream with PP = 1: no pipeline to run without a flush.
        {"diag-async_pipeline_needs_1f1b-pp1.parascope.json", "async_pipeline_needs_1f1b", "error", -1, {}},
        // 2BW keeps two whole weight versions; ZeRO-3 has only shards.
        {"diag-async_pipeline_with_zero3.parascope.json", "async_pipeline_with_zero3", "error", -1, {}},
        // 2BW needs m ≥ PP: global batch 2 / (micro batch 1 · DP 1) = 2 < PP = 4.
        {"diag-async_2bw_too_few_microbatches.parascope.json", "async_2bw_too_few_microbatches", "error", -1, {}},
        // 2BW on PP = 2 with m = 16: runs, one update stale on every stage.
        {"diag-async_pipeline_staleness.parascope.json", "async_pipeline_staleness", "info", -1, {}},
        // DP's ring over 4 nodes, one per leaf switch, 4:1 uplinks: a node's traffic up each leaf,
        // B against 1·B/4, 4× slower (o/n).
        {"diag-spine_oversubscribed.parascope.json", "spine_oversubscribed", "warning", -1, {}},
        // CP = 3: load-balanced ring attention needs seq_len % 2·CP; 4096 % 6 = 4 ≠ 0.
        {"diag-cp_not_divisible.parascope.json", "cp_not_divisible", "error", -1, {}},
        // GPT-3 175B has 2048 learned positions; seq_len 4096 > 2048.
        {"diag-seq_exceeds_positions.parascope.json", "seq_exceeds_positions", "error", -1, {}},
        // ZeRO-2 (gradient sharding) with PP = 4 > 1.
        {"diag-zero_with_pp.parascope.json", "zero_with_pp", "warning", -1, {}},
        // EP communication overlap (combined 1F1B) asked for on plain 1F1B with PP 2: Megatron
        // runs it only on the interleaved schedule.
        {"diag-ep_overlap_unavailable.parascope.json", "ep_overlap_unavailable", "warning", -1, {}},
    };
    return list;
}

} // namespace parascope::test
