#include "parallel/pipeline_geometry.h"

#include <algorithm>

namespace parascope {

int chunksPerRank(const ParallelConfig& p)
{
    if (p.schedule == ScheduleKind::Interleaved)
        return std::max(1, p.vpp);
    return isVShape(p.schedule) ? 2 : 1;
}

int rankOfVirtualStage(int stage, int ranks, bool v_shape)
{
    if (v_shape)
        return stage < ranks ? stage : 2 * ranks - 1 - stage;
    return stage % ranks;
}

namespace {

std::vector<StageLayers> layoutStages(const ModelSpec& m, const ParallelConfig& p)
{
    const int pp = std::max(1, p.pp);
    std::vector<StageLayers> stages(static_cast<std::size_t>(pp));
    const bool explicit_layout = int(p.stage_layers.size()) == pp;
    int first_layer = 0;
    for (int r = 0; r < pp; ++r) {
        StageLayers& s = stages[std::size_t(r)];
        s.rank = r;
        s.layers = explicit_layout ? p.stage_layers[std::size_t(r)] : m.layers / pp + (r < m.layers % pp ? 1 : 0);
        for (int l = first_layer; l < first_layer + s.layers && l < m.layers; ++l)
            s.moe_layers += m.isMoeLayer(l) ? 1 : 0;
        first_layer += s.layers;
    }
    stages.front().has_embedding = true;
    (isVShape(p.schedule) ? stages.front() : stages.back()).has_output = true;
    return stages;
}

} // namespace

PipelineGeometry pipelineGeometry(const ModelSpec& m, const ParallelConfig& p)
{
    PipelineGeometry g;
    g.kind = p.schedule;
    g.ranks = std::max(1, p.pp);
    g.chunks = chunksPerRank(p);
    g.v_shape = isVShape(p.schedule);
    g.split_backward = splitsBackward(p.schedule);
    g.rank_layers = layoutStages(m, p);
    g.stages.resize(std::size_t(g.virtualStages()));
    for (int s = 0; s < g.virtualStages(); ++s) {
        VirtualStage& v = g.stages[std::size_t(s)];
        v.rank = g.rankOfStage(s);
        v.chunk = s / g.ranks;
        const StageLayers& L = g.rank_layers[std::size_t(v.rank)];
        v.layers = L.layers / g.chunks + (v.chunk < L.layers % g.chunks ? 1 : 0);
        v.moe_layers = L.moe_layers / g.chunks + (v.chunk < L.moe_layers % g.chunks ? 1 : 0);
    }
    return g;
}

} // namespace parascope
