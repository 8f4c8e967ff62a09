#include "time/loss_cost.h"

namespace parascope {

// The cross-entropy reads the logits (tokens × vocab/TP on each GPU of the output layer's TP
// group: Megatron's vocab-parallel loss, torchtitan's loss_parallel) once in the forward, for
// the log-sum-exp, and once more in the backward, where it writes their gradient (softmax minus
// the one-hot label): three passes over the logits at the bytes they are stored in (bf16 under
// mixed precision). That is what the fused kernels move — FlashAttention's Triton
// cross-entropy (flash_attn/ops/triton/cross_entropy.py: one load of each row forward; the
// backward loads it again and stores the gradient, in place), torch.compile's fused log-softmax
// and NLL — and the least any implementation moves: an eager loss that first upcasts to fp32
// (training.cross_entropy eager, torchtitan without compile: the upcast, log_softmax and their
// backward, about 14 + 22 bytes per bf16 logit against 2 + 4), or a kernel that reads the row
// twice for its maximum and its sum, moves more, which is not charged: charging the eager runs'
// passes made the check part worse once the 500 W clock was refitted on its eager fit run
// (docs/VALIDATION.md, "The loss pass"). The memory model does follow cross_entropy (other.logits).
// Nothing fitted.
LossCost lossCost(const Scenario& sc, const LayerOpRates& r)
{
    LossCost c;
    const double bytes = sc.training.activationBytes();
    c.elements = r.tokens * double(sc.model.vocab) / r.split;
    c.forward_bytes = c.elements * bytes;
    c.backward_bytes = 2 * c.elements * bytes;
    c.forward_s = c.forward_bytes / r.hbm;
    c.backward_s = c.backward_bytes / r.hbm;
    return c;
}

Term lossTerm(const LossCost& loss)
{
    return {"time.loss_cross_entropy",
            loss.forward_s + loss.backward_s,
            "s",
            "(1 read forward + 1 read and 1 write backward) · tokens · vocab/TP · bytes / (HBM · efficiency), per "
            "microbatch on the output layer's stage",
            num(loss.elements) + " logits; " + num(loss.forward_bytes) + " B forward (" + num(loss.forward_s) + " s) + "
                + num(loss.backward_bytes) + " B backward (" + num(loss.backward_s) + " s)",
            "a fused softmax cross-entropy (FlashAttention's Triton kernel, torch.compile, Megatron's fused "
            "vocab-parallel loss): the least any implementation moves; an eager fp32 upcast moves more"};
}

} // namespace parascope
