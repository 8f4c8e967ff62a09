#pragma once
// Numbers and names as people read them, in both languages: byte sizes, shares with one decimal,
// English counts with their noun, and the course's words for the enums. Used by the diagnostics,
// the reports, the advice and the app.

#include "comm/comm_algorithm.h"
#include "parallel/placement.h"
#include "time/layer_ops.h"
#include "types/comm_types.h"
#include "types/diagnostic.h"
#include "types/parallel_config.h"

#include <string>
#include <vector>

namespace parascope {

// `v` with `decimals` digits after the point, then `unit` ("18.45 GiB"): the one fixed-point formatter.
std::string formatFixed(double v, int decimals, const char* unit);
std::string formatBytes(double bytes); // "7.3 GiB"
std::string formatSeconds(double s); // "1.25 s", "12.5 ms", "340 µs"
std::string formatPercent(double fraction); // "65.7 %": one decimal, everywhere a share is shown

// "1 microbatch", "8 microbatches": a count with its English noun.
std::string countOf(long long n, const char* singular, const char* plural);

// Names for people, in both languages (reports, diagnostics, advice). The enums' name tables
// (util/enum_names.h) spell values as files and flags do ("1f1b", "all_reduce"); these are the
// words of the course ("1F1B", "AllReduce", "交错式 1F1B", "选择性重计算").
Localized displayName(CollectiveAlgorithm v);
Localized displayName(ScheduleKind v);
Localized displayName(Recompute v);
Localized displayName(Precision v);
Localized displayName(OpRate v); // an op's rate class: "GEMM" / "矩阵乘", "memory-bound" / "访存受限"
Localized displayName(Fp8Recipe v);
Localized displayName(CpComm v);
Localized displayName(TpOverlap v); // parallel.tp_overlap: which TP communication overlap runs
Localized displayName(ActivationLayout v); // parallel.activation_layout: what SP's collectives copy
Localized displayName(Zero3Sharding v); // parallel.zero3_sharding: what a ZeRO-3 gather copies
Localized displayName(MoeDispatcher v);
Localized displayName(CudaGraphs v); // training.cuda_graphs: which parts replay as CUDA graphs
Localized displayName(Offload v);
Localized displayName(GradComm v);
Localized displayName(AsyncPipeline v);
Localized displayName(RecomputeModule v);
Localized displayName(AttentionKernel v);
Localized displayName(Group v);
Localized displayName(Collective v);
Localized displayName(Purpose v);
Localized displayName(Link v);

// The links of a pipeline's stage boundaries, counted: "NVLink ×3, network ×1" ("NVLink ×3，网络
// ×1"); one name when every boundary uses the same link.
Localized boundaryLinks(const std::vector<PipelineBoundary>& boundaries);
// Each boundary with its link: "0→1 NVLink, 1→2 network" ("0→1 NVLink，1→2 网络").
Localized boundaryList(const std::vector<PipelineBoundary>& boundaries);

} // namespace parascope
