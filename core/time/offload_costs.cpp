#include "time/offload_costs.h"

#include "memory/model_states.h"
#include "memory/stage_memory.h"

#include <algorithm>

namespace parascope {

OffloadCosts offloadCosts(const Scenario& sc, const ParamCounts& params, const PipelineGeometry& geometry,
                          std::vector<Term>& terms, Explain explain)
{
    const ParallelConfig& p = sc.parallel;
    const TrainingConfig& t = sc.training;
    const HostSpec& host = sc.cluster.host;
    OffloadCosts c;
    if (p.offload == Offload::None)
        return c;
    c.pcie_bytes_per_s = host.pcie_bytes_per_s * host.pcie_efficiency;
    c.shard_params = largestOptimizerShard(params, geometry, p);
    if (!host.known())
        return c;
    c.active = true;
    // The gradients of the shard go to the host after the backward (overlappable like the
    // gradient reduction); the CPU runs the optimizer, memory-bound on the node's DRAM shared by
    // its GPUs (Adam reads master, m, v and the fp32 gradient and writes master, m, v and the
    // 16-bit weights: 30 bytes per parameter; SGD 22); with the optimizer alone offloaded the
    // updated 16-bit weights come back over PCIe.
    const double host_bw = host.memory_bytes_per_s * host.memory_efficiency / std::max(1, sc.cluster.gpus_per_node);
    const double cpu_bytes = t.optimizer == Optimizer::AdamW ? 30.0 : 22.0;
    const double grad_bytes = t.grad_dtype == GradDtype::Fp32 ? 4 : 2;
    const double cpu_step = c.shard_params * cpu_bytes / host_bw;
    const double h2d = p.offload == Offload::Optimizer ? c.shard_params * StateBytes{}.weights / c.pcie_bytes_per_s : 0;
    c.optimizer_s = cpu_step + h2d;
    c.gradients_s = c.shard_params * grad_bytes / c.pcie_bytes_per_s;
    c.d2h_bytes = c.shard_params * grad_bytes;
    c.h2d_bytes = p.offload == Offload::Optimizer ? c.shard_params * StateBytes{}.weights : 0;
    if (p.offload == Offload::Params) // a gather each forward, and each backward unless kept
        c.h2d_bytes
            = c.shard_params * StateBytes{}.weights * double(sc.microbatches()) * (p.reshard_after_forward ? 2 : 1);
    if (explain == Explain::NumbersOnly)
        return c;
    terms.push_back({"time.offload_optimizer", c.optimizer_s, "s",
                     "Ψ_shard · bytes / (host DRAM · efficiency / GPUs per node) + Ψ_shard · 2 / (PCIe · efficiency) "
                     "(weights back)",
                     num(c.shard_params) + "·" + num(cpu_bytes) + "/" + num(host_bw)
                         + (h2d > 0 ? " + " + num(c.shard_params) + "·2/" + num(c.pcie_bytes_per_s) : std::string()),
                     "Ren et al. 2021 (ZeRO-Offload) §4.2: CPU Adam on the node's memory bandwidth"});
    terms.push_back({"time.offload_gradients", c.gradients_s, "s",
                     "Ψ_shard · gradient bytes / (PCIe · efficiency), overlaps the backward",
                     num(c.shard_params) + "·" + num(grad_bytes) + "/" + num(c.pcie_bytes_per_s),
                     "Ren et al. 2021 (ZeRO-Offload) §4.2"});
    return c;
}

} // namespace parascope
