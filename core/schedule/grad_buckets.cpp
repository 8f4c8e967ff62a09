#include "schedule/grad_buckets.h"

#include <algorithm>

namespace parascope {

BucketChain bucketChain(const BucketInput& in, double from, double backward_end, bool keep_slots)
{
    BucketChain out;
    const int n = std::max(1, in.buckets);
    out.count = n;
    if (in.reduce_s <= 0) {
        out.end_s = backward_end;
        out.hidden = n;
        return out;
    }
    const double start_of_chain = in.overlap ? from : backward_end;
    const double span = std::max(0.0, backward_end - start_of_chain);
    const double even = in.reduce_s / n;
    const double last = n == 1 ? in.reduce_s : std::min(in.reduce_s, in.last_bucket_s > 0 ? in.last_bucket_s : even);
    const double other = n == 1 ? 0.0 : (in.reduce_s - last) / (n - 1);
    // A bucket that ends within a part in a million of the backward's end counts as hidden.
    const double hidden_by = backward_end + 1e-6 * std::max(1e-9, in.reduce_s);
    if (keep_slots)
        out.buckets.reserve(std::size_t(n));
    double lane = start_of_chain;
    for (int i = 0; i < n; ++i) {
        const double ready = start_of_chain + span * double(i + 1) / n;
        const double start = std::max(lane, ready);
        lane = start + (i + 1 < n ? other : last);
        if (lane <= hidden_by)
            ++out.hidden;
        if (keep_slots)
            out.buckets.push_back({start, lane});
    }
    out.end_s = lane;
    return out;
}

} // namespace parascope
