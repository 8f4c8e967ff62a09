#include "comm/comm_volume.h"

#include "comm/group_collectives.h"

#include <algorithm>

namespace parascope {

double bucketParams(std::int64_t dp) { return std::max(40e6, 1e6 * double(dp)); }

std::vector<CommEntry> communicationPlan(const CommInputs& in)
{
    std::vector<CommEntry> plan;
    for (auto group : {tensorParallelCollectives, sequenceParallelCollectives, contextParallelCollectives,
                       expertParallelCollectives, pipelineParallelCollectives, dataParallelCollectives}) {
        std::vector<CommEntry> entries = group(in);
        plan.insert(plan.end(), std::make_move_iterator(entries.begin()), std::make_move_iterator(entries.end()));
    }
    return plan;
}

} // namespace parascope
