// Communication per parallel group and collective: bus-bandwidth factors, α–β times (flat and
// hierarchical), and the volumes each kind of parallelism sends per step.

#include "comm/collective_cost.h"
#include "comm/comm_volume.h"
#include "scenario_fixture.h"

using namespace parascope;
using namespace parascope::test;

class TstCommunication : public QObject {
    Q_OBJECT

    static const CommEntry& entry(const Estimate& e, const std::string& group, const std::string& collective,
                                  const std::string& purpose)
    {
        for (const CommEntry& c : e.communication)
            if (toString(c.group) == group && toString(c.collective) == collective && toString(c.purpose) == purpose)
                return c;
        qFatal("no %s %s %s entry", group.c_str(), collective.c_str(), purpose.c_str());
    }
    static bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::abs(b); }

    // DGX A100 (preset): NVLink 300 GB/s × 0.77, α 3.4 µs; HDR 25 GB/s × 0.96, α 6 µs.
    static ClusterSpec dgx() { return presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1).cluster; }

private slots:
    void busBandwidthFactors()
    {
        // nccl-tests PERFORMANCE.md: all-reduce 2(n−1)/n, all-gather/reduce-scatter/all-to-all (n−1)/n.
        QCOMPARE(busFactor(Collective::AllReduce, 8), 1.75);
        QCOMPARE(busFactor(Collective::AllGather, 8), 0.875);
        QCOMPARE(busFactor(Collective::ReduceScatter, 4), 0.75);
        QCOMPARE(busFactor(Collective::AllToAll, 2), 0.5);
        QCOMPARE(busFactor(Collective::SendRecv, 2), 1.0);
        QCOMPARE(busFactor(Collective::AllReduce, 1), 0.0);
    }

    void flatRingInsideANode()
    {
        // 8 GPUs on NVLink, S = 1 GB: t = 2·7·3.4 µs + 1.75·1e9 / (300e9·0.77).
        const ClusterSpec c = dgx();
        const GroupPlacement g = placeGroup(Group::Tp, 8, 1, c);
        const double t = collectiveTime(Collective::AllReduce, 1e9, g, c).seconds;
        QVERIFY(close(t, 14 * 3.4e-6 + 1.75 * 1e9 / (300e9 * 0.77)));
    }

    void ringAcrossNodes()
    {
        // 8 members, one per node (stride 8): t = 14·6 µs + 1.75·S / (25e9·0.96).
        const ClusterSpec c = dgx();
        const GroupPlacement g = placeGroup(Group::Dp, 8, 8, c);
        QVERIFY(
            close(collectiveTime(Collective::AllReduce, 1e9, g, c).seconds, 14 * 6e-6 + 1.75 * 1e9 / (25e9 * 0.96)));
    }

    void allReduceOverTwoNodes()
    {
        // 8 members, 4 per node on 2 nodes (stride 2). Hierarchical: NVLink ring over k = 4 on
        // S, then the network over N = 2 on S/k, per docs/reference/schedules-and-comm.md §3.3:
        // t = 2·3·3.4 µs + 1.5·S/(231e9) + 2·1·6 µs + 1·(S/4)/(24e9) = 14.06 ms.
        const ClusterSpec c = dgx();
        const GroupPlacement g = placeGroup(Group::Dp, 8, 2, c);
        QCOMPARE(g.ranks_per_node, std::int64_t(4));
        const double S = 1e9;
        QVERIFY(close(collectiveTime(CollectiveAlgorithm::Hierarchical, Collective::AllReduce, S, g, c).seconds,
                      6 * 3.4e-6 + 1.5 * S / 231e9 + 2 * 6e-6 + (S / 4) / 24e9));
        // NCCL's ring, what the engine runs: 4 channels of S/4, each step S/32 on every NIC and
        // 3 of them on each GPU's NVLink, the two levels at once:
        // 14·max(6 µs + S/32/24e9, 3.4 µs + 3·S/32/231e9) = 14·1.308 ms = 18.31 ms — slower than
        // hierarchical here (only 4 NICs of the node carry it), faster than the tree's
        // 2(6 µs + 3·3.4 µs) + max(2S/(4·24e9), 2S/231e9)/0.92 = 22.68 ms.
        const double ring = 14 * std::max(6e-6 + S / 32 / 24e9, 3.4e-6 + 3 * S / 32 / 231e9);
        QCOMPARE(assumedAlgorithm(Collective::AllReduce, S, g, c), CollectiveAlgorithm::Ring);
        QVERIFY(close(collectiveTime(Collective::AllReduce, S, g, c).seconds, ring));
    }

    void tensorParallelVolume()
    {
        // Llama-2 7B, TP 8, no SP, 4 microbatches (global 4, micro 1, DP 1): per layer 2 AR
        // forward + 2 backward of S = s·b·h·2 = 4096·4096·2 → 4·32·4 = 512 calls.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 8, 1, 1);
        sc.training.global_batch = 4;
        Estimate e = evaluate(sc);
        const CommEntry& ar = entry(e, "tp", "all_reduce", "activations");
        const double S = 4096.0 * 4096 * 2;
        QCOMPARE(ar.calls_per_step, 512.0);
        QCOMPARE(ar.bytes_per_call, S);
        QCOMPARE(ar.bytes_per_gpu_per_step, 512 * S * 1.75);
        QCOMPARE(ar.link, Link::NvLink);
        QCOMPARE(ar.exposed_s, ar.time_s); // no --tp-comm-overlap: on the critical path

        // With SP the all-reduce becomes all-gather + reduce-scatter: same bytes in total.
        sc.parallel.sequence_parallel = true;
        e = evaluate(sc);
        const CommEntry& ag = entry(e, "tp", "all_gather", "activations");
        const CommEntry& rs = entry(e, "tp", "reduce_scatter", "activations");
        QCOMPARE(ag.calls_per_step, 512.0);
        QCOMPARE(ag.bytes_per_gpu_per_step + rs.bytes_per_gpu_per_step, 512 * S * 1.75);
    }

    void dataParallelRingNotTextbook()
    {
        // Course case 3: 7B on DP 8. A ring all-reduce sends 2(N−1)/N·Ψ·2 bytes per GPU
        // (1.75 × 13.48 GB = 23.6 GB), not the seed's 2·Ψ·DP; ZeRO-1 (reduce-scatter +
        // all-gather) sends exactly the same.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
        sc.training.global_batch = 64;
        const double psi = 6738415616.0;
        const CommEntry ar = entry(evaluate(sc), "dp", "all_reduce", "gradients");
        QVERIFY(close(ar.bytes_per_gpu_per_step, 1.75 * psi * 2));
        QCOMPARE(ar.calls_per_step, std::ceil(psi / 40e6)); // Megatron buckets of max(40M, 1M·dp)
        sc.parallel.zero = 1;
        const Estimate z1 = evaluate(sc);
        const double zero1 = entry(z1, "dp", "reduce_scatter", "gradients").bytes_per_gpu_per_step
            + entry(z1, "dp", "all_gather", "parameters").bytes_per_gpu_per_step;
        QVERIFY(close(zero1, ar.bytes_per_gpu_per_step));
        // ZeRO-3 with one microbatch: all-gather forward + backward + reduce-scatter = 1.5×.
        sc.parallel.zero = 3;
        sc.training.global_batch = 8;
        const Estimate z3 = evaluate(sc);
        const double zero3 = entry(z3, "dp", "all_gather", "parameters").bytes_per_gpu_per_step
            + entry(z3, "dp", "reduce_scatter", "gradients").bytes_per_gpu_per_step;
        QVERIFY(close(zero3, 1.5 * ar.bytes_per_gpu_per_step));
    }

    void gradientCompressionAndBuckets()
    {
        // The communication module's what-ifs on course case 3 (7B, DP 8, ZeRO-0 on one DGX A100
        // node, Ψ = 6,738,415,616). The ring all-reduce sends 2·7/8·Ψ·w bytes per GPU with w the
        // bytes per gradient element on the wire: bf16 2, fp8 1, 1-bit 1/8 — 23.6 GB, 11.8 GB,
        // 1.47 GB.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
        sc.training.global_batch = 64;
        const double psi = 6738415616.0;
        const Estimate base = evaluate(sc);
        QVERIFY(close(entry(base, "dp", "all_reduce", "gradients").bytes_per_gpu_per_step, 1.75 * psi * 2));
        for (const auto& [comm, wire] : {std::pair{GradComm::Fp8, 1.0}, std::pair{GradComm::OneBit, 1.0 / 8}}) {
            Scenario c = sc;
            c.training.grad_comm = comm;
            const Estimate e = evaluate(c);
            QVERIFY(close(entry(e, "dp", "all_reduce", "gradients").bytes_per_gpu_per_step, 1.75 * psi * wire));
            // The compression pass, memory-bound, once per step (ZeRO-0): Ψ · 2·(2 + w) bytes, plus
            // 8 for 1-bit's error feedback, at the A100's 2,039 GB/s × 0.9 (preset).
            const double bytes = 2 * (2 + wire) + (comm == GradComm::OneBit ? 8 : 0);
            bool found = false;
            for (const Term& t : e.time.terms)
                if (t.name == "time.grad_compress") {
                    found = true;
                    QVERIFY(close(t.value, psi * bytes / (2039e9 * 0.9)));
                }
            QVERIFY(found);
            // 1-bit keeps an fp32 error-feedback buffer with the gradients: 2 + 4 bytes per parameter.
            if (comm == GradComm::OneBit)
                QVERIFY(close(e.memory.stages[0].gradients, 6 * psi));
        }
        // Buckets: 100 M parameters each → ⌈Ψ/1e8⌉ = 68 calls of 1.75·Ψ·2/68 bytes per GPU.
        Scenario b = sc;
        b.parallel.grad_bucket_mparams = 100;
        const CommEntry big = entry(evaluate(b), "dp", "all_reduce", "gradients");
        QCOMPARE(big.calls_per_step, std::ceil(psi / 1e8));
        QVERIFY(close(big.bytes_per_gpu_per_step, 1.75 * psi * 2));
        // One bucket for everything: nothing can overlap the backward, since the last (only)
        // bucket is ready when the backward ends; the whole all-reduce is exposed.
        b.parallel.grad_bucket_mparams = 1e4;
        const Estimate one = evaluate(b);
        const CommEntry whole = entry(one, "dp", "all_reduce", "gradients");
        QCOMPARE(whole.calls_per_step, 1.0);
        QVERIFY(one.time.exposed_comm_s >= whole.time_s * (1 - 1e-9));
        QVERIFY(one.time.step_s > base.time.step_s);
    }

    void fsdpGathersPerLayer()
    {
        // ZeRO-3 / FSDP, Llama-2 7B (32 layers) on DP 64 = 8 nodes × 8 A100, 8 microbatches per GPU.
        // One FSDP unit per layer: per microbatch the forward gathers each layer and the backward
        // gathers it again (that gather also serves full recompute: 2, not 3), and the backward
        // reduce-scatters each layer's gradients. S = Ψ·2/32 (bf16 weights), Ψ·4/32 (fp32 grads).
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 64);
        sc.parallel.zero = 3;
        sc.training.global_batch = 512;
        sc.training.grad_dtype = GradDtype::Fp32;
        const double psi = 6738415616.0, m = 8;
        for (const Recompute r : {Recompute::Selective, Recompute::Full}) {
            sc.training.recompute = r;
            const Estimate e = evaluate(sc);
            const CommEntry& ag = entry(e, "dp", "all_gather", "parameters");
            QCOMPARE(ag.calls_per_step, 2 * 32 * m);
            QVERIFY(close(ag.bytes_per_call, psi * 2 / 32));
            const CommEntry& rs = entry(e, "dp", "reduce_scatter", "gradients");
            QCOMPARE(rs.calls_per_step, 32 * m);
            QVERIFY(close(rs.bytes_per_call, psi * 4 / 32));
            // NCCL drives every rail of a node: 8 channels (one per NIC) of S/8, each of the 63
            // steps a chunk S/(64·8) on every NIC and 7 of them on each GPU's NVLink at once,
            // not a flat ring through one NIC each:
            //   t = 63·max(α_net + S/512/busbw_net(S), α_nvl + 7·S/512/busbw_nvl(S)).
            const double S = ag.bytes_per_call;
            const LinkSpec &nvl = sc.cluster.intra_node, &net = sc.cluster.inter_node;
            const double t = 63
                * std::max(net.latency_s + S / 512 / net.busBytesPerS(S),
                           nvl.latency_s + 7 * S / 512 / nvl.busBytesPerS(S));
            QVERIFY(close(ag.time_s, ag.calls_per_step * t));
            QCOMPARE(ag.algorithm, CollectiveAlgorithm::Ring);
            QVERIFY(t < 0.5 * 63 * (net.latency_s + S / 64 / net.busBytesPerS(S))); // the flat ring's
        }
        // reshard_after_forward = false keeps the forward's gathered weights for the backward:
        // one gather per layer and microbatch.
        sc.parallel.reshard_after_forward = false;
        QCOMPARE(entry(evaluate(sc), "dp", "all_gather", "parameters").calls_per_step, 32 * m);
    }

    void fp8Gathers()
    {
        // Llama-2 7B (h = 4096, L = 32) on one DGX H100 node, TP 8 + SP, s = 4096, micro batch 1,
        // global batch 8 → m = 8 microbatches, selective recompute, FP8 with fp8_comm: per layer
        // the forward's 2 all-gathers carry the FP8 inputs, S = 4096·4096·1 = 16,777,216 B
        // (2·L·m = 512 calls); the backward's 2 gather bf16 output gradients, S = 33,554,432 B
        // (512 calls); the 4 reduce-scatters stay bf16 (1024 calls).
        Scenario sc = presetScenario("llama2-7b", "dgx-h100", 8, 1, 1);
        sc.parallel.sequence_parallel = true;
        sc.training.seq_len = 4096;
        sc.training.micro_batch = 1;
        sc.training.global_batch = 8;
        sc.training.precision = Precision::Fp8;
        sc.training.fp8_comm = true;
        const Estimate e = evaluate(sc);
        const CommEntry& fwd = entry(e, "tp", "all_gather", "activations");
        const CommEntry& bwd = entry(e, "tp", "all_gather", "gradients");
        QCOMPARE(fwd.bytes_per_call, 16777216.0);
        QCOMPARE(fwd.calls_per_step, 512.0);
        QCOMPARE(bwd.bytes_per_call, 33554432.0);
        QCOMPARE(bwd.calls_per_step, 512.0);
        QCOMPARE(entry(e, "tp", "reduce_scatter", "activations").calls_per_step, 1024.0);
        // FSDP (ZeRO-3) over DP 8, TP 1: each layer's parameters gathered in FP8, half the bytes.
        Scenario z = presetScenario("llama2-7b", "dgx-h100", 1, 1, 8);
        z.parallel.zero = 3;
        z.training.precision = Precision::Fp8;
        const double bf16_gather = entry(evaluate(z), "dp", "all_gather", "parameters").bytes_per_call;
        z.training.fp8_comm = true;
        QCOMPARE(entry(evaluate(z), "dp", "all_gather", "parameters").bytes_per_call, bf16_gather / 2);
    }

    void contextParallelCommTypes()
    {
        // Llama 3.1 8B (q = 4096, k = v = 8·128 = 1024), one DGX H100 node, TP 1, CP 4, s = 32768
        // (8192 tokens per CP rank), micro batch 1, global batch 8 → m = 8 microbatches, L = 32,
        // selective recompute.
        Scenario sc = presetScenario("llama3.1-8b", "dgx-h100", 1, 1, 1);
        sc.parallel.cp = 4;
        sc.training.seq_len = 32768;
        sc.training.micro_batch = 1;
        sc.training.global_batch = 8;
        const double L = 32, m = 8;
        // a2a (Ulysses): per layer one all-to-all of Q, K, V each way, S = 8192·(4096 + 1024 +
        // 1024)·2 = 100,663,296 B, and one of the output, S = 8192·4096·2 = 67,108,864 B; forward
        // and backward: 2·L·m calls each. Inside the node: t = 3·3.4 µs + 3/4·S/(450e9·0.82).
        sc.parallel.cp_comm = CpComm::A2a;
        Estimate e = evaluate(sc);
        QVERIFY(!e.has("cp_a2a_heads_not_divisible"));
        const CommEntry& qkv = entry(e, "cp", "all_to_all", "kv");
        const CommEntry& out = entry(e, "cp", "all_to_all", "activations");
        QCOMPARE(qkv.bytes_per_call, 100663296.0);
        QCOMPARE(out.bytes_per_call, 67108864.0);
        QCOMPARE(qkv.calls_per_step, 2 * L * m);
        QCOMPARE(out.calls_per_step, 2 * L * m);
        QVERIFY(close(qkv.time_s / qkv.calls_per_step, 3 * 3.4e-6 + 0.75 * 100663296.0 / (450e9 * 0.82)));
        // Nothing hides them: every call is exposed.
        QVERIFY(close(qkv.exposed_s, qkv.time_s));
        QVERIFY(close(out.exposed_s, out.time_s));
        // allgather: all keys and values, S = 32768·(1024 + 1024)·2 = 134,217,728 B, gathered
        // once per layer forward (L·m) and their gradients reduce-scattered once per layer backward.
        sc.parallel.cp_comm = CpComm::AllGather;
        e = evaluate(sc);
        const CommEntry& ag = entry(e, "cp", "all_gather", "kv");
        const CommEntry& rs = entry(e, "cp", "reduce_scatter", "gradients");
        QCOMPARE(ag.bytes_per_call, 134217728.0);
        QCOMPARE(ag.calls_per_step, L * m);
        QCOMPARE(rs.bytes_per_call, 134217728.0);
        QCOMPARE(rs.calls_per_step, L * m);
        QVERIFY(close(ag.exposed_s, ag.time_s));
        // The ring (p2p) sends 2·8192·1024·2 = 33,554,432 B per step of the ring instead.
        sc.parallel.cp_comm = CpComm::P2p;
        QCOMPARE(entry(evaluate(sc), "cp", "send_recv", "kv").bytes_per_call, 33554432.0);
    }

    void hybridShardingInsideNodes()
    {
        // HSDP: the same 7B FSDP run with shard groups of 8 (one node each) and 8 replicas.
        // Gathers and reduce-scatters stay inside the node (NVLink ring of 8):
        //   t_AG = 7·α_nvl + 7/8·S/busbw_nvl(S), S = Ψ·2/32;
        // once per step the fp32 gradient shard Ψ·4/8 is all-reduced across the 8 replicas (one
        // GPU per node, stride 8 ranks): 2·7/8·Ψ·4/8 bytes per GPU, over the network, in
        // ceil(Ψ / 40M) = 169 buckets.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 64);
        sc.parallel.zero = 3;
        sc.training.global_batch = 512;
        sc.training.grad_dtype = GradDtype::Fp32;
        const Estimate fsdp = evaluate(sc);
        sc.parallel.shard_size = 8;
        const Estimate hsdp = evaluate(sc);
        const double psi = 6738415616.0, m = 8;
        const CommEntry& ag = entry(hsdp, "dp", "all_gather", "parameters");
        QCOMPARE(ag.group_size, std::int64_t(8));
        QCOMPARE(ag.link, Link::NvLink);
        QCOMPARE(ag.calls_per_step, 2 * 32 * m);
        const double S = psi * 2 / 32;
        const LinkSpec& nvl = sc.cluster.intra_node;
        QVERIFY(close(ag.time_s, ag.calls_per_step * (7 * nvl.latency_s + 7.0 / 8 * S / nvl.busBytesPerS(S))));
        QCOMPARE(entry(hsdp, "dp", "reduce_scatter", "gradients").group_size, std::int64_t(8));
        const CommEntry& ar = entry(hsdp, "dp", "all_reduce", "gradients");
        QCOMPARE(ar.group_size, std::int64_t(8));
        QCOMPARE(ar.nodes_spanned, std::int64_t(8));
        QCOMPARE(ar.link, Link::Network);
        QCOMPARE(ar.calls_per_step, 169.0);
        QVERIFY(close(ar.bytes_per_gpu_per_step, 2.0 * 7 / 8 * psi * 4 / 8));
        // The states are sharded 8 ways instead of 64: 8× the optimizer memory per GPU.
        QVERIFY(close(hsdp.memory.stages[0].optimizer, 8 * fsdp.memory.stages[0].optimizer));
        // A shard size that does not divide DP·CP is an error (tst_diagnostics), 0 is full sharding.
        sc.parallel.shard_size = 0;
        QVERIFY(close(evaluate(sc).memory.stages[0].optimizer, fsdp.memory.stages[0].optimizer));
    }

    void pipelineSendRecv()
    {
        // Default scenario (Llama-2 70B, TP 8 + SP, PP 8, 64 microbatches): one activation and
        // one gradient per microbatch, S = s·b·h·2/t = 4096·8192·2/8, over the network.
        const Estimate e = evaluate(scenarioFromFile("../../resources/scenarios/default.parascope.json"));
        const CommEntry& fwd = entry(e, "pp", "send_recv", "activations");
        QCOMPARE(fwd.calls_per_step, 64.0);
        QCOMPARE(fwd.bytes_per_call, 4096.0 * 8192 * 2 / 8);
        QCOMPARE(fwd.link, Link::Network);
        // Only the fill and the drain are exposed: (p − 1) transfers.
        QVERIFY(close(fwd.exposed_s, fwd.time_s / 64 * 7));

        // Interleaving crosses v times as many stage boundaries (Narayanan 2021 §2.2.2).
        Scenario sc = scenarioFromFile("../../resources/scenarios/default.parascope.json");
        sc.parallel.schedule = ScheduleKind::Interleaved;
        sc.parallel.vpp = 2;
        QCOMPARE(entry(evaluate(sc), "pp", "send_recv", "activations").calls_per_step, 128.0);
    }

    void pipelineBoundaryLinks()
    {
        // Llama-2 7B (32 layers) on PP 16, TP 1, DP 1: stage r is rank r, 8 GPUs per node. Ranks
        // 0–7 share node 0 and 8–15 node 1, so of the 15 boundaries only 7→8 crosses the network.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 16, 1);
        Estimate e = evaluate(sc);
        QCOMPARE(e.placement.pp_boundaries.size(), std::size_t(15));
        for (const PipelineBoundary& b : e.placement.pp_boundaries) {
            QCOMPARE(b.to_rank, b.from_rank + 1);
            QCOMPARE(b.link, b.from_rank == 7 ? Link::Network : Link::NvLink);
        }
        // One send per boundary: α + S/busbw(S) over that boundary's link, S = s·b·h·2.
        const CommEntry& fwd = entry(e, "pp", "send_recv", "activations");
        const double S = 4096.0 * 1 * 4096 * 2;
        const LinkSpec &nvl = sc.cluster.intra_node, &net = sc.cluster.inter_node;
        const double t_nvl = nvl.latency_s + S / nvl.busBytesPerS(S), t_net = net.latency_s + S / net.busBytesPerS(S);
        QCOMPARE(fwd.boundaries.size(), std::size_t(15));
        QVERIFY(close(fwd.boundaries[0].seconds, t_nvl));
        QVERIFY(close(fwd.boundaries[7].seconds, t_net));
        QVERIFY(t_net > 5 * t_nvl);
        // The entry is a GPU at the slowest boundary: the network one.
        QCOMPARE(fwd.link, Link::Network);
        QVERIFY(close(fwd.time_s, fwd.calls_per_step * t_net));

        // Interleaved (v = 2): the last rank hands its chunk back to rank 0, across nodes.
        sc.parallel.schedule = ScheduleKind::Interleaved;
        sc.parallel.vpp = 2;
        sc.training.global_batch = 32;
        e = evaluate(sc);
        QCOMPARE(e.placement.pp_boundaries.size(), std::size_t(16));
        QCOMPARE(e.placement.pp_boundaries.back().from_rank, 15);
        QCOMPARE(e.placement.pp_boundaries.back().to_rank, 0);
        QCOMPARE(e.placement.pp_boundaries.back().link, Link::Network);

        // TP 2 × PP 4 = 8 GPUs: one node, every boundary on NVLink.
        e = evaluate(presetScenario("llama2-7b", "dgx-a100-80g", 2, 4, 1));
        QCOMPARE(e.placement.pp_boundaries.size(), std::size_t(3));
        for (const PipelineBoundary& b : e.placement.pp_boundaries)
            QCOMPARE(b.link, Link::NvLink);
        QCOMPARE(entry(e, "pp", "send_recv", "gradients").link, Link::NvLink);

        // TP 2 × DP 3 per stage (6 ranks), 8 per node: stage 0 = ranks 0–5, stage 1 = 6–11; rank
        // 2 sends to rank 8 on the next node, so the boundary is a network one although ranks 0 and
        // 6 share a node.
        ClusterSpec cl = sc.cluster;
        ParallelConfig p;
        p.tp = 2;
        p.dp = 3;
        p.pp = 2;
        QCOMPARE(pipelineBoundaries(p, cl).front().link, Link::Network);
    }

    void contextParallelRing()
    {
        // Llama-2 7B, CP 2 (TP 1), global 2 → 1 microbatch: per layer 3·(cp−1) sends of the
        // K/V chunk 2·(s/cp)·b·(g·d)·2 = 2·2048·4096·2 bytes → 3·32 = 96 calls.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1);
        sc.parallel.cp = 2;
        sc.training.global_batch = 1;
        const CommEntry kv = entry(evaluate(sc), "cp", "send_recv", "kv"); // a copy: the estimate is a temporary
        QCOMPARE(kv.calls_per_step, 96.0);
        QCOMPARE(kv.bytes_per_call, 2.0 * 2048 * 4096 * 2);
    }

    void expertAllToAll()
    {
        // Mixtral, EP 8 over DP 8, 1 microbatch: 4 all-to-all per MoE layer (dispatch, combine,
        // forward and backward), S = s·b·top_k·h·2 = 4096·2·4096·2.
        Scenario sc = presetScenario("mixtral-8x7b", "dgx-h100", 1, 1, 8);
        sc.parallel.ep = 8;
        sc.training.global_batch = 8;
        const Estimate e = evaluate(sc); // kept: entry() returns a reference into it
        const CommEntry& a2a = entry(e, "ep", "all_to_all", "tokens");
        QCOMPARE(a2a.calls_per_step, 128.0);
        QCOMPARE(a2a.bytes_per_call, 4096.0 * 2 * 4096 * 2);
        QCOMPARE(a2a.bytes_per_gpu_per_step, 128 * a2a.bytes_per_call * 7 / 8);
        // Recomputing the MoE block (--recompute-modules moe) dispatches and combines again in
        // the backward: 6 per layer, 192 calls.
        sc.training.recompute = Recompute::Selective;
        sc.training.recompute_modules = unsigned(RecomputeModule::CoreAttn) | unsigned(RecomputeModule::Moe);
        QCOMPARE(entry(evaluate(sc), "ep", "all_to_all", "tokens").calls_per_step, 192.0);
    }

    void deepEpSendsOncePerGpuAndNode()
    {
        // DeepEP (deepseek-ai/DeepEP normal kernels): a token goes once to each other GPU holding
        // one of its experts and, across nodes, once over the network to each other node, where
        // NVLink forwards it. 128 experts, top-8 without replacement, balanced:
        //   P(a node of 32 experts is missed) = (96·95·…·89)/(128·127·…·121) = 0.092747
        //   other nodes reached (of 3)  = 3·(1 − 0.092747) = 2.72176   (all-to-all: 8·24/32 = 6 copies)
        //   P(a GPU of 4 experts is missed) = (124·…·117)/(128·…·121) = 0.770020
        //   other GPUs reached (of 31) = 31·(1 − 0.770020) = 7.12939
        QVERIFY(std::abs(otherExpertGroupsReached(128, 8, 4) - 2.72176) < 1e-5);
        QVERIFY(std::abs(otherExpertGroupsReached(128, 8, 32) - 7.12939) < 1e-5);
        QCOMPARE(otherExpertGroupsReached(128, 8, 1), 0.0);
        // EP 32 over 4 DGX H100 nodes, S = 1 GB (a copy per expert): the network carries
        // S/8·2.72176 = 340.2 MB: 3·6 µs + 340.2 MB / (50 GB/s·0.94) = 7.2567 ms; NVLink's
        // S/8·7.12939 = 891.2 MB over 450·0.82 GB/s (2.415 ms) is less.
        const ClusterSpec c = presetScenario("llama2-7b", "dgx-h100", 1, 1, 1).cluster;
        const GroupPlacement ep = placeGroup(Group::Ep, 32, 1, c);
        QCOMPARE(ep.nodes, std::int64_t(4));
        const double S = 1e9;
        const double net = 3 * 6e-6 + S / 8 * otherExpertGroupsReached(128, 8, 4) / c.inter_node.busBytesPerS(S);
        QVERIFY(close(dedupAllToAllTime(S, 8, 128, ep, c).seconds, net));
        QVERIFY(std::abs(net - 7.2567e-3) < 0.0001e-3);
        // The all-to-all sends 24/32 of S through the NIC: 3·6 µs + 750 MB / 47 GB/s = 15.98 ms, 2.2×.
        QVERIFY(collectiveTime(Collective::AllToAll, S, ep, c).seconds > 2.2 * net);
        // Inside one node (EP 8, 16 experts a GPU): 7·3.4 µs + S/8·7·(1 − (112·…·105)/(128·…·121))
        // = S/8·4.67194 over NVLink, against 7/8 of S for the all-to-all.
        const GroupPlacement ep8 = placeGroup(Group::Ep, 8, 1, c);
        QVERIFY(close(dedupAllToAllTime(S, 8, 128, ep8, c).seconds,
                      7 * 3.4e-6 + S / 8 * otherExpertGroupsReached(128, 8, 8) / c.intra_node.busBytesPerS(S)));
        QVERIFY(std::abs(otherExpertGroupsReached(128, 8, 8) - 4.67194) < 1e-5);

        // In the plan: the same calls and bytes as the all-to-all. Mixtral (8 experts, top 2, one
        // expert per GPU of EP 8) has nothing to deduplicate: other GPUs reached
        // 7·(1 − 7·6/(8·7)) = 1.75 copies of S/2, the all-to-all's 7/8 of S; the same time.
        Scenario sc = presetScenario("mixtral-8x7b", "dgx-h100", 1, 1, 8);
        sc.parallel.ep = 8;
        sc.training.global_batch = 8;
        const double all_to_all = entry(evaluate(sc), "ep", "all_to_all", "tokens").time_s;
        sc.parallel.moe_dispatcher = MoeDispatcher::DeepEp;
        const CommEntry deepep = entry(evaluate(sc), "ep", "all_to_all", "tokens");
        QCOMPARE(deepep.calls_per_step, 128.0);
        QVERIFY(std::abs(otherExpertGroupsReached(8, 2, 8) - 1.75) < 1e-12);
        QVERIFY(close(deepep.time_s, all_to_all));
        // 64 experts of the same size, top 8: 7·(1 − C(56, 8)/C(64, 8)) = 4.7535 copies of S/8
        // (0.5942 S) against 7/8 S: 0.679 of the time.
        sc.model.moe->experts = 64;
        sc.model.moe->top_k = 8;
        const double many = entry(evaluate(sc), "ep", "all_to_all", "tokens").time_s;
        sc.parallel.moe_dispatcher = MoeDispatcher::AllToAll;
        const double many_a2a = entry(evaluate(sc), "ep", "all_to_all", "tokens").time_s;
        QVERIFY(std::abs(otherExpertGroupsReached(64, 8, 8) - 4.75348) < 1e-5);
        QVERIFY(many < 0.70 * many_a2a && many > 0.62 * many_a2a);
    }

    void exposureNeverExceedsLinkTime()
    {
        for (const char* file : {"../../resources/scenarios/default.parascope.json"}) {
            const Estimate e = evaluate(scenarioFromFile(file));
            QVERIFY(!e.communication.empty());
            for (const CommEntry& c : e.communication) {
                QVERIFY2(c.exposed_s >= 0 && c.exposed_s <= c.time_s * (1 + 1e-12),
                         (std::string(toString(c.group)) + " " + toString(c.collective)).c_str());
                QVERIFY(findTerm(c.terms, "comm.exposed") != nullptr);
                QVERIFY(findTerm(c.terms, "comm.time") != nullptr);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TstCommunication)
#include "tst_communication.moc"
