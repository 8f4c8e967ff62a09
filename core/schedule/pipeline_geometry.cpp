#include "schedule/pipeline_geometry.h"

#include <algorithm>

namespace parascope {

int chunksPerRank(const ParallelConfig& p)
{
    if (scheduleRow(p.schedule).chunks_from_vpp)
        return std::max(1, p.vpp);
    return mirroredPlacement(p.schedule) ? 2 : 1;
}

int passesPerRank(const ParallelConfig& p) { return isBidirectional(p.schedule) ? 1 : chunksPerRank(p); }

int rankOfVirtualStage(int stage, int ranks, bool mirrored)
{
    if (mirrored)
        return stage < ranks ? stage : 2 * ranks - 1 - stage;
    return stage % ranks;
}

namespace {

// Layers per virtual stage in pipeline order. An explicit `stage_layers` gives each rank its
// layers, shared over its chunks; otherwise the layers — plus one slot for the embedding and one
// for the output layer and loss when Megatron accounts for them — are shared out evenly over the
// p·v virtual stages, a remainder one each to the first ones, and the embedding's and the loss's
// slots are taken from the first and the last virtual stage. DualPipe shares the model over the p
// stages of one direction, and the reverse direction's stage j (virtual stage p + j) repeats
// stage j's layers.
std::vector<int> virtualStageLayers(const ModelSpec& m, const ParallelConfig& p, const PipelineGeometry& g)
{
    if (g.bidirectional) {
        PipelineGeometry one_way = g;
        one_way.bidirectional = false;
        one_way.chunks = 1;
        std::vector<int> out = virtualStageLayers(m, p, one_way);
        out.insert(out.end(), out.begin(), out.end());
        return out;
    }
    const int S = g.virtualStages();
    std::vector<int> out(static_cast<std::size_t>(S), 0);
    if (int(p.stage_layers.size()) == g.ranks) {
        for (int s = 0; s < S; ++s) {
            const int rank = g.rankOfStage(s), chunk = s / g.ranks, L = p.stage_layers[std::size_t(rank)];
            out[std::size_t(s)] = L / g.chunks + (chunk < L % g.chunks ? 1 : 0);
        }
        return out;
    }
    const int embedding = p.account_for_embedding_in_pipeline_split ? 1 : 0;
    const int loss = p.account_for_loss_in_pipeline_split ? 1 : 0;
    const int slots = int(pipelineSlots(m, p));
    for (int s = 0; s < S; ++s)
        out[std::size_t(s)] = slots / S + (s < slots % S ? 1 : 0);
    out.front() = std::max(0, out.front() - embedding);
    out.back() = std::max(0, out.back() - loss);
    return out;
}

} // namespace

PipelineGeometry pipelineGeometry(const ModelSpec& m, const ParallelConfig& p)
{
    PipelineGeometry g;
    g.kind = p.schedule;
    g.ranks = std::max(1, p.pp);
    g.chunks = chunksPerRank(p);
    g.v_shape = isVShape(p.schedule);
    g.bidirectional = isBidirectional(p.schedule);
    g.split_backward = splitsBackward(p.schedule);
    g.rank_layers.resize(std::size_t(g.ranks));
    for (int r = 0; r < g.ranks; ++r)
        g.rank_layers[std::size_t(r)].rank = r;
    g.rank_layers.front().has_embedding = true;
    (g.v_shape ? g.rank_layers.front() : g.rank_layers.back()).has_output = true;
    if (g.bidirectional) { // the reverse direction enters at the last rank and leaves at rank 0
        g.rank_layers.back().has_embedding = true;
        g.rank_layers.front().has_output = true;
    }

    // Virtual stages hold consecutive layers in pipeline order (each direction from the first
    // layer for DualPipe); a rank's layers are those of its chunks.
    const std::vector<int> layers = virtualStageLayers(m, p, g);
    g.stages.resize(std::size_t(g.virtualStages()));
    int first_layer = 0;
    for (int s = 0; s < g.virtualStages(); ++s) {
        VirtualStage& v = g.stages[std::size_t(s)];
        v.rank = g.rankOfStage(s);
        v.chunk = s / g.ranks;
        if (g.bidirectional && s == g.ranks)
            first_layer = 0;
        v.layers = layers[std::size_t(s)];
        for (int l = first_layer; l < first_layer + v.layers && l < m.layers; ++l)
            v.moe_layers += m.isMoeLayer(l) ? 1 : 0;
        first_layer += v.layers;
        StageLayers& R = g.rank_layers[std::size_t(v.rank)];
        R.layers += v.layers;
        R.moe_layers += v.moe_layers;
    }
    return g;
}

} // namespace parascope
