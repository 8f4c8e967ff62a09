#!/usr/bin/env python3
"""Writes a synthetic PyTorch-profiler (Kineto) Chrome trace of about SIZE_MB megabytes, for the
reading benchmark in tests/benchmarks/report: steps marked by ProfilerStep#N on the CPU, each
launching GEMM, attention, NCCL and optimizer kernels through cudaLaunchKernel runtime events
(correlation ids), plus CPU operator events as a real trace has (most of its bytes).

    python3 tests/benchmarks/make_trace.py SIZE_MB OUT.json
"""
import json
import sys


def main():
    size_mb, out = float(sys.argv[1]), sys.argv[2]
    kernels = ["ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_64x3_tn", "flash_fwd_kernel",
               "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "multi_tensor_apply_kernel", "vectorized_elementwise_kernel"]
    with open(out, "w") as f:
        f.write('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}], '
                '"distributedInfo": {"rank": 0, "world_size": 8}, "traceEvents": [\n')
        written, first, t, corr, step = 0, True, 1.7e15, 0, 0
        while written < size_mb * 1e6:
            events = [{"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{step}", "pid": 1, "tid": 1,
                       "ts": t, "dur": 20000.0}]
            for k in range(400):
                corr += 1
                name = kernels[k % len(kernels)]
                launch = t + 10 + k * 45.0
                events.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": launch - 5,
                               "dur": 20.0, "args": {"External id": corr, "Input Dims": [[4096, 8192], [8192, 8192]],
                                                     "Input type": ["c10::BFloat16", "c10::BFloat16"]}})
                events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                               "ts": launch, "dur": 4.0, "args": {"correlation": corr, "cbid": 211}})
                events.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7 if "nccl" not in name else 20,
                               "ts": launch + 30, "dur": 40.0, "args": {"queued": 0, "device": 0, "context": 1,
                                                                        "stream": 7 if "nccl" not in name else 20,
                                                                        "correlation": corr, "registers per thread": 168,
                                                                        "grid": [132, 1, 1], "block": [384, 1, 1]}})
            for e in events:
                text = json.dumps(e)
                f.write(text if first else ",\n" + text)
                first = False
                written += len(text) + 2
            t += 20000.0
            step += 1
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
