#include "io/collective_json.h"

#include "comm/comm_algorithm.h"
#include "io/report_json.h"

namespace parascope {

BandwidthLadder ladderOf(const CollectivePlan& p, const ClusterSpec& cluster)
{
    const GroupPlacement g = explainerPlacement(p.ranks, cluster);
    return bandwidthLadder(g.crossesNodes() ? Link::Network : Link::NvLink, cluster, p.op, p.bytes, g);
}

nlohmann::json ladderJson(const BandwidthLadder& l)
{
    nlohmann::json rungs = nlohmann::json::array(), chapter = nlohmann::json::array();
    for (const LadderRung& r : l.rungs)
        rungs.push_back(
            {{"name", r.name.en}, {"gbps", r.bytes_per_s / 1e9}, {"factor", r.factor.en}, {"source", r.source}});
    for (const ChapterFigure& c : l.chapter)
        chapter.push_back(
            {{"quote", c.quote.en}, {"gbps", c.bytes_per_s / 1e9}, {"rung", c.rung}, {"where", c.where.en}});
    return {{"link", toString(l.link)}, {"algorithm", toString(l.algorithm)}, {"rungs", rungs}, {"chapter", chapter}};
}

nlohmann::json planJson(const CollectivePlan& p, const ClusterSpec& cluster)
{
    nlohmann::json steps = nlohmann::json::array();
    for (const CollectiveStep& s : p.steps) {
        nlohmann::json t = nlohmann::json::array();
        for (const ChunkTransfer& x : s.transfers)
            t.push_back({{"from", x.from},
                         {"to", x.to},
                         {"chunk", x.chunk},
                         {"bytes", x.bytes},
                         {"link",
                          x.link == Link::Network    ? "network"
                              : x.link == Link::Pcie ? "pcie"
                                                     : "nvlink"},
                         {"reduce", x.reduce}});
        steps.push_back({{"step", s.index},
                         {"phase", s.phase.en},
                         {"start_s", s.start_s},
                         {"end_s", s.end_s},
                         {"transfers", std::move(t)}});
    }
    nlohmann::json j = {{"schema", kCollectiveSchema},
                        {"op", toString(p.op)},
                        {"algorithm", toString(p.algorithm)},
                        {"cluster", cluster.id},
                        {"bytes", p.bytes},
                        {"ranks", p.ranks},
                        {"nodes", p.nodes},
                        {"gpus_per_node", p.gpus_per_node},
                        {"bytes_sent_per_gpu", p.bytes_sent_per_gpu},
                        {"bytes_sent_by_rank", p.bytes_sent_by_rank},
                        {"time_s", p.time_s},
                        {"algbw_gbps", p.algbw_bytes_per_s / 1e9},
                        {"busbw_gbps", p.busbw_bytes_per_s / 1e9},
                        {"channels", p.channels},
                        {"teaching_only", teachingOnly(p.algorithm)},
                        {"engine_algorithm", toString(p.engine_algorithm)},
                        {"engine_time_s", p.engine_time_s},
                        {"ladder", ladderJson(ladderOf(p, cluster))},
                        {"steps", std::move(steps)},
                        {"terms", termsToJson(p.terms)}};
    if (p.parameter_server_bytes > 0)
        j["parameter_server_bytes"] = p.parameter_server_bytes;
    return j;
}

} // namespace parascope
