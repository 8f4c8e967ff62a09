#include "comm/explainer_request.h"

#include <algorithm>
#include <iterator>

namespace parascope {

bool hasSteppedForm(Collective op)
{
    return std::find(std::begin(kExplainedCollectives), std::end(kExplainedCollectives), op)
        != std::end(kExplainedCollectives);
}

std::optional<ExplainerRequest> explainerRequest(const CommEntry& entry)
{
    if (!hasSteppedForm(entry.collective) || entry.group_size < 2 || entry.bytes_per_call <= 0)
        return std::nullopt;
    ExplainerRequest r;
    r.op = entry.collective;
    r.bytes = entry.bytes_per_call;
    r.ranks = int(std::min<std::int64_t>(entry.group_size, CollectivePlan::kMaxRanks));
    r.group_gpus = entry.group_size;
    r.gpus_per_node = int(std::max<std::int64_t>(1, entry.group_size / std::max<std::int64_t>(1, entry.nodes_spanned)));
    r.algorithm = steppedAlgorithm(entry.algorithm, entry.collective); // the engine's, in its stepped form
    r.charged = entry.algorithm;
    r.charged_call_s = entry.calls_per_step > 0 ? entry.time_s / entry.calls_per_step : 0;
    return r;
}

void compareWithRow(CollectivePlan& plan, const ExplainerRequest& row)
{
    if (row.charged_call_s <= 0 || plan.ranks != row.group_gpus || plan.engine_algorithm == row.charged)
        return;
    plan.engine_algorithm = row.charged;
    plan.engine_time_s = row.charged_call_s;
}

ClusterSpec withGroupPerNode(ClusterSpec cluster, int gpus_per_node)
{
    if (gpus_per_node > 0)
        cluster.gpus_per_node = std::min(gpus_per_node, std::max(1, cluster.gpus_per_node));
    return cluster;
}

} // namespace parascope
