#include "types/scenario.h"

namespace parascope {

long long Scenario::microbatches() const
{
    const long long per_step = (long long)training.micro_batch * parallel.dp;
    if (per_step <= 0 || training.global_batch % per_step != 0)
        return 0;
    return training.global_batch / per_step;
}

} // namespace parascope
