#pragma once
// The data-parallel gradient reduction, bucket by bucket (PyTorch DDP, Megatron's DDP buckets):
// the backward fills the buckets in reverse layer order, each bucket's collective starts when its
// last gradient is ready, and the buckets go out one after another on the rank's communication
// lane (Li et al., "PyTorch Distributed", VLDB 2020 §3.2.3; Megatron-Core
// distributed_data_parallel_config.py bucket_size).
//
// Bucket i of n is ready when the last backward is (i + 1)/n of the way through (the gradients
// are produced evenly over it); the first n − 1 buckets take (G − L)/(n − 1) each and the last
// one L, where G is the whole reduction and L its last bucket. The chain ends at
//   max(from + D/n + G, backward end + L)        (D = backward_end − from),
// the larger of the first bucket's wait plus all of the reduction and the last bucket after the
// backward: exposed = max(L, G + D/n − D). A bucket is hidden when it ends before the backward
// does. Not overlapped (overlap_grad_reduce = false): the chain starts at the backward's end.

#include <vector>

namespace parascope {

struct BucketSlot {
    double start_s = 0, end_s = 0;
};

struct BucketChain {
    std::vector<BucketSlot> buckets; // kept only when asked for
    double end_s = 0; // when the last bucket's collective ends
    int count = 0; // buckets
    int hidden = 0; // buckets whose collective ends before the backward does
};

struct BucketInput {
    double reduce_s = 0; // G: the whole reduction
    double last_bucket_s = 0; // L (at most G; 0: G/n)
    int buckets = 1; // n
    bool overlap = true;
};

// `from`: the start of the last backward; `backward_end`: when it (and the rank's pipeline) ends.
BucketChain bucketChain(const BucketInput& in, double from, double backward_end, bool keep_slots);

} // namespace parascope
