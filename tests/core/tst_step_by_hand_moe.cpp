// Step times of MoE layers derived by hand (from tst_step_by_hand), like the dense ones there:
// Mixtral 8x7B with expert parallelism (the all-to-all count per MoE layer, its overlap with
// the experts' compute, and when that overlap is unavailable), and a fine-grained MoE layer
// (grouped GEMMs padded to their row tile, routing bytes, a capacity factor).
//
// The preset numbers each derivation uses are asserted first, so the comments stay true.

#include "by_hand.h"
#include "search/advice.h"

#include <algorithm>
#include <cmath>

using namespace parascope;
using namespace parascope::test;

class TstStepByHandMoe : public QObject {
    Q_OBJECT

private slots:
    void moeWithExpertParallelByHand()
    {
        // Mixtral 8x7B on one DGX H100 node, DP = EP = 8 (ETP = TP = 1: one whole expert per
        // GPU), s = 4096, micro batch 1 (T = 4096 tokens), m = 2 microbatches, selective
        // recompute (the course default): by_hand.h mixtralEp8OnH100. Simulated (the default).
        Scenario sc = mixtralEp8OnH100();
        const GpuSpec& g = sc.cluster.gpu;
        QCOMPARE(g.peak_bf16_flops, 989e12);
        QCOMPARE(g.gemm_efficiency, 0.803);
        QCOMPARE(g.attention_efficiency, 0.534);
        QCOMPARE(g.attention_half_seq, 540.0);
        QCOMPARE(g.sustained_clock, 0.78);
        QCOMPARE(g.gemm_half_flops, 10e9);
        QCOMPARE(g.hbm_bytes_per_s, 3350e9);
        QCOMPARE(g.hbm_efficiency, 0.9);
        QCOMPARE(g.kernel_overhead_s, 150e-6);
        QCOMPARE(sc.cluster.intra_node.bytes_per_s, 450e9);
        QCOMPARE(sc.cluster.intra_node.efficiency, 0.82);
        QCOMPARE(sc.cluster.intra_node.latency_s, 3.4e-6);
        QCOMPARE(sc.cluster.intra_node.half_bytes, 0.0);

        // Rates: GEMM 989e12·0.803·0.78 = 6.1945026e14 FLOP/s times F/(F + 10e9) per GEMM;
        // flash attention (causal) 989e12·0.534·0.78 · s/(s + 540) (head dim 128: factor 1)
        // = 3.639561e14 FLOP/s; HBM 3350e9·0.9 = 3.015e12 B/s.
        const double h = 4096, q = 4096, kv = 1024, a = 32, E = 8, k = 2, fe = 14336, V = 32000;
        const double T = 4096, s = 4096, L = 32, m = 2;
        const double gemm_rate = 989e12 * 0.803 * 0.78, attn_rate = 989e12 * 0.534 * (s / (s + 540)) * 0.78,
                     hbm = 3350e9 * 0.9;
        const auto gemm = [&](double M, double N, double K) {
            const double flops = 2 * M * N * K;
            return flops / (gemm_rate * flops / (flops + 10e9));
        };
        // One MoE layer, one microbatch, forward GEMMs on one GPU:
        //   QKV 2·T·(q + 2kv)·h = 206.2 GFLOP (size factor 0.95374)      → 0.34895 ms
        //   out 2·T·h·q         = 137.4 GFLOP (0.93218)                   → 0.23802 ms
        //   routed experts: the EP group's 8·T·k token-slots spread over its 8 GPUs, one expert
        //     each: T·k = 8192 tokens per GPU (tokens·top_k/TP; time.moe_layer_forward_gemm), a
        //     multiple of the grouped GEMM's 128-row tile
        //     gate+up 2·(T·k)·2f_e·h = 1924.1 GFLOP (0.99483)           → 3.12236 ms
        //     down 2·(T·k)·h·f_e     =  962.1 GFLOP (0.98971)           → 1.56925 ms
        //   router 2·T·E·h = 0.268 GFLOP (size factor 0.02614: tiny)      → 0.01658 ms
        //   lin                                                          = 5.29515 ms
        const double lin
            = gemm(T, q + 2 * kv, h) + gemm(T, h, q) + gemm(T * k, 2 * fe, h) + gemm(T * k, h, fe) + gemm(T, E, h);
        //   attention causal T·2·s·q = 137.4 GFLOP                        att = 0.37763 ms
        const double att = T * 2 * s * q / attn_rate;
        //   elementwise: the MoE layer's activations per token (Korthikanti, flash, TP 1):
        //     10h − 2h + 4E (norms, masks, fp32 router probabilities) + 2q + 4kv + 2q
        //     + 4a (log-sum-exp) + k·(4h + 6f_e) (dispatched in/out, expert SwiGLU) = 258,208 B;
        //     ·s = 1,057,619,968 B / 3.015e12 B/s + 150 µs                 elem = 0.50079 ms
        const double elem
            = s * ((10 * h - 2 * h + 4 * E) + (2 * q + 4 * kv + 2 * q) + 4 * a + k * (4 * h + 6 * fe)) / hbm + 150e-6;
        //   EP all-to-all: dispatch and combine in the forward, again in the backward (4 per MoE
        //     layer), each S = s·b·k·h·2 = 67,108,864 B on the 8 GPUs of the node:
        //     t_a2a = (n−1)·α + (n−1)/n·S/(bw·eff) = 7·3.4 µs + 7/8·S/(450e9·0.82) = 182.933 µs
        const double S = s * k * h * 2;
        const double a2a = 7 * 3.4e-6 + 7.0 / 8.0 * S / (450e9 * 0.82);
        //   routing (memory-bound, each direction): router softmax/top-k 12·E bytes and the
        //     permutation to the k slots and back 4·(1 + k)·h bytes per token (one expert per
        //     GPU: no sort by expert): T·(96 + 49,152)/3.015e12 B/s         = 0.06691 ms
        const double routing = T * (12 * E + 4 * (1 + k) * h) / hbm;
        // Per layer: forward lin + att + elem + 2·t_a2a + routing = 6.60634 ms;
        // input gradient lin + 2.5·att (flash backward) + 2·elem + att (selective recompute
        //   redoes the attention) + 2·t_a2a + routing = 8.05118 ms; weight gradient lin = 5.29515 ms.
        // The output layer 2·T·h·V = 1073.7 GFLOP (0.99077) → H = 1.74952 ms, in F, I and W; the
        // loss reads the T·V bf16 logits once forward, 262.1 MB / 3.015e12 B/s = Λ = 0.08695 ms,
        // and reads them and writes their gradient in the input gradient, 2Λ.
        const double H = gemm(T, V, h), loss = T * V * 2 / hbm;
        const double F = L * (lin + att + elem + 2 * a2a + routing) + H + loss; // 213.239 ms
        const double B
            = L * (lin + 2.5 * att + 2 * elem + att + 2 * a2a + routing) + H + 2 * loss + L * lin + H; // 430.756 ms
        // PP = 1: 1F1B is F B F B on one rank, pipeline = m·(F + B) = 1.287990 s.
        // Tail: the dense gradients (attention, norms, router, embeddings) all-reduce over DP 8
        // inside the node by NVLink SHARP (the H100 preset's measured 480 GB/s busbw, faster than
        // the ring's 369), 1,605,636,096 params in 41 buckets: 41·25 µs + 2·7/8·3.21 GB/(480 GB/s)
        // ≈ 12.7 ms, started with the last backward (415 ms): hidden. The expert-DP group is 8/(1·8) = 1:
        // no expert reduction. The optimizer on the GPU's shard: dense 32·(2h·q + 2h·kv + 2h +
        // h·E) + 2·V·h + h = 1,605,636,096, plus one expert per layer (8 experts over EP 8),
        // 32·3·h·f_e = 5,637,144,576; 28 B each / 3.015e12 B/s = 67.263 ms.
        const double shard = L * (2 * h * q + 2 * h * kv + 2 * h + h * E) + 2 * V * h + h + L * E * 3 * h * fe / 8;
        const double optimizer = shard * 28 / hbm;
        // The last bucket of that reduction is ready only when the backward ends: it cannot hide,
        // α_nvls + 2·7/8·(1,605,636,096·2/41 B)/(480 GB/s) = 25 µs + 285.6 µs = 0.311 ms after the
        // backward (by the ring it would be 14·α + 2·7/8·S/(369 GB/s) = 0.419 ms).
        const double last_bucket = 25e-6 + 2.0 * 7 / 8 * (1605636096.0 * 2 / 41) / 480e9;
        const double step = m * (F + B) + last_bucket + optimizer; // = 1.355564 s
        // Exposed communication: the all-to-alls inside the ops, m·L·4·t_a2a = 46.831 ms, and the
        // last bucket; no bubble.
        const double exposed = m * L * 4 * a2a;

        const Estimate e = evaluate(sc);
        QVERIFY(!e.has("ep_invalid"));
        QCOMPARE(e.time.method, std::string("simulated"));
        QCOMPARE(e.microbatches, 2LL);
        const Term* moe_gemm = findTerm(e.time.terms, "time.moe_layer_forward_gemm");
        QVERIFY(moe_gemm);
        QVERIFY2(near(moe_gemm->value, lin), qPrintable(versus("MoE layer GEMMs", moe_gemm->value, lin)));
        // The plan's all-to-all entry: 4 calls per MoE layer and microbatch, t_a2a each, all exposed.
        const CommEntry* ep = findComm(e, Group::Ep, Collective::AllToAll);
        QVERIFY(ep);
        QCOMPARE(ep->calls_per_step, 4 * L * m);
        QCOMPARE(ep->bytes_per_call, S);
        QVERIFY2(near(ep->time_s, exposed), qPrintable(versus("all-to-all time", ep->time_s, exposed)));
        QVERIFY2(near(ep->exposed_s, exposed), qPrintable(versus("all-to-all exposed", ep->exposed_s, exposed)));
        QVERIFY2(near(e.time.exposed_comm_s, exposed + last_bucket),
                 qPrintable(versus("exposed", e.time.exposed_comm_s, exposed + last_bucket)));
        QVERIFY2(near(e.time.optimizer_s, optimizer), qPrintable(versus("optimizer", e.time.optimizer_s, optimizer)));
        QVERIFY2(near(e.time.step_s, step), qPrintable(versus("step", e.time.step_s, step)));
        QVERIFY(e.time.bubble_fraction < 1e-9);

        // Combined 1F1B (ep_comm_overlap) pairs a forward with the backward that runs beside it:
        // with m = 2 on one rank, F0 alone, then F1 with B0, then B1 alone. In the pair each
        // layer's dispatch and combine, 2·t_a2a = 0.37 ms per direction, hide behind the other
        // direction's compute of the layer (the backward's 10+ ms, the forward's 6.4 ms); F0 and
        // B1 have no partner and keep theirs. Half of the m·L·4·t_a2a = 46.831 ms of all-to-all
        // leaves the step, 23.415 ms, and nothing else moves.
        QVERIFY(2 * a2a < lin + att + elem + routing);
        Scenario overlapped = sc;
        overlapped.parallel.ep_comm_overlap = true;
        const Estimate o = evaluate(overlapped);
        QVERIFY(!o.has("ep_overlap_unavailable"));
        QVERIFY2(near(o.time.step_s, step - exposed / 2),
                 qPrintable(versus("step with EP overlap", o.time.step_s, step - exposed / 2)));
        QVERIFY2(near(o.time.exposed_comm_s, last_bucket + exposed / 2),
                 qPrintable(versus("exposed with EP overlap", o.time.exposed_comm_s, last_bucket + exposed / 2)));
        // Under a pipeline Megatron needs the interleaved schedule: on 1F1B it is not applied, and
        // the report says so.
        Scenario piped = overlapped;
        piped.parallel.pp = 2;
        piped.parallel.dp = 4;
        piped.parallel.ep = 4;
        const Estimate pe = evaluate(piped);
        QVERIFY(pe.has("ep_overlap_unavailable"));
    }

    void optimizerStepsTheShardTheMemoryKeeps()
    {
        // The same Mixtral 8x7B node with the distributed optimizer (ZeRO 1): dense parameters
        // shard over DP = 8, routed experts over the expert-data-parallel group
        // tp·cp·dp/(etp·ep) = 8/8 = 1 — each GPU keeps its one expert per layer whole. Dense
        // 32·(2h·q + 2h·kv + 2h + h·E) + 2·V·h + h = 1,605,636,096 → /8 = 200,704,512, experts
        // 32·3·h·f_e = 5,637,144,576: 5,837,849,088 parameters, 28 B each / 3.015e12 B/s =
        // 54.215 ms (sharding the experts over DP too would have said 9.2 ms).
        Scenario sc = mixtralEp8OnH100();
        sc.parallel.zero = 1;
        const double h = 4096, q = 4096, kv = 1024, E = 8, fe = 14336, V = 32000, L = 32, hbm = 3350e9 * 0.9;
        const double dense = L * (2 * h * q + 2 * h * kv + 2 * h + h * E) + 2 * V * h + h, experts = L * 3 * h * fe;
        const double shard = dense / 8 + experts;
        const Estimate e = evaluate(sc);
        QVERIFY2(near(e.time.optimizer_s, shard * 28 / hbm),
                 qPrintable(versus("optimizer", e.time.optimizer_s, shard * 28 / hbm)));
        // The memory keeps the same shard: fp32 master, m and v, 12 B a parameter.
        QVERIFY2(near(e.memory.stages.front().optimizer, shard * 12),
                 qPrintable(versus("optimizer states", e.memory.stages.front().optimizer, shard * 12)));
    }

    void expertShardsGatherEveryMicrobatch()
    {
        // Mixtral 8x7B fully sharded (ZeRO-3) over two DGX H100 nodes with EP 1: each layer's 8
        // experts shard over the expert-data-parallel group (all 16 GPUs) and are gathered every
        // microbatch like the dense weights, forward and again backward (resharded after the
        // forward), and their gradients reduce-scattered. One round for the rank: AG = Σ all-gather
        // time / rounds over the dense (Dp) and expert (Edp) entries, RS likewise. At 1024 tokens a
        // microbatch the GPU computes far less than that moves, so beyond the 0.7 of the compute
        // that prefetch hides (time/zero_costs.cpp kZeroOverlap; the first gather and the last
        // reduce-scatter, which cannot hide, are inside the same sum) all of it is exposed:
        //   exposed = m·(AG + AG + RS) − 0.7·compute, m = 2.
        // (Until 2026-12-07 only the dense entries were charged: the experts' 93 % of the traffic
        // ran for free and the step came out shorter than its own link time.)
        Scenario sc = presetScenario("mixtral-8x7b", "dgx-h100", 1, 1, 16);
        sc.parallel.zero = 3;
        sc.parallel.ep = 1;
        sc.training.seq_len = 1024;
        sc.training.micro_batch = 1;
        sc.training.global_batch = 32;
        const Estimate e = evaluate(sc);
        QCOMPARE(e.microbatches, 2LL);
        double ag = 0, rs = 0, expert_ag = 0;
        for (const CommEntry& c : e.communication) {
            if (c.group != Group::Dp && c.group != Group::Edp)
                continue;
            if (c.purpose == Purpose::Parameters)
                ag += c.time_s / c.rounds;
            if (c.purpose == Purpose::Gradients)
                rs += c.time_s / c.rounds;
            if (c.group == Group::Edp && c.purpose == Purpose::Parameters)
                expert_ag = c.time_s / c.rounds;
        }
        QVERIFY(expert_ag > 0.9 * ag);
        QVERIFY(2 * (2 * ag + rs) > e.time.compute_s); // communication-bound
        const double exposed = 2 * (2 * ag + rs) - 0.7 * e.time.compute_s;
        QVERIFY2(near(e.time.exposed_comm_s, exposed), qPrintable(versus("exposed", e.time.exposed_comm_s, exposed)));
        QVERIFY(e.time.step_s >= 2 * (2 * ag + rs));
        // What breaks names the experts' gathers and what shrinks them: EP 2 halves each GPU's
        // share (8 experts, 16 GPUs: valid).
        const auto high = std::find_if(e.diagnostics.begin(), e.diagnostics.end(),
                                       [](const Diagnostic& d) { return d.code == "exposed_comm_high"; });
        QVERIFY(high != e.diagnostics.end());
        QVERIFY2(high->message.en.find("expert DP AllGather") != std::string::npos, high->message.en.c_str());
        QVERIFY2(high->suggestion.en.find("raise EP to 2") != std::string::npos, high->suggestion.en.c_str());
        QVERIFY(high->suggestion.zh.find("把专家并行（EP）提高到 2") != std::string::npos);
        // The Advisor evaluates that change: EP 2 moves half the expert bytes and shortens the step.
        const AdviceList advice = advise(sc, e);
        const auto ep2 = std::find_if(advice.items.begin(), advice.items.end(), [](const Advice& a) {
            return a.code == "exposed_comm_high" && a.changes.size() == 1 && a.changes[0].path == "parallel.ep"
                && a.changes[0].value == 2;
        });
        QVERIFY(ep2 != advice.items.end());
        QVERIFY(ep2->step_s < e.time.step_s);

        // TP 2 (DP 8 at stride 2, still across both nodes): the ZeRO collectives go over the
        // network while TP's all-gathers and reduce-scatters use NVLink, so prefetch also runs
        // beside the TP time the passes expose: exposed = TP + m·(AG + AG + RS) − 0.7·(compute + TP),
        // m = 4.
        sc.parallel.tp = 2;
        sc.parallel.dp = 8;
        sc.parallel.sequence_parallel = true;
        const Estimate t = evaluate(sc);
        double tag = 0, trs = 0, tp = 0;
        for (const CommEntry& c : t.communication) {
            if (c.group == Group::Tp) {
                QCOMPARE(c.link, Link::NvLink);
                tp += c.exposed_s;
            }
            if (c.group != Group::Dp && c.group != Group::Edp)
                continue;
            QCOMPARE(c.link, Link::Network);
            (c.purpose == Purpose::Parameters ? tag : trs) += c.time_s / c.rounds;
        }
        QVERIFY(tp > 0);
        const double tm = double(t.microbatches); // 32 sequences over DP 8: 4
        QCOMPARE(tm, 4.0);
        const double t_exposed = tp + tm * (2 * tag + trs) - 0.7 * (t.time.compute_s + tp);
        QVERIFY2(near(t.time.exposed_comm_s, t_exposed),
                 qPrintable(versus("exposed beside TP", t.time.exposed_comm_s, t_exposed)));
    }

    void gatherBufferHoldsTheGpusShare()
    {
        // ZeRO-3 gathers each GPU's own share of a layer: with EP 8 a Mixtral 8x7B layer is its
        // attention 2h·q + 2h·kv = 41,943,040, router h·E = 32,768 and norms 2h = 8,192 whole
        // (TP 1) and one of its 8 experts, 3·h·f_e = 176,160,768: 218,144,768 parameters. Prefetch
        // one layer ahead holds two layers, bf16: 872,579,072 bytes (not the whole layer's 8
        // experts: 2.9 GB).
        Scenario sc = mixtralEp8OnH100();
        sc.parallel.zero = 3;
        const double h = 4096, q = 4096, kv = 1024, E = 8, fe = 14336;
        const double layer = 2 * h * q + 2 * h * kv + h * E + 2 * h + 3 * h * fe;
        QCOMPARE(layer, 218144768.0);
        const Estimate e = evaluate(sc);
        const Term* gather = findTerm(e.memory.stages.front().terms, "other.zero3_gather");
        QVERIFY(gather);
        QVERIFY2(near(gather->value, 2 * layer * 2), qPrintable(versus("gather buffer", gather->value, 2 * layer * 2)));
    }

    void fineGrainedMoeByHand()
    {
        // A fine-grained MoE layer (Qwen3-MoE style: 128 experts of width 768, top 8; h 2048,
        // 32 heads of 128, 4 KV heads) on one DGX H100 node, EP 8 → 16 local experts per GPU,
        // TP 1, T = 1000 tokens. Each expert gets T·k/16 = 500 rows, padded to the grouped
        // GEMM's 128-row tile: 512, so the grouped GEMM has R = 16·512 = 8192 rows.
        Scenario sc = scenarioFromJson(R"({"schema":"parascope.scenario/1","model":{"layers":2,"hidden":2048,"heads":32,
            "kv_heads":4,"head_dim":128,"ffn_hidden":6144,"vocab":1000,"moe":{"experts":128,"top_k":8,"ffn_hidden":768}},
            "cluster":"dgx-h100","parallel":{"tp":1,"pp":1,"dp":8,"ep":8},
            "training":{"seq_len":1000,"micro_batch":1,"global_batch":8,"recompute":"none"}})");
        const double h = 2048, q = 4096, kv = 512, E = 128, k = 8, fe = 768, T = 1000;
        const double gemm_rate = 989e12 * 0.803 * 0.78, hbm = 3350e9 * 0.9;
        // A GEMM of F FLOPs takes (F + 10e9)/rate (size curve, H100 half size 10 GFLOP).
        const auto gemm = [&](double M, double N, double K) { return (2 * M * N * K + 10e9) / gemm_rate; };
        const auto moeGemm
            = [&](const Estimate& e) { return findTerm(e.time.terms, "time.moe_layer_forward_gemm")->value; };
        const auto routing = [&](const Estimate& e) { return findTerm(e.time.terms, "time.moe_routing")->value; };
        const double attention = gemm(T, q + 2 * kv, h) + gemm(T, h, q), router = gemm(T, E, h);
        const double R = 16 * 512;
        const Estimate dropless = evaluate(sc);
        QVERIFY2(near(moeGemm(dropless), attention + gemm(R, 2 * fe, h) + gemm(R, h, fe) + router),
                 qPrintable(versus("grouped GEMM", moeGemm(dropless),
                                   attention + gemm(R, 2 * fe, h) + gemm(R, h, fe) + router)));
        // Routing per direction: 12·E (router scores) + 4·(1 + k)·h (permute and back) + 8·k·h
        // (sort by local expert after the all-to-all and back) bytes per token.
        QVERIFY(near(routing(dropless), T * (12 * E + 4 * (1 + k) * h + 8 * k * h) / hbm));
        // Capacity factor 1.25: every expert padded to 625 rows → 640 after the tile; the
        // all-to-all carries 1.25× the tokens.
        sc.training.moe_capacity_factor = 1.25;
        const Estimate capped = evaluate(sc);
        const double Rc = 16 * 640;
        QVERIFY(near(moeGemm(capped), attention + gemm(Rc, 2 * fe, h) + gemm(Rc, h, fe) + router));
        QVERIFY(near(findComm(capped, Group::Ep, Collective::AllToAll)->bytes_per_call,
                     1.25 * findComm(dropless, Group::Ep, Collective::AllToAll)->bytes_per_call));
    }
};

QTEST_GUILESS_MAIN(TstStepByHandMoe)
#include "tst_step_by_hand_moe.moc"
