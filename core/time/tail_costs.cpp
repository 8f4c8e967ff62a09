#include "time/tail_costs.h"

#include "comm/grad_compression.h"

namespace parascope {

double optimizerStepSeconds(const TrainingConfig& t, double opt_shard, double hbm, std::vector<Term>& terms,
                            Explain explain)
{
    const bool adam = t.optimizer == Optimizer::AdamW;
    const double bytes_per_param = (adam ? 24.0 : 16.0) + (t.grad_dtype == GradDtype::Fp32 ? 4 : 2) + 2;
    const double seconds = hbm > 0 ? opt_shard * bytes_per_param / hbm : 0;
    addTerm(terms, explain, [&] {
        return Term{"time.optimizer",
                    seconds,
                    "s",
                    "Ψ_shard · bytes touched / (HBM · efficiency)",
                    num(opt_shard) + "·" + num(bytes_per_param) + "/" + num(hbm),
                    "memory-bound fused Adam: read master, m, v, grad; write master, m, v, weights"};
    });
    return seconds;
}

double gradCompressionSeconds(const Scenario& sc, double stage_params, double microbatches, double hbm,
                              std::vector<Term>& terms, Explain explain)
{
    const ParallelConfig& p = sc.parallel;
    const TrainingConfig& t = sc.training;
    if (t.grad_comm == GradComm::Same || !(p.dp * p.cp > 1 || p.ep > 1) || hbm <= 0)
        return 0;
    TrainingConfig native = t;
    native.grad_comm = GradComm::Same;
    const GradWire w = gradWire(sc.model, p, t);
    const bool sketch = w.passes > 0;
    if (sketch && p.zero >= 1)
        return 0; // a DDP hook: not applied to ZeRO's sharded reduction (grad_compression_needs_ddp)
    // Quantizers: read the gradients and write the wire copy, then the reverse; sketches: their
    // passes over the gradients (comm/grad_compression.h).
    const double bytes = sketch
        ? w.passes * native.gradWireBytes()
        : 2 * (native.gradWireBytes() + t.gradWireBytes()) + (t.grad_comm == GradComm::OneBit ? 8 : 0);
    const double passes = p.zero >= 2 ? microbatches : 1;
    const double seconds = passes * stage_params * bytes / hbm;
    addTerm(terms, explain, [&] {
        return Term{"time.grad_compress",
                    seconds,
                    "s",
                    sketch ? "Ψ_stage · passes · gradient bytes / HBM"
                           : "passes · Ψ_stage · 2·(gradient + wire bytes) (+ 8 B error feedback for 1-bit) / HBM",
                    num(passes) + "·" + num(stage_params) + "·" + num(bytes) + "/" + num(hbm),
                    sketch ? std::string(w.source)
                           : "FP8-LM (Peng et al. 2023) §3.1; 1-bit Adam (Tang et al. 2021) §4: compress, send, "
                             "decompress"};
    });
    return seconds;
}

} // namespace parascope
