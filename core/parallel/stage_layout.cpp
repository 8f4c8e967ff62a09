#include "parallel/stage_layout.h"

#include <algorithm>

namespace parascope {

std::vector<StageLayers> layoutStages(const ModelSpec& m, const ParallelConfig& p)
{
    const int pp = std::max(1, p.pp);
    std::vector<StageLayers> stages(pp);
    const bool explicit_layout = int(p.stage_layers.size()) == pp;
    // Even split; a remainder goes one layer each to the first ranks (diagnosed separately).
    int first_layer = 0;
    for (int r = 0; r < pp; ++r) {
        StageLayers& s = stages[r];
        s.rank = r;
        s.layers = explicit_layout ? p.stage_layers[r] : m.layers / pp + (r < m.layers % pp ? 1 : 0);
        for (int l = first_layer; l < first_layer + s.layers && l < m.layers; ++l)
            s.moe_layers += m.isMoeLayer(l) ? 1 : 0;
        first_layer += s.layers;
    }
    const bool v_shape = p.schedule == ScheduleKind::ZbV || p.schedule == ScheduleKind::DualPipeV;
    stages.front().has_embedding = true;
    (v_shape ? stages.front() : stages.back()).has_output = true;
    return stages;
}

} // namespace parascope
