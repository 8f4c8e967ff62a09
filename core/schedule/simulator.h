#pragma once
// The event simulator: turns per-rank action lists plus per-op durations into timed ops on
// lanes (a compute lane and a communication lane per pipeline rank), the step's makespan, and the
// peak number of in-flight microbatch activations per rank.
//
// Timing rule (ZB manual_order, PyTorch add_schedule_op_spacing): an op starts when the previous
// op of its rank has ended and every cross-stage input has arrived (producer end + p2p time):
//   F(s, mb) needs F(s−1, mb); B/I(s, mb) needs B/I(s+1, mb), the last stage F(s, mb) (DualPipe:
//   each direction has its own first and last stage, PipelineSchedule::isFirstStage/isLastStage);
//   W(s, mb) needs I(s, mb); an overlapped F&B needs both halves' inputs.

#include "schedule/action.h"
#include "util/enum_names.h"

#include <string>
#include <vector>

namespace parascope {

enum class OpType : std::uint8_t {
    F,
    B,
    I,
    W,
    FB, // compute (FB: overlapped forward + backward)
    Send,
    Recv, // pipeline p2p (drawn on the communication lane)
    AllReduce,
    ReduceScatter,
    AllGather,
    AllToAll,
    Optimizer,
};
inline constexpr EnumName<OpType> kOpTypeNames[] = {{OpType::F, "F"},
                                                    {OpType::B, "B"},
                                                    {OpType::I, "I"},
                                                    {OpType::W, "W"},
                                                    {OpType::FB, "F&B"},
                                                    {OpType::Send, "send"},
                                                    {OpType::Recv, "recv"},
                                                    {OpType::AllReduce, "all_reduce"},
                                                    {OpType::ReduceScatter, "reduce_scatter"},
                                                    {OpType::AllGather, "all_gather"},
                                                    {OpType::AllToAll, "all_to_all"},
                                                    {OpType::Optimizer, "optimizer"}};
constexpr std::span<const EnumName<OpType>> enumNames(OpType) { return kOpTypeNames; }
inline const char* toString(OpType v) { return nameOf(v); }
bool isCompute(OpType);

struct TimedOp {
    int rank = 0;
    bool comm_lane = false;
    OpType type = OpType::F;
    int stage = -1; // virtual stage
    int chunk = 0; // which of the rank's chunks
    int microbatch = -1; // −1 for per-step ops (all-reduce, optimizer)
    double start_s = 0, end_s = 0;
    double comm_s = 0; // of the duration, communication not hidden (TP/EP/CP inside the op)
    int peer_stage = -1; // a send: the virtual stage that receives it
    int bucket = -1; // a gradient bucket's collective: which of the rank's buckets (schedule/grad_buckets.h)
};

// Duration of each op kind on one virtual stage, and how much of it is exposed communication.
struct StageCost {
    double forward_s = 0, backward_input_s = 0, backward_weight_s = 0;
    double forward_comm_s = 0, backward_comm_s = 0; // parts of F and of I(/B) that are communication
    // Megatron's combined 1F1B (parallel.ep_comm_overlap) hides a pass's all-to-alls behind the
    // other direction's pass it is paired with; a rank's warm-up forwards (before its first
    // backward) and cool-down backwards (after its last forward) have none and take this much
    // longer, exposed communication.
    double unpaired_forward_s = 0, unpaired_backward_s = 0;
    double backward_s() const { return backward_input_s + backward_weight_s; }
    // ZeRO-2/3's collectives of one pass (all of them, hidden or not): the parameter all-gathers
    // run ahead of the layers that need them (prefetch) and the gradient reduce-scatters behind
    // the layers that produced them; drawn on the communication lane beside the pass.
    double forward_gather_s = 0, backward_gather_s = 0, backward_reduce_s = 0;
};

// Work after the last backward of a rank: gradient reduction (overlappable with the backward
// of the last microbatch), the optimizer, and an exposed parameter all-gather (ZeRO-1/2).
struct RankTail {
    double grad_reduce_s = 0;
    // One bucket of the reduction: the last one is ready only when the backward ends, so even an
    // overlapped reduction ends at least this long after it.
    double last_bucket_s = 0;
    int grad_buckets = 1; // how many collectives the reduction is issued in (its buckets)
    OpType grad_reduce_type = OpType::AllReduce;
    bool overlap_grad_reduce = true;
    double optimizer_s = 0; // with the gradient compression pass, when the gradients travel compressed
    double param_gather_s = 0; // exposed part only
};

struct SimulationInput {
    const PipelineSchedule* schedule = nullptr;
    std::vector<StageCost> stages; // one per virtual stage
    double p2p_s = 0; // one activation or gradient between two ranks
    // Per pipeline boundary (rank r ↔ r + 1; the last entry of an interleaved pipeline is the
    // wrap from the last rank to rank 0), when the boundaries' links differ; else p2p_s for all.
    std::vector<double> boundary_p2p_s;
    double p2pBetween(int from_rank, int to_rank) const;
    std::vector<RankTail> tails; // one per rank (optional)
    bool record_ops = true; // false: timings only (search, sweeps)
    // Each send to another rank blocks its sender until it has arrived (no overlap of pipeline
    // communication with compute); false: the sender computes on.
    bool blocking_sends = false;
};

struct Timeline {
    int ranks = 0;
    std::vector<TimedOp> ops; // compute and communication ops, by rank then time
    double pipeline_end_s = 0; // last pipeline op of any rank
    double step_s = 0; // including the tails
    std::vector<double> busy_s; // per rank: compute-lane busy time of the pipeline ops
    std::vector<double> comm_in_ops_s; // per rank: exposed communication inside pipeline ops
    std::vector<double> pipeline_end_per_rank_s;
    std::vector<double> tail_exposed_s; // per rank: exposed grad reduce + param gather
    std::vector<int> grad_buckets_hidden; // per rank: buckets of the reduction that end within the backward
    std::vector<double> step_end_per_rank_s; // per rank: end of its tail (optimizer, gathers)
    std::vector<double> peak_inflight; // per rank, in units of "the rank's layers for one microbatch"
    bool deadlock = false;
    std::string problem; // why it deadlocked
};

Timeline simulate(const SimulationInput& in);

} // namespace parascope
