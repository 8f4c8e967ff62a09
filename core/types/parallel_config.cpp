#include "types/parallel_config.h"

namespace parascope {

const char* toString(ScheduleKind s)
{
    switch (s) {
    case ScheduleKind::GPipe: return "gpipe";
    case ScheduleKind::OneFOneB: return "1f1b";
    case ScheduleKind::Interleaved: return "interleaved";
    case ScheduleKind::ZbH1: return "zb-h1";
    case ScheduleKind::ZbV: return "zb-v";
    case ScheduleKind::DualPipeV: return "dualpipe-v";
    }
    return "?";
}

const char* toString(Recompute r)
{
    switch (r) {
    case Recompute::None: return "none";
    case Recompute::Selective: return "selective";
    case Recompute::Full: return "full";
    }
    return "?";
}

const char* toString(Precision p)
{
    switch (p) {
    case Precision::Bf16: return "bf16";
    case Precision::Fp16: return "fp16";
    case Precision::Fp8: return "fp8";
    case Precision::Fp32: return "fp32";
    }
    return "?";
}

const char* toString(GradDtype g) { return g == GradDtype::Bf16 ? "bf16" : "fp32"; }
const char* toString(Optimizer o) { return o == Optimizer::AdamW ? "adamw" : "sgd"; }

} // namespace parascope
