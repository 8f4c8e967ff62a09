#include "memory/other_memory.h"

namespace parascope {

namespace {

// The loss's logits buffers on the output stage, fused or eager cross-entropy.
Term logitsTerm(const OtherMemoryInputs& in)
{
    if (in.logits_bytes_per_element > 4)
        return Term{"other.logits",
                    in.logits_bytes,
                    "bytes",
                    num(in.logits_bytes_per_element) + "·s·b·V/t",
                    num(in.logits_bytes),
                    "eager F.cross_entropy(logits.float()) (torchtitan train.py): bf16 logits + fp32 copy + fp32 "
                    "log-softmax forward (2 + 4 + 4 B), log-softmax + its gradient + input gradient backward (4 + 4 + "
                    "4 B)"};
    return Term{"other.logits",
                in.logits_bytes,
                "bytes",
                "4·s·b·V/t",
                num(in.logits_bytes),
                "Megatron-LM theoretical_memory_usage.py: fp32 logits of the vocab-parallel cross-entropy"};
}

// ZeRO-3 / FSDP: the unsharded weights of the layers being gathered.
Term zero3GatherTerm(const OtherMemoryInputs& in)
{
    if (in.zero3_max_live)
        return Term{"other.zero3_gather",
                    in.zero3_gather_bytes,
                    "bytes",
                    "zero3_max_live_params · bytes per weight (fewer than whole layers)",
                    num(in.zero3_gather_bytes),
                    "DeepSpeed ZeRO-3 stage3_max_live_parameters: modules gathered one by one, at most that "
                    "many parameters live"};
    return Term{"other.zero3_gather",
                in.zero3_gather_bytes,
                "bytes",
                in.zero3_whole_stage ? "every layer of the stage unsharded (reshard_after_forward = false)"
                                     : "(1 + prefetch depth) layers of unsharded weights (the layer computed + "
                                       "those gathered ahead); a layer is this GPU's share: dense weights / TP, "
                                       "routed experts / (EP·ETP)",
                in.zero3_whole_stage ? num(in.zero3_gather_layers) + " layers → " + num(in.zero3_gather_bytes)
                                     : "(1 + " + num(in.zero3_prefetch) + ") layers → " + num(in.zero3_gather_bytes),
                "Rajbhandari et al. 2019 (ZeRO-3); Zhao et al. 2023 (PyTorch FSDP) §3.3: parameters gathered "
                "per layer, prefetched ahead (parallel.zero3_prefetch; FSDP's default is one layer)"};
}

Term fragmentationTerm(const OverheadConfig& c, double activations, double reserve)
{
    if (c.allocator == AllocatorKind::Expandable)
        return Term{"other.fragmentation",
                    reserve,
                    "bytes",
                    "streams · 2 MiB page (expandable_segments: a segment per stream, mapped page by page)",
                    num(kAllocatorStreams) + "·" + num(kExpandablePageBytes),
                    "PyTorch CUDA semantics, expandable_segments (CUDA virtual memory, 2 MiB granularity); "
                    "Guo et al. 2024 (GMLake, ASPLOS) measured virtual-memory stitching removing 15 % "
                    "fragmentation on average (up to 33 %) on eight LLMs, A100 80 GB"};
    return Term{"other.fragmentation",
                reserve,
                "bytes",
                "fragmentation · activations (caching allocator)",
                num(c.fragmentation) + "·" + num(activations),
                "Megatron-LM theoretical_memory_usage.py (×1.05 on activations); Guo et al. 2024 (GMLake) "
                "measured up to 33 % with recompute, offload and ZeRO-3 (overheads.allocator)"};
}

} // namespace

double fragmentationReserve(const OverheadConfig& c, double activations)
{
    if (c.allocator == AllocatorKind::Expandable)
        return activations > 0 ? kAllocatorStreams * kExpandablePageBytes : 0;
    return c.fragmentation * activations;
}

OtherMemory otherMemory(const OverheadConfig& c, const OtherMemoryInputs& in, Explain explain)
{
    OtherMemory o;
    // Each item: its value, and how to explain it (only called when explaining).
    const auto add = [&](double value, auto&& explained) {
        o.total += value;
        addTerm(o.terms, explain, explained);
    };
    add(c.cuda_context_bytes, [&] {
        return Term{"other.cuda_context",
                    c.cuda_context_bytes,
                    "bytes",
                    "configured (overheads.cuda_context_gib)",
                    num(c.cuda_context_bytes),
                    "typical PyTorch CUDA context; measure yours with parascope-probe"};
    });
    add(c.workspace_bytes, [&] {
        return Term{"other.workspace",
                    c.workspace_bytes,
                    "bytes",
                    "configured (overheads.workspace_gib)",
                    num(c.workspace_bytes),
                    "cuBLASLt 32 MiB workspace per stream on sm90 + Transformer Engine buffers"};
    });
    const double nccl = c.nccl_bytes_per_group * in.communicators;
    add(nccl, [&] {
        return Term{"other.nccl_buffers",
                    nccl,
                    "bytes",
                    "communicators · nccl_buffer",
                    num(in.communicators) + "·" + num(c.nccl_bytes_per_group),
                    "NCCL: NCCL_BUFFSIZE 4 MiB per channel and peer, up to 32 channels"};
    });
    if (in.logits_bytes > 0)
        add(in.logits_bytes, [&] { return logitsTerm(in); });
    if (in.zero3_gather_bytes > 0)
        add(in.zero3_gather_bytes, [&] { return zero3GatherTerm(in); });
    const double fragmentation = fragmentationReserve(c, in.activations);
    add(fragmentation, [&] { return fragmentationTerm(c, in.activations, fragmentation); });
    return o;
}

} // namespace parascope
