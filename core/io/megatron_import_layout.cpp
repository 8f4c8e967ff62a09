// The parallel and training sections of a Megatron-LM import, and its summary.

#include "io/megatron_reader.h"

#include <algorithm>
#include <map>

namespace parascope::megatron {

namespace {

long long worldSize(FlagReader& f, const MegatronImportOptions& options, long long model_parallel)
{
    if (options.gpus > 0)
        return options.gpus;
    const Launch& l = f.launch();
    if (l.world > 0) {
        f.note(std::to_string(l.world) + " GPUs from " + l.world_from);
        return l.world;
    }
    if (f.given("nproc-per-node") && f.given("nnodes")) { // an argument list with torchrun's options
        const auto per = f.integer("nproc-per-node", 1, 1 << 20), nodes = f.integer("nnodes", 1, 1 << 20);
        if (per && nodes)
            return *per * *nodes;
    }
    f.error("gpus",
            l.world_why.empty()
                ? "the number of GPUs is not in the arguments (torchrun --nnodes and --nproc-per-node): give "
                  "--gpus N"
                : l.world_why + ": give --gpus N");
    return model_parallel;
}

long long virtualStages(FlagReader& f, long long layers, long long pp)
{
    if (f.given("num-virtual-stages-per-pipeline-rank"))
        return f.integer("num-virtual-stages-per-pipeline-rank", 1, 1 << 20).value_or(1);
    if (!f.given("num-layers-per-virtual-pipeline-stage"))
        return 1;
    const long long per = f.integer("num-layers-per-virtual-pipeline-stage").value_or(1);
    const long long slots
        = layers + f.has("account-for-embedding-in-pipeline-split") + f.has("account-for-loss-in-pipeline-split");
    if (slots % (pp * per) != 0) {
        f.error("num-layers-per-virtual-pipeline-stage",
                std::to_string(slots) + " layers do not split into PP " + std::to_string(pp) + " × chunks of "
                    + std::to_string(per));
        return 1;
    }
    return slots / (pp * per);
}

void readUnevenStages(FlagReader& f, nlohmann::json& parallel, long long layers, long long pp)
{
    if (!f.given("decoder-first-pipeline-num-layers") && !f.given("decoder-last-pipeline-num-layers"))
        return;
    const long long first = f.given("decoder-first-pipeline-num-layers")
        ? f.integer("decoder-first-pipeline-num-layers", 0).value_or(0)
        : -1;
    const long long last = f.given("decoder-last-pipeline-num-layers")
        ? f.integer("decoder-last-pipeline-num-layers", 0).value_or(0)
        : -1;
    const long long inner = pp - (first >= 0) - (last >= 0);
    const long long rest = layers - std::max(0LL, first) - std::max(0LL, last);
    if (pp < 2 || inner <= 0 || rest < 0 || rest % inner != 0) {
        f.error(first >= 0 ? "decoder-first-pipeline-num-layers" : "decoder-last-pipeline-num-layers",
                "the other stages' " + std::to_string(rest) + " layers do not split evenly over "
                    + std::to_string(inner) + " stages");
        return;
    }
    std::vector<long long> stages(std::size_t(pp), rest / inner);
    if (first >= 0)
        stages.front() = first;
    if (last >= 0)
        stages.back() = last;
    parallel["stage_layers"] = stages;
}

// Megatron-FSDP's --data-parallel-sharding-strategy as a ZeRO stage (optim_grads_params, its
// default, shards all three: ZeRO-3).
int fsdpShards(FlagReader& f)
{
    const std::string s = f.value("data-parallel-sharding-strategy").value_or("optim_grads_params");
    const int stage = s == "no_shard" ? 0
        : s == "optim"                ? 1
        : s == "optim_grads"          ? 2
        : s == "optim_grads_params"   ? 3
                                      : -1;
    if (stage < 0)
        f.error("data-parallel-sharding-strategy",
                "must be no_shard, optim, optim_grads or optim_grads_params, got " + quoteInput(s));
    return std::max(stage, 0);
}

} // namespace

nlohmann::json readParallel(FlagReader& f, const MegatronImportOptions& options, long long layers)
{
    nlohmann::json parallel;
    const long long tp = f.integerOr("tensor-model-parallel-size", 1, 1, 1 << 20);
    const long long pp = f.integerOr("pipeline-model-parallel-size", 1, 1, 1 << 20);
    const long long cp = f.integerOr("context-parallel-size", 1, 1, 1 << 20);
    const long long world = worldSize(f, options, tp * pp * cp);
    if (world % (tp * pp * cp) != 0)
        f.error("gpus",
                std::to_string(world) + " GPUs"
                    + (options.gpus <= 0 && f.launch().world > 0 ? " (" + f.launch().world_from + ")" : "")
                    + " are not a multiple of TP·PP·CP = " + std::to_string(tp * pp * cp) + ": give --gpus N");
    parallel["tp"] = tp;
    parallel["pp"] = pp;
    parallel["cp"] = cp;
    parallel["dp"] = std::max(1LL, world / (tp * pp * cp));
    parallel["ep"] = f.integerOr("expert-model-parallel-size", 1, 1, 1 << 20);
    if (f.given("expert-tensor-parallel-size"))
        parallel["etp"] = f.integer("expert-tensor-parallel-size", 1, 1 << 20).value_or(1);
    parallel["sequence_parallel"] = f.has("sequence-parallel") && tp > 1;
    const bool fsdp = f.has("use-torch-fsdp2") || f.has("use-megatron-fsdp") || f.has("use-custom-fsdp");
    const bool distributed_optimizer = f.has("use-distributed-optimizer"); // FSDP shards the optimizer anyway
    parallel["zero"] = fsdp ? fsdpShards(f) : distributed_optimizer ? 1 : 0;
    parallel["overlap_grad_reduce"] = f.has("overlap-grad-reduce");
    f.has("overlap-param-gather"); // the distributed optimizer's gather is costed overlapped
    if (f.given("ddp-bucket-size"))
        parallel["grad_bucket_mparams"] = double(f.integer("ddp-bucket-size").value_or(40000000)) / 1e6;
    parallel["tp_comm_overlap"] = f.has("tp-comm-overlap");
    parallel["account_for_embedding_in_pipeline_split"] = f.has("account-for-embedding-in-pipeline-split");
    parallel["account_for_loss_in_pipeline_split"] = f.has("account-for-loss-in-pipeline-split");
    const long long vpp = virtualStages(f, layers, pp);
    parallel["vpp"] = vpp;
    parallel["schedule"] = pp > 1 && vpp > 1 ? "interleaved" : "1f1b";
    readUnevenStages(f, parallel, layers, pp);
    if (const auto cp_comm = f.value("cp-comm-type")) {
        if (*cp_comm == "p2p" || *cp_comm == "a2a" || *cp_comm == "allgather")
            parallel["cp_comm"] = *cp_comm;
        else
            f.error("cp-comm-type", "\"" + *cp_comm + "\" has no ParaScope model (p2p, a2a or allgather)");
    }
    return parallel;
}

namespace {

std::string readPrecision(FlagReader& f, nlohmann::json& training)
{
    std::string precision = f.has("bf16") ? "bf16" : f.has("fp16") ? "fp16" : "fp32";
    if (!f.given("fp8-format"))
        return precision;
    f.value("fp8-format");
    const std::string recipe = f.value("fp8-recipe").value_or("delayed");
    if (recipe == "delayed" || recipe == "tensorwise" || recipe == "blockwise" || recipe == "mxfp8")
        training["fp8_recipe"] = recipe;
    else
        f.error("fp8-recipe", "must be delayed, tensorwise, blockwise or mxfp8, got " + quoteInput(recipe));
    return "fp8";
}

void readRecompute(FlagReader& f, nlohmann::json& training, long long layers, const nlohmann::json& parallel)
{
    const std::string granularity
        = f.value("recompute-granularity").value_or(f.has("recompute-activations") ? "selective" : "");
    training["recompute"] = granularity.empty() ? "none" : granularity;
    if (granularity == "full") {
        const std::string method = f.value("recompute-method").value_or("uniform");
        const long long n = f.integerOr("recompute-num-layers", 1);
        const long long pp = parallel.value("pp", 1LL), vpp = parallel.value("vpp", 1LL);
        const long long per_stage = (layers + pp - 1) / pp / std::max(1LL, vpp);
        if ((method == "uniform" && n != 1 && n < per_stage) || (method == "block" && n < per_stage))
            f.error("recompute-num-layers",
                    "recomputes " + std::to_string(n) + " of " + std::to_string(per_stage) + " layers per chunk ("
                        + method + "); ParaScope's full recompute covers every layer");
    } else if (granularity == "selective") {
        std::vector<std::string> mods = f.values("recompute-modules");
        if (mods.empty())
            mods.push_back("core_attn"); // Megatron's default module
        training["recompute_modules"] = mods;
    } else if (!granularity.empty()) {
        f.error("recompute-granularity", "must be full or selective, got " + quoteInput(granularity));
        training["recompute"] = "none";
    }
}

// Megatron-Core's CUDA graphs: --cuda-graph-impl (none, local, transformer_engine, full_iteration;
// --enable-cuda-graph and --external-cuda-graph are the older switches for local and
// transformer_engine) and the modules each layer captures (--cuda-graph-modules, formerly
// --cuda-graph-scope; empty or "full": the whole layer). What matters to the host model is whether
// the MoE block replays (training.cuda_graphs layers) or only attention and the router do (partial).
std::string readCudaGraphs(FlagReader& f)
{
    std::vector<std::string> modules = f.values("cuda-graph-scope");
    for (const std::string& m : f.values("cuda-graph-modules"))
        modules.push_back(m);
    const bool local = f.has("enable-cuda-graph"), te = f.has("external-cuda-graph");
    const std::string impl = f.value("cuda-graph-impl").value_or(local ? "local" : te ? "transformer_engine" : "none");
    const auto has = [&](const char* m) { return std::find(modules.begin(), modules.end(), m) != modules.end(); };
    if (impl == "full_iteration" || has("full_iteration"))
        return "full_iteration";
    if (impl == "none")
        return "none";
    if (impl != "local" && impl != "transformer_engine") {
        f.error("cuda-graph-impl",
                "must be none, local, transformer_engine or full_iteration, got " + quoteInput(impl));
        return "none";
    }
    std::erase(modules, std::string("full"));
    if (modules.empty() || has("moe"))
        return "layers"; // with attention eager ("moe" alone) the token-count read is still gone
    if (has("full_iteration_inference"))
        f.note("--cuda-graph-scope full_iteration_inference graphs inference only: training runs eager");
    return has("attn") || has("mlp") || has("moe_router") || has("moe_preprocess") ? "partial" : "none";
}

} // namespace

nlohmann::json readTraining(FlagReader& f, long long layers, const nlohmann::json& parallel)
{
    nlohmann::json training;
    const long long micro = f.integerOr("micro-batch-size", 1, 1, 1 << 20);
    training["seq_len"] = f.integerOr("seq-length", 1); // required: readModel says when it is missing
    training["micro_batch"] = micro;
    const long long dp = parallel.value("dp", 1LL);
    training["global_batch"] = f.integerOr("global-batch-size", micro * dp);
    training["precision"] = readPrecision(f, training);
    // Megatron accumulates and reduces gradients in fp32 unless told otherwise.
    const bool bf16_grads = f.has("grad-reduce-in-bf16")
        || (f.given("megatron-fsdp-grad-comm-dtype") && f.value("megatron-fsdp-grad-comm-dtype") == "bf16");
    training["grad_dtype"] = bf16_grads ? "bf16" : "fp32";
    training["optimizer"] = "adamw";
    training["flash_attention"] = true;
    if (f.value("attention-backend").value_or("auto") == "flash")
        training["attention_kernel"] = "fa2";
    if (f.has("cross-entropy-loss-fusion"))
        training["cross_entropy"] = "fused";
    readRecompute(f, training, layers, parallel);
    if (const std::string graphs = readCudaGraphs(f); graphs != "none")
        training["cuda_graphs"] = graphs;
    return training;
}

namespace {

// Why a flag that matters for speed or memory is not taken into the scenario.
const std::map<std::string, std::string> kIgnoredBecause = {
    {"fp8-param-gather",
     "FP8 parameter all-gather: ParaScope's fp8_comm would put the TP all-gathers in FP8 too, "
     "which Megatron does not; parameters are gathered in bf16 here"},
    {"rampup-batch-size", "a batch-size ramp over the first samples; ParaScope models the steady global batch"},
    {"step-batch-size-schedule",
     "a batch-size schedule over the first tokens; ParaScope models the steady global "
     "batch"},
    {"fp8-amax-history-len", "the delayed-scaling history length: no effect on step time or memory in the model"},
    {"fp8-amax-compute-algo", "how the delayed scale is taken: no effect on step time or memory in the model"},
    {"max-position-embeddings", "with rotary positions no parameters depend on it"},
    {"manual-gc", "Python's garbage collection on the host: not modelled"},
    {"empty-unused-memory-level", "emptying PyTorch's cache between steps: not modelled"},
    {"no-overlap-p2p-communication", "pipeline sends are costed overlapped"},
    {"fine-grained-activation-offloading", "activation offloading is not modelled"},
};

nlohmann::json ignoredFlags(const FlagReader& f)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& [name, flag] : f.launch().flags) {
        if (f.used().count(name))
            continue;
        const auto why = kIgnoredBecause.find(name);
        const bool generic = why == kIgnoredBecause.end();
        out.push_back({{"flag", "--" + name},
                       {"line", flag.line},
                       {"generic", generic},
                       {"why",
                        generic ? std::string("not settings ParaScope models (learning rate, data, checkpoints, "
                                              "logging, numerics, …)")
                                : why->second}});
    }
    return out;
}

} // namespace

nlohmann::json importSummary(const FlagReader& f)
{
    nlohmann::json used = nlohmann::json::array();
    for (const std::string& name : f.used())
        used.push_back("--" + name);
    nlohmann::json stray = nlohmann::json::array();
    for (const NotUnderstood& n : f.launch().stray)
        stray.push_back({{"word", n.word}, {"line", n.line}, {"why", n.why}});
    return {{"launcher", f.launch().launcher.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.launch().launcher)},
            {"used", used},
            {"ignored", ignoredFlags(f)},
            {"not_understood", stray}};
}

} // namespace parascope::megatron
