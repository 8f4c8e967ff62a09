#pragma once
// A collective step by step, for watching it: who sends which chunk to whom, over which link,
// and when — NCCL's ring with its channels (one listed), the flat ring and the binomial tree the
// textbooks teach (Patarasuk & Yuan 2009; Thakur, Rabenseifner & Gropp 2005), the hierarchical
// all-reduce, and phase by phase NCCL's double binary tree and NVLS; every form timed by the
// engine's model (comm/collective_cost.h), so the explainer and the engine give one time (reduce-scatter inside each node, all-reduce of each
// shard across nodes on every rail at once, all-gather inside the node). Ranks fill nodes in
// order (GPUs per node from the cluster). Each step's transfers run at once; a step lasts as long
// as its slowest transfer, α + bytes·β on its link (α the link's latency, β = 1/(bandwidth ·
// efficiency), the cluster's LinkSpec), and the next step starts when it ends.
//
// The ring moves exactly 2(n−1)/n·S per GPU for an all-reduce of S bytes and (n−1)/n·S for an
// all-gather, reduce-scatter or all-to-all — whatever n is; the textbook's parameter server
// moves 2·S·(n−1) through its one server. nccl-tests' conventions: S is the "size" column (the
// whole buffer; for all-gather the gathered output), algbw = S/t, busbw = algbw · busFactor.
//
// One ring through the nodes' network links is the textbook's flat ring (flat_ring): every step
// waits for one NIC. NCCL runs one ring per NIC (channels), each through a different GPU's NIC,
// so a step's network hop uses all of a node's NICs (docs: reference schedules-and-comm §3.3);
// the ring plays channel 1 with S/k and times each step with all k channels sharing the links.

#include "comm/comm_algorithm.h"
#include "parallel/placement.h"
#include "types/comm_types.h"
#include "types/diagnostic.h"
#include "types/gpu_spec.h"
#include "util/json_reader.h"

#include <optional>
#include <string>
#include <vector>

namespace parascope {

// The algorithms: comm/comm_algorithm.h. Step by step: ring (all-to-all by pairwise exchange),
// tree (all-reduce, broadcast) and hierarchical (all-reduce).

struct ChunkTransfer {
    int from = 0, to = 0; // ranks
    int chunk = -1; // the first of the buffer's pieces it carries (−1: the whole buffer)
    int chunks = 1; // how many consecutive pieces (the hierarchical form's shards hold N)
    double bytes = 0;
    Link link = Link::NvLink;
    bool reduce = false; // the receiver adds it into its own copy
};

struct CollectiveStep {
    int index = 0;
    Localized phase; // "reduce-scatter", "all-gather inside nodes", …
    double start_s = 0, end_s = 0;
    std::vector<ChunkTransfer> transfers; // empty above kMaxListedRanks (the times stay exact)
};

struct CollectivePlan {
    Collective op = Collective::AllReduce;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    double bytes = 0; // S
    int ranks = 0, nodes = 1, gpus_per_node = 1;
    int pieces = 1; // the buffer's pieces that transfers name (ring: n; hierarchical: k·N; tree: 1)
    std::vector<CollectiveStep> steps;
    std::vector<double> bytes_sent_by_rank;
    double bytes_sent_per_gpu = 0; // the most any rank sends
    double time_s = 0, algbw_bytes_per_s = 0, busbw_bytes_per_s = 0;
    int channels = 1; // the ring's: across nodes one per NIC, the transfers listed are channel 1's
    // What the engine would run for this collective and placement (comm/collective_cost.h
    // assumedAlgorithm) and its time there (a measurement where the cluster has one): equal to
    // time_s when the plan plays that algorithm; a teaching form says the factor to it.
    CollectiveAlgorithm engine_algorithm = CollectiveAlgorithm::Ring;
    double engine_time_s = 0;
    double parameter_server_bytes = 0; // the textbook's central server: 2·S·(n−1) through it (all-reduce)
    double textbook_total_bytes = 0; // the textbook's 2·S·n: all GPUs' traffic together, not one GPU's (all-reduce)
    std::vector<Term> terms;

    static constexpr int kMaxListedRanks = 64;
    // The most GPUs a plan is made for: its work is linear in the GPUs (above kMaxListedRanks a
    // ring's steps are timed from their links, not listed transfer by transfer), and the steps
    // themselves number about 2n.
    static constexpr int kMaxRanks = 1 << 17;
};

// What every rank holds after the first `steps_done` steps, piece by piece: 0 = nothing, else
// how many ranks' data that piece carries (a reducing transfer adds the sender's count to the
// receiver's, a plain one copies it; transfers within a step read the state before the step).
// At the start: all-reduce and reduce-scatter — every rank has every piece of its own (1);
// all-gather — rank r has piece r; broadcast — rank 0 has them all. All-to-all is read as
// "from whom": rank r's piece j is the part rank j sent it, r's own part at the start. Needs the
// plan's transfers (ranks ≤ kMaxListedRanks); otherwise empty.
std::vector<std::vector<int>> collectiveHoldings(const CollectivePlan& plan, int steps_done);

// The form the explainer plays for a collective the engine runs by `engine`: the same algorithm
// where it has a form for the operation (the double binary tree and NVLS phase by phase), else
// the ring (an all-to-all's ring is its pairwise exchange; DeepEP is shown as that exchange).
CollectiveAlgorithm steppedAlgorithm(CollectiveAlgorithm engine, Collective op);

// The algorithm the explainer steps through when none is asked for: what the engine would run for
// this collective and placement (assumedAlgorithm), in its stepped form (steppedAlgorithm).
CollectiveAlgorithm explainerAlgorithm(Collective op, double bytes, int ranks, const ClusterSpec& cluster);

// The group the explainer plays on: `ranks` GPUs filling nodes of the cluster's GPUs per node in
// order, as the engine places a group of that size and node count.
GroupPlacement explainerPlacement(int ranks, const ClusterSpec& cluster);

// The errors of a request, each with the option it concerns (--bytes, --ranks, --op,
// --algorithm): sizes out of range, a rank count a node layout cannot hold, an algorithm the
// operation or the cluster has no form of (comm/collective_checks.cpp).
void checkCollectiveRequest(Collective op, double bytes, int ranks, const ClusterSpec& cluster,
                            CollectiveAlgorithm algorithm, std::vector<InputError>& errors);

// Errors: those of checkCollectiveRequest.
// `listed_ranks`: up to how many GPUs the transfers are listed (tests lower it to check that the
// linear, link-by-link timing gives the listed plan's times and bytes exactly).
std::optional<CollectivePlan> planCollective(Collective op, double bytes, int ranks, const ClusterSpec& cluster,
                                             CollectiveAlgorithm algorithm, std::vector<InputError>& errors,
                                             int listed_ranks = CollectivePlan::kMaxListedRanks);

} // namespace parascope
