// Model states (weights, gradients, optimizer) per GPU and pipeline stage, ZeRO 0–3, the
// textbook checks of the course, and the itemised "other" memory.

#include "estimate/memory_over_time.h"
#include "memory/model_states.h"
#include "memory/other_memory.h"
#include "by_hand.h"
#include "scenario_fixture.h"

using namespace parascope;
using namespace parascope::test;

class TstMemory : public QObject {
    Q_OBJECT

    static const Term& term(const StageMemory& s, const char* name)
    {
        const Term* t = findTerm(s.terms, name);
        if (!t)
            qFatal("stage %d has no term %s", s.stage, name);
        return *t;
    }

private slots:
    // CPU offload (ZeRO-Offload, Ren et al. 2021 §4). Llama-2 7B, Ψ = 6,738,415,616, on one DGX
    // A100 80GB (DP 8, ZeRO-2), bf16 weights and gradients, AdamW. The shard is Ψ/8 = 842,301,952.
    //   GPU: optimizer states 12·Ψ/8 move to the host: 0 on the GPU, weights and gradients stay.
    //   Host per GPU: 12·Ψ/8 + 4·Ψ/8 (fp32 gradients) = 2Ψ = 13,476,831,232 B; per node ×8 = 16Ψ
    //   = 107,814,649,856 B (100.4 GiB of the node's 2 TiB).
    //   Optimizer on the CPU: Ψ/8 · 30 B / (409.6 GB/s · 0.8 / 8 GPUs) = 0.616921 s, plus the
    //   bf16 weights back: Ψ/8 · 2 / (32 GB/s · 0.8) = 0.065805 s → 0.682726 s.
    //   Gradients out: Ψ/8 · 2 / 25.6e9 = 0.065805 s, after the backward (with the reduction).
    void cpuOffloadByHand()
    {
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
        sc.parallel.zero = 2;
        sc.training.global_batch = 64;
        const Estimate base = evaluate(sc);
        sc.parallel.offload = Offload::Optimizer;
        const Estimate e = evaluate(sc);
        const double psi = 6738415616.0, shard = psi / 8;
        QVERIFY(e.diagnostics.empty() || e.diagnostics.front().severity != Severity::Error);
        const StageMemory& st = e.memory.stages.at(0);
        QCOMPARE(st.optimizer, 0.0);
        QVERIFY(std::abs(st.weights - base.memory.stages.at(0).weights) < 1);
        QVERIFY(std::abs(st.cpu - 2 * psi) < 1);
        QVERIFY(std::abs(e.memory.cpu_bytes_per_node - 16 * psi) < 8);
        QVERIFY(e.memory.fits_host);
        const double cpu_step = shard * 30 / (409.6e9 * 0.8 / 8), back = shard * 2 / (32e9 * 0.8);
        QVERIFY(std::abs(e.time.optimizer_s - (cpu_step + back)) < 1e-9);
        QVERIFY(std::abs(cpu_step - 0.616921) < 1e-6 && std::abs(back - 0.065805) < 1e-6);
        QVERIFY(e.time.step_s > base.time.step_s); // the CPU step costs time on every step
        // Parameters too (FSDP CPUOffload): needs ZeRO-3; then weights and gradients leave the GPU.
        sc.parallel.offload = Offload::Params;
        const Estimate z2 = evaluate(sc);
        QVERIFY(std::any_of(z2.diagnostics.begin(), z2.diagnostics.end(),
                            [](const Diagnostic& d) { return d.code == "offload_needs_zero3"; }));
        sc.parallel.zero = 3;
        const Estimate z3 = evaluate(sc);
        QCOMPARE(z3.memory.stages.at(0).weights + z3.memory.stages.at(0).gradients + z3.memory.stages.at(0).optimizer,
                 0.0);
        // Host: 2 + 2 + 12 + 4 = 20 bytes per shard parameter = 2.5Ψ per GPU.
        QVERIFY(std::abs(z3.memory.stages.at(0).cpu - 2.5 * psi) < 1);
        // A node with too little host memory: 8 · 2.5Ψ = 134.8 GB > 64 GiB.
        sc.cluster.host.memory_bytes = 64 * GiB;
        const Estimate small = evaluate(sc);
        QVERIFY(!small.memory.fits_host);
        QVERIFY(std::any_of(small.diagnostics.begin(), small.diagnostics.end(),
                            [](const Diagnostic& d) { return d.code == "host_out_of_memory"; }));
        // No host described (a custom cluster): offload cannot be evaluated, and says so.
        sc.cluster.host = HostSpec{};
        const Estimate none = evaluate(sc);
        QVERIFY(std::any_of(none.diagnostics.begin(), none.diagnostics.end(),
                            [](const Diagnostic& d) { return d.code == "offload_needs_host"; }));
    }

    void zeroPaperExample()
    {
        // Rajbhandari et al. 2019, Figure 1: Ψ = 7.5B, N_d = 64, K = 12:
        //   baseline (2 + 2 + 12)·Ψ = 120 GB; P_os 4Ψ + 12Ψ/64 = 31.4 GB;
        //   P_os+g 2Ψ + 14Ψ/64 = 16.6 GB; P_os+g+p 16Ψ/64 = 1.9 GB.
        TrainingConfig t; // bf16 weights and grads, AdamW: the course's 2 + 2 + 12
        const StageParams p{7.5e9, 0};
        const double expected[4] = {120e9, 30e9 + 12 * 7.5e9 / 64, 15e9 + 14 * 7.5e9 / 64, 16 * 7.5e9 / 64};
        for (int zero = 0; zero <= 3; ++zero) {
            const ModelStates s = modelStates(p, t, zero, 64, 1);
            QCOMPARE(s.weights + s.gradients + s.optimizer, expected[zero]);
        }
        QCOMPARE(std::round(expected[1] / 1e8) / 10, 31.4);
        QCOMPARE(std::round(expected[2] / 1e8) / 10, 16.6);
        QCOMPARE(std::round(expected[3] / 1e8) / 10, 1.9);
    }

    void bytesPerParameter()
    {
        TrainingConfig t;
        StateBytes b = stateBytes(t);
        QCOMPARE(b.weights + b.gradients + b.optimizer, 16.0); // course default 2 + 2 + 12
        t.grad_dtype = GradDtype::Fp32;
        b = stateBytes(t);
        QCOMPARE(b.weights + b.gradients + b.optimizer, 18.0); // Megatron: fp32 main grads
        // Megatron distributed optimizer: 6 + 12/DP bytes/param (theoretical_memory_usage.py).
        const ModelStates s = modelStates(StageParams{1e9, 0}, t, 1, 8, 1);
        QCOMPARE((s.weights + s.gradients + s.optimizer) / 1e9, 6 + 12.0 / 8);
        t.optimizer = Optimizer::Sgd; // fp32 master + momentum
        QCOMPARE(stateBytes(t).optimizer, 8.0);
        t.precision = Precision::Fp32; // no separate master copy
        QCOMPARE(stateBytes(t).optimizer, 4.0);
        QCOMPARE(stateBytes(t).weights, 4.0);
        QCOMPARE(stateBytes(t).gradients, 4.0);
        t = TrainingConfig{};
        t.precision = Precision::Fp8; // bf16 weights + fp8 copy for the GEMMs
        QCOMPARE(stateBytes(t).weights, 3.0);
    }

    void textbook13bModelStates()
    {
        // Course case 1: 13B at 16 B/param: 26 GB weights, 26 GB gradients, 156 GB AdamW states
        // before any sharding (Llama-2 13B: Ψ = 13,015,864,320).
        const Scenario sc = presetScenario("llama2-13b", "dgx-a100-80g", 1, 1, 1);
        const Estimate e = evaluate(sc);
        const double P = 13015864320.0;
        const StageMemory& s = e.memory.stages.at(0);
        QCOMPARE(s.weights, 2 * P);
        QCOMPARE(s.gradients, 2 * P);
        QCOMPARE(s.optimizer, 12 * P);
        QCOMPARE(std::round(s.weights / 1e9), 26.0);
        QCOMPARE(std::round(s.optimizer / 1e9), 156.0);

        // TP = 8 × DP = 8: TP splits everything but the norms (2 per layer + the final one):
        // replicated = 40·2·5120 + 5120 = 414,720; per GPU Ψ = (P − 414,720)/8 + 414,720.
        const Estimate tp8 = evaluate(presetScenario("llama2-13b", "dgx-a100-80g", 8, 1, 8));
        const double per_gpu = (P - 414720) / 8 + 414720;
        QCOMPARE(tp8.memory.stages.at(0).weights, 2 * per_gpu);
        QCOMPARE(tp8.memory.stages.at(0).optimizer, 12 * per_gpu);
        QVERIFY(tp8.memory.fits);
    }

    void seventyBillionNeedsOnePointOneTerabyte()
    {
        // Course: "70B needs ~1.12 TB of model states": 16 B × 70.55e9 (Llama-3.1 70B) = 1.129 TB;
        // Llama-2 70B (68.98e9) = 1.104 TB.
        for (const char* id : {"llama3.1-70b", "llama2-70b"}) {
            const Estimate e = evaluate(presetScenario(id, "dgx-a100-80g", 1, 1, 1));
            const StageMemory& s = e.memory.stages.at(0);
            const double states = s.weights + s.gradients + s.optimizer;
            QCOMPARE(states, 16.0 * double(e.params.total));
            QVERIFY2(std::abs(states - 1.12e12) / 1.12e12 < 0.015, id);
        }
    }

    void sevenBillionZero1()
    {
        // Course case 3: 7B on DP = 8; ZeRO-1 divides the optimizer states by 8 and leaves
        // weights and gradients alone (Ψ = 6,738,415,616).
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
        sc.training.global_batch = 64;
        const StageMemory ddp = evaluate(sc).memory.stages.at(0);
        sc.parallel.zero = 1;
        const StageMemory z1 = evaluate(sc).memory.stages.at(0);
        QCOMPARE(z1.optimizer, ddp.optimizer / 8);
        QCOMPARE(z1.optimizer, 12.0 * 6738415616 / 8);
        QCOMPARE(z1.weights, ddp.weights);
        QCOMPARE(z1.gradients, ddp.gradients);
        sc.parallel.zero = 2;
        QCOMPARE(evaluate(sc).memory.stages.at(0).gradients, ddp.gradients / 8);
        sc.parallel.zero = 3;
        QCOMPARE(evaluate(sc).memory.stages.at(0).weights, ddp.weights / 8);
    }

    void pipelineSplitsEmbeddingAndOutput()
    {
        // Llama-2 7B on PP = 4: 8 layers per stage; embedding 32000·4096 on stage 0, output layer
        // 32000·4096 + final norm 4096 on stage 3; layer = 4·4096² + 3·4096·11008 + 2·4096.
        const Estimate e = evaluate(presetScenario("llama2-7b", "dgx-a100-80g", 1, 4, 1));
        const double layer = 4.0 * 4096 * 4096 + 3.0 * 4096 * 11008 + 2 * 4096;
        const double vh = 32000.0 * 4096;
        QCOMPARE(e.memory.stages.size(), std::size_t(4));
        QCOMPARE(e.memory.stages[0].weights, 2 * (8 * layer + vh));
        QCOMPARE(e.memory.stages[1].weights, 2 * (8 * layer));
        QCOMPARE(e.memory.stages[3].weights, 2 * (8 * layer + vh + 4096));
        double total = 0;
        for (const StageMemory& s : e.memory.stages)
            total += s.weights / 2;
        QCOMPARE(total, double(e.params.total));
    }

    void dualPipeHoldsTwoStagesPerRank()
    {
        // Bidirectional DualPipe on PP = 4 (DeepSeek-V3 §3.2.1: two copies of the parameters;
        // deepseek-ai/DualPipe): rank r holds stage r of the forward direction and stage 3 − r of
        // the reverse one. Llama-2 7B, 8 layers per stage: rank 0 holds the embedding, stage 0's
        // 8 layers, stage 3's 8 layers, the final norm and the output layer; rank 1 16 layers.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 4, 1);
        sc.parallel.schedule = ScheduleKind::DualPipe;
        sc.training.global_batch = 16; // m = 16: even and ≥ 2·PP
        const Estimate e = evaluate(sc);
        const double layer = 4.0 * 4096 * 4096 + 3.0 * 4096 * 11008 + 2 * 4096;
        const double vh = 32000.0 * 4096;
        const double rank0 = 16 * layer + 2 * vh + 4096;
        QCOMPARE(e.memory.stages[0].layers, 16);
        QCOMPARE(e.memory.stages[0].weights, 2 * rank0);
        QCOMPARE(e.memory.stages[1].weights, 2 * 16 * layer);
        QCOMPARE(e.memory.stages[3].weights, e.memory.stages[0].weights); // the mirror image
        // Twice the model: the sum over the ranks is 2Ψ.
        double total = 0;
        for (const StageMemory& st : e.memory.stages)
            total += st.weights / 2;
        QCOMPARE(total, 2.0 * double(e.params.total));

        // The two copies' gradients: one all-reduce per step over the pair (0, 3) of rank 0's
        // bf16 gradients (bucketed), 2·(2 − 1)/2 · 2 B · Ψ_rank0 = 2·Ψ_rank0 bytes per GPU.
        const CommEntry* mirror = findComm(e, Group::Pp, Collective::AllReduce);
        QVERIFY(mirror);
        QCOMPARE(mirror->group_size, std::int64_t(2));
        QVERIFY(std::abs(mirror->bytes_per_gpu_per_step / (2 * rank0) - 1) < 1e-12);
        // Each microbatch crosses a rank once (in one direction): m = 16 activation sends per
        // rank, not the 2m of a V shape.
        const CommEntry* sends = findComm(e, Group::Pp, Collective::SendRecv);
        QVERIFY(sends);
        QCOMPARE(sends->calls_per_step, 16.0);
        // Activations: the simulated in-flight peak in rank units (two stages' worth), at most
        // DualPipe's PP + 1 stage-microbatches = (4 + 1)/2 rank units.
        for (const StageMemory& st : e.memory.stages)
            QVERIFY2(st.inflight_microbatches <= 2.5 + 1e-12, std::to_string(st.inflight_microbatches).c_str());
    }

    void eagerCrossEntropyKeepsThreeCopies()
    {
        // Llama 3.1 8B's vocabulary V = 128,256, s = 8192, micro batch 2, no TP: 2,101,346,304
        // logits on the output stage. A fused vocab-parallel cross-entropy keeps one fp32 copy:
        // 4 B each = 8.405e9 B. torchtitan's eager F.cross_entropy(pred.float()) peaks at 12 B
        // each (backward: the saved fp32 log-softmax, its gradient and the fp32 input gradient;
        // the forward's bf16 logits + fp32 copy + fp32 log-softmax are 10): 2.5216e10 B.
        Scenario sc = presetScenario("llama3.1-8b", "dgx-h100", 1, 1, 8);
        sc.training.seq_len = 8192;
        sc.training.micro_batch = 2;
        sc.training.global_batch = 16;
        const double logits = 8192.0 * 2 * 128256;
        const Estimate fused = evaluate(sc);
        QCOMPARE(term(fused.memory.stages[0], "other.logits").value, 4 * logits);
        sc.training.cross_entropy = CrossEntropy::Eager;
        const Estimate eager = evaluate(sc);
        QCOMPARE(term(eager.memory.stages[0], "other.logits").value, 12 * logits);
        QCOMPARE(eager.memory.stages[0].total() - fused.memory.stages[0].total(), 8 * logits);
        // TP shards the vocabulary (torchtitan's loss_parallel): TP 2 halves it.
        sc.parallel.tp = 2;
        sc.parallel.dp = 4;
        sc.training.global_batch = 8;
        QCOMPARE(term(evaluate(sc).memory.stages[0], "other.logits").value, 12 * logits / 2);
    }

    void tiedEmbeddingCopyOnLastStage()
    {
        // GPT (tied): with PP > 1 Megatron keeps the word embedding on the last stage too, as
        // the output layer. Megatron GPT 1.7B on PP 2: last stage = 12 layers + V·h + final LN.
        const Estimate e = evaluate(presetScenario("megatron-gpt-1.7b", "dgx-a100-80g", 1, 2, 1));
        const double h = 2304, layer = 12 * h * h + 13 * h;
        QCOMPARE(e.memory.stages[1].weights, 2 * (12 * layer + 51200 * h + 2 * h));
        QCOMPARE(e.memory.stages[0].weights, 2 * (12 * layer + 51200 * h + 2048 * h));
    }

    void unevenStages()
    {
        // parallel.stage_layers = [6, 10, 10, 6] for Llama-2 7B (32 layers).
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 4, 1);
        sc.parallel.stage_layers = {6, 10, 10, 6};
        const Estimate e = evaluate(sc);
        QCOMPARE(e.memory.stages[0].layers, 6);
        QCOMPARE(e.memory.stages[1].layers, 10);
        QVERIFY(!e.has("layers_not_divisible_by_pp"));
        const double layer = 4.0 * 4096 * 4096 + 3.0 * 4096 * 11008 + 2 * 4096;
        QCOMPARE(e.memory.stages[1].weights, 2 * 10 * layer);
    }

    void expertsSplitByExpertParallelism()
    {
        // Mixtral 8x7B, TP 1, EP 8 over DP 8: each GPU holds 1 of 8 experts per layer; attention,
        // router and norms are replicated. Per layer: attn 2·4096² + 2·4096·1024, one expert
        // 3·4096·14336, router 4096·8, norms 2·4096.
        Scenario sc = presetScenario("mixtral-8x7b", "dgx-h100", 1, 1, 8);
        sc.parallel.ep = 8;
        sc.training.global_batch = 64;
        const Estimate e = evaluate(sc);
        const double h = 4096;
        const double dense = 32 * (2 * h * h + 2 * h * 1024 + h * 8 + 2 * h) + 2 * 32000 * h + h;
        const double experts = 32 * 3 * h * 14336;
        QCOMPARE(e.memory.stages[0].weights, 2 * (dense + experts));
        // ZeRO-1: dense optimizer states shard over dp·cp = 8, experts over the expert-dp group
        // tp·cp·dp/(etp·ep) = 1.
        sc.parallel.zero = 1;
        const Estimate z = evaluate(sc);
        QCOMPARE(z.memory.stages[0].optimizer, 12 * (dense / 8 + experts / 1));
    }

    void otherMemoryItemised()
    {
        // Llama-2 7B, TP 2, PP 2, DP 2, default overheads: context 0.5 GiB + workspace 0.25 GiB
        // + 3 communicators (tp, dp, pp) × 128 MiB + 5 % of activations; the last stage adds the
        // fp32 logits 4·s·b·V/t = 4·4096·1·32000/2.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 2, 2, 2);
        sc.training.global_batch = 8;
        const Estimate e = evaluate(sc);
        const StageMemory& first = e.memory.stages[0];
        const StageMemory& last = e.memory.stages[1];
        const double fixed = 0.5 * GiB + 0.25 * GiB + 3 * 128.0 * (1 << 20);
        QCOMPARE(first.other, fixed + 0.05 * first.activations);
        QCOMPARE(term(last, "other.logits").value, 4.0 * 4096 * 1 * 32000 / 2);
        QCOMPARE(last.other, fixed + 0.05 * last.activations + 4.0 * 4096 * 32000 / 2);
        QCOMPARE(first.total(), first.weights + first.gradients + first.optimizer + first.activations + first.other);

        // Configurable: a scenario's overheads change exactly these items.
        sc.overheads.cuda_context_bytes = 0;
        sc.overheads.fragmentation = 0;
        QCOMPARE(evaluate(sc).memory.stages[0].other, 0.25 * GiB + 3 * 128.0 * (1 << 20));
    }

    void zero3GatherBuffer()
    {
        // ZeRO-3 keeps two layers' unsharded (per TP) weights while gathering: 2·layer/t·2 bytes.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
        sc.training.global_batch = 64;
        sc.parallel.zero = 3;
        const Estimate e = evaluate(sc);
        const double layer = 4.0 * 4096 * 4096 + 3.0 * 4096 * 11008 + 2 * 4096;
        QCOMPARE(term(e.memory.stages[0], "other.zero3_gather").value, 2 * layer * 2);
        // Without reshard_after_forward each of the 32 layers stays unsharded from its forward to
        // its backward: 32·layer·2 bytes.
        sc.parallel.reshard_after_forward = false;
        QCOMPARE(term(evaluate(sc).memory.stages[0], "other.zero3_gather").value, 32 * layer * 2);
        // DeepSpeed gathers module by module and caps what is live (stage3_max_live_parameters):
        // with 1e8 live parameters, fewer than the 2·202,383,360 of two layers, 1e8·2 bytes;
        // a cap above two layers changes nothing.
        sc.parallel.reshard_after_forward = true;
        sc.parallel.zero3_max_live_params = 1e8;
        QCOMPARE(term(evaluate(sc).memory.stages[0], "other.zero3_gather").value, 1e8 * 2);
        sc.parallel.zero3_max_live_params = 1e9;
        QCOMPARE(term(evaluate(sc).memory.stages[0], "other.zero3_gather").value, 2 * layer * 2);
    }

    void everyStageTotalIsTheSumOfItsTerms()
    {
        const Estimate e = evaluate(scenarioFromFile("../../resources/scenarios/default.parascope.json"));
        for (const StageMemory& s : e.memory.stages) {
            double other = 0;
            for (const Term& t : s.terms)
                if (t.name.rfind("other.", 0) == 0)
                    other += t.value;
            QCOMPARE(other, s.other);
            QCOMPARE(term(s, "total").value, s.total());
            QCOMPARE(term(s, "weights").value, s.weights);
            QCOMPARE(term(s, "activations").value, s.activations);
            for (const Term& t : s.terms) {
                QVERIFY2(!t.formula.empty(), t.name.c_str());
                QVERIFY2(t.name == "total" || !t.source.empty(), t.name.c_str());
            }
        }
    }

    void memoryOverTheStepFollowsOneFOneB()
    {
        // Llama-2 7B, PP 4, 8 microbatches, 1F1B. By hand (Narayanan et al. 2021 §2.2): rank r
        // runs p − r = 4 − r forwards of warm-up before its first backward, and then one forward
        // per backward, so it holds at most 4 − r microbatches' activations: 4, 3, 2, 1. The lane
        // starts at the model states + other (the floor), climbs one unit per forward to the
        // table's total, and is back at the floor when the last backward is done.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 4, 1);
        sc.training.global_batch = 8;
        sc.training.micro_batch = 1;
        const Estimate e = evaluate(sc);
        QVERIFY(e.timeline.simulated);
        const auto lanes = memoryOverStep(e);
        QCOMPARE(lanes.size(), std::size_t(4));
        for (int r = 0; r < 4; ++r) {
            const StageMemory& s = e.memory.stages[std::size_t(r)];
            const auto& lane = lanes[std::size_t(r)];
            const double floor = s.total() - s.activations;
            QCOMPARE(lane.front().bytes, floor);
            QCOMPARE(lane.back().bytes, floor);
            double peak = 0, first_step_up = 0;
            for (const MemoryPoint& p : lane) {
                peak = std::max(peak, p.bytes);
                if (first_step_up == 0 && p.bytes > floor)
                    first_step_up = p.bytes - floor;
            }
            QCOMPARE(peak, s.total()); // the memory table's total
            QCOMPARE(first_step_up, s.activations / double(4 - r)); // one of 4 − r units
            for (std::size_t i = 1; i < lane.size(); ++i)
                QVERIFY(lane[i].t_s >= lane[i - 1].t_s);
            // Before the step starts: the floor.
            QCOMPARE(memoryAt(lane, -1.0), floor);
        }
    }
};

QTEST_GUILESS_MAIN(TstMemory)
#include "tst_memory.moc"
