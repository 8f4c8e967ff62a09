// Writing a scenario: parascope.scenario/1 with every setting, the inline GPU and links in file
// units (the reading side is scenario_json.cpp).

#include "io/scenario_json.h"

#include "io/model_json.h"
#include "io/scenario_sections.h"

namespace parascope {

namespace {

constexpr double kGiB = double(1ull << 30);

nlohmann::json linkToJson(const LinkSpec& l)
{
    return {{"bandwidth_gbps", fileUnits(l.bytes_per_s / 1e9)},
            {"latency_us", fileUnits(l.latency_s * 1e6)},
            {"efficiency", l.efficiency},
            {"half_size_mib", fileUnits(l.half_bytes / double(1 << 20))}};
}

nlohmann::json gpuToJson(const GpuSpec& g)
{
    return {{"name", g.name},
            {"memory_gib", fileUnits(g.memory_bytes / kGiB)},
            {"hbm_gbps", fileUnits(g.hbm_bytes_per_s / 1e9)},
            {"peak_tflops",
             {{"bf16", fileUnits(g.peak_bf16_flops / 1e12)},
              {"fp8", fileUnits(g.peak_fp8_flops / 1e12)},
              {"fp32", fileUnits(g.peak_fp32_flops / 1e12)}}},
            {"gemm_efficiency", g.gemm_efficiency},
            {"hbm_efficiency", g.hbm_efficiency},
            {"attention_efficiency", g.attention_efficiency},
            {"attention_efficiency_fa2", g.attention_efficiency_fa2},
            {"attention_half_seq", fileUnits(g.attention_half_seq)},
            {"attention_half_seq_fa2", fileUnits(g.attention_half_seq_fa2)},
            {"attention_half_head_dim", fileUnits(g.attention_half_head_dim)},
            {"gemm_half_gflop", fileUnits(g.gemm_half_flops / 1e9)},
            {"gemm_half_gflop_fp8", fileUnits(g.gemm_half_flops_fp8 / 1e9)},
            {"fp8_block_gemm_ratio", g.fp8_block_gemm_ratio},
            {"kernel_overhead_us", fileUnits(g.kernel_overhead_s * 1e6)},
            {"moe_layer_host_us", fileUnits(g.moe_layer_host_s * 1e6)},
            {"sustained_clock", g.sustained_clock},
            {"sm_count", g.sm_count}};
}

// An inline cluster (one that is not a preset), its GPU by preset id when it is one.
nlohmann::json clusterToJson(const ClusterSpec& cluster)
{
    nlohmann::json c = {{"name", cluster.name},
                        {"gpus_per_node", cluster.gpus_per_node},
                        {"intra_node", linkToJson(cluster.intra_node)},
                        {"inter_node", linkToJson(cluster.inter_node)}};
    c["gpu"] = findPreset("gpus", cluster.gpu.id) ? nlohmann::json(cluster.gpu.id) : gpuToJson(cluster.gpu);
    if (cluster.nodes > 0)
        c["nodes"] = cluster.nodes;
    if (cluster.intra_is_pcie)
        c["intra_node_link"] = "pcie";
    if (cluster.host.known())
        c["host"] = {{"memory_gib", cluster.host.memory_bytes / double(1ULL << 30)},
                     {"memory_gbps", cluster.host.memory_bytes_per_s / 1e9},
                     {"pcie_gbps", cluster.host.pcie_bytes_per_s / 1e9},
                     {"memory_efficiency", cluster.host.memory_efficiency},
                     {"pcie_efficiency", cluster.host.pcie_efficiency}};
    if (cluster.nvls.known())
        c["nvls"] = {{"busbw_gbps", cluster.nvls.busbw_bytes_per_s / 1e9},
                     {"min_ranks", cluster.nvls.min_ranks},
                     {"latency_us", fileUnits(cluster.nvls.latency_s * 1e6)},
                     {"source", cluster.nvls.source}};
    if (cluster.storage.write_bytes_per_s > 0)
        c["storage"] = {{"write_gbps", cluster.storage.write_bytes_per_s / 1e9}, {"source", cluster.storage.source}};
    return c;
}

// The "parallel" section: the degrees and schedule always, the rest only when not the default.
nlohmann::json parallelToJson(const ParallelConfig& p)
{
    nlohmann::json j = {{"tp", p.tp},
                        {"pp", p.pp},
                        {"dp", p.dp},
                        {"cp", p.cp},
                        {"ep", p.ep},
                        {"vpp", p.vpp},
                        {"sequence_parallel", p.sequence_parallel},
                        {"zero", p.zero},
                        {"schedule", toString(p.schedule)},
                        {"tp_comm_overlap", p.tp_comm_overlap},
                        {"overlap_grad_reduce", p.overlap_grad_reduce}};
    if (p.etp > 0)
        j["etp"] = p.etp;
    if (!p.reshard_after_forward)
        j["reshard_after_forward"] = false;
    if (p.async_pipeline != AsyncPipeline::Flush)
        j["async_pipeline"] = toString(p.async_pipeline);
    if (p.zero3_prefetch != 1)
        j["zero3_prefetch"] = p.zero3_prefetch;
    if (p.cp_comm != CpComm::P2p)
        j["cp_comm"] = toString(p.cp_comm);
    if (p.tp_overlap != TpOverlap::Userbuffers)
        j["tp_overlap"] = toString(p.tp_overlap);
    if (p.activation_layout != ActivationLayout::Sbh)
        j["activation_layout"] = toString(p.activation_layout);
    if (p.zero3_sharding != Zero3Sharding::Flat)
        j["zero3_sharding"] = toString(p.zero3_sharding);
    if (p.moe_dispatcher != MoeDispatcher::AllToAll)
        j["moe_dispatcher"] = toString(p.moe_dispatcher);
    if (p.offload != Offload::None)
        j["offload"] = toString(p.offload);
    if (p.shard_size > 0)
        j["shard_size"] = p.shard_size;
    if (p.ep_comm_overlap)
        j["ep_comm_overlap"] = true;
    if (p.deepep_sms != ParallelConfig{}.deepep_sms)
        j["deepep_sms"] = p.deepep_sms;
    if (!p.pp_comm_overlap)
        j["pp_comm_overlap"] = false;
    if (p.grad_bucket_mparams > 0)
        j["grad_bucket_mparams"] = p.grad_bucket_mparams;
    if (p.zero3_max_live_params > 0)
        j["zero3_max_live_params"] = p.zero3_max_live_params;
    if (p.account_for_embedding_in_pipeline_split)
        j["account_for_embedding_in_pipeline_split"] = true;
    if (p.account_for_loss_in_pipeline_split)
        j["account_for_loss_in_pipeline_split"] = true;
    if (!p.stage_layers.empty())
        j["stage_layers"] = p.stage_layers;
    return j;
}

// The "training" section: the basics always, the rest only when not the default.
nlohmann::json trainingToJson(const TrainingConfig& t)
{
    nlohmann::json j = {{"seq_len", t.seq_len},
                        {"micro_batch", t.micro_batch},
                        {"global_batch", t.global_batch},
                        {"precision", toString(t.precision)},
                        {"grad_dtype", toString(t.grad_dtype)},
                        {"optimizer", toString(t.optimizer)},
                        {"recompute", toString(t.recompute)},
                        {"flash_attention", t.flash_attention}};
    if (t.precision == Precision::Fp8 || t.fp8_recipe != Fp8Recipe::Delayed)
        j["fp8_recipe"] = toString(t.fp8_recipe);
    if (t.attention_kernel != AttentionKernel::Cudnn)
        j["attention_kernel"] = toString(t.attention_kernel);
    if (t.repeat_kv)
        j["repeat_kv"] = true;
    if (!t.fused_projections)
        j["fused_projections"] = false;
    if (t.grad_comm != GradComm::Same)
        j["grad_comm"] = toString(t.grad_comm);
    if (t.powersgd_rank != TrainingConfig{}.powersgd_rank)
        j["powersgd_rank"] = t.powersgd_rank;
    if (t.topk_permille != TrainingConfig{}.topk_permille)
        j["topk_permille"] = t.topk_permille;
    if (t.cross_entropy != CrossEntropy::Fused)
        j["cross_entropy"] = toString(t.cross_entropy);
    if (t.cuda_graphs != CudaGraphs::None)
        j["cuda_graphs"] = toString(t.cuda_graphs);
    if (t.recompute == Recompute::Selective && t.recompute_modules != unsigned(RecomputeModule::CoreAttn)) {
        j["recompute_modules"] = recomputeModuleNames(t.recompute_modules);
    }
    if (t.fp8_comm)
        j["fp8_comm"] = true;
    if (t.fp8_activations)
        j["fp8_activations"] = true;
    if (t.moe_capacity_factor > 0)
        j["moe_capacity_factor"] = fileUnits(t.moe_capacity_factor);
    if (t.moe_load_imbalance != 1)
        j["moe_load_imbalance"] = fileUnits(t.moe_load_imbalance);
    return j;
}

} // namespace

nlohmann::json scenarioToJson(const Scenario& sc)
{
    nlohmann::json j;
    j["schema"] = kScenarioSchema;
    j["name"] = sc.name;
    const bool model_preset = findPreset("models", sc.model.id) != nullptr;
    j["model"] = model_preset ? nlohmann::json(sc.model.id) : modelToJson(sc.model);
    if (findPreset("clusters", sc.cluster.id))
        j["cluster"] = sc.cluster.id;
    else
        j["cluster"] = clusterToJson(sc.cluster);
    j["parallel"] = parallelToJson(sc.parallel);
    j["training"] = trainingToJson(sc.training);
    j["overheads"] = overheadsToJson(sc.overheads);
    if (!(sc.stability == StabilityConfig{}))
        j["stability"] = stabilityToJson(sc.stability);
    if (!(sc.faults == FaultConfig{}))
        j["faults"] = faultsToJson(sc.faults);
    if (!sc.cluster.fabric.isDefault())
        j["network"] = fabricToJson(sc.cluster.fabric);
    return j;
}

} // namespace parascope
