#pragma once
// CPU offload's time (ZeRO-Offload, Ren et al. 2021 §4.2; FSDP CPUOffload): the optimizer step on
// the CPU, the PCIe copies of gradients and weights, and what each ZeRO-3 gather adds when the
// parameters live on the host. The host memory it needs is in memory/stage_memory.

#include "model/parameter_count.h"
#include "schedule/pipeline_geometry.h"
#include "types/scenario.h"
#include "types/term.h"

#include <vector>

namespace parascope {

struct OffloadCosts {
    double shard_params = 0; // the largest shard of a GPU (parameters)
    double pcie_bytes_per_s = 0; // achievable, per GPU and direction
    double optimizer_s = 0; // CPU optimizer step + weights back over PCIe (offload optimizer)
    double gradients_s = 0; // gradients to the host after the backward (overlappable)
    bool active = false; // offload on and the host described
    // PCIe traffic per GPU and step: gradients to the host; weights back (offloaded optimizer)
    // and, with the parameters offloaded, each ZeRO-3 gather's copy of the shard.
    double d2h_bytes = 0, h2d_bytes = 0;
    // Per ZeRO-3 gather of a whole rank's layers, with the parameters on the host: the PCIe copy
    // before the all-gather.
    double gatherCopy() const { return pcie_bytes_per_s > 0 ? shard_params * 2 / pcie_bytes_per_s : 0; }
};

OffloadCosts offloadCosts(const Scenario& sc, const ParamCounts& params, const PipelineGeometry& geometry,
                          std::vector<Term>& terms, Explain explain);

} // namespace parascope
