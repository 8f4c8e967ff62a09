#pragma once
// Hardware profile (`parascope.hardware-profile/1`, written by parascope-probe or imported from
// nccl-tests): measured numbers of one machine. calibrate() replaces the datasheet-derived
// efficiencies of a ClusterSpec with the measured ones and records each change as a Term.

#include "types/term.h"
#include "types/gpu_spec.h"
#include "util/json_reader.h"

#include <optional>
#include <string>
#include <vector>

namespace parascope {

inline constexpr const char* kHardwareProfileSchema = "parascope.hardware-profile/1";

struct MeasuredGemm {
    std::string dtype; // bf16, fp16, tf32, fp32, fp8
    double m = 0, n = 0, k = 0;
    double flops_per_s = 0;
};

// α–β model of one collective fitted to its timings (parascope-probe's sweep from 8 B, or an
// nccl-tests log): t(S) = α + factor·S / busbw, factor as nccl-tests' busbw (types/comm_types.h).
// Least squares on the relative error (weights 1/t²), so that the 8-byte latency points count as
// much as the 1 GiB bandwidth points; α ≥ 0.
struct CollectiveFit {
    Collective op = Collective::AllReduce;
    int ranks = 0, nodes = 1;
    double alpha_s = 0; // latency: the time of an empty collective
    double busbw_bytes_per_s = 0; // asymptotic bus bandwidth
    int points = 0;
    double max_relative_error = 0; // worst |fit − measured| / measured over the points
};
std::optional<CollectiveFit> fitAlphaBeta(Collective op, int ranks, int nodes,
                                          const std::vector<std::pair<double, double>>& size_seconds);

struct HardwareProfile {
    std::string status; // ok, partial, no_gpu
    std::string device_name;
    std::optional<double> memory_bytes;
    std::optional<double> hbm_copy_bytes_per_s;
    std::vector<MeasuredGemm> gemm;
    std::optional<double> p2p_unidirectional_bytes_per_s; // best GPU↔GPU one-way
    std::vector<MeasuredCollective> collectives;
};

std::optional<HardwareProfile> readHardwareProfile(const nlohmann::json& j, std::vector<InputError>& errors);
std::optional<HardwareProfile> readHardwareProfileFile(const std::string& file, std::vector<InputError>& errors);

// Applies what the profile measured; fills cluster.calibration with one Term per change. Where
// a collective was measured down to small messages (parascope-probe sweeps from 8 B, nccl-tests
// logs from -b 8), its α–β fit sets the link's latency per ring step.
ClusterSpec calibrate(ClusterSpec cluster, const HardwareProfile& profile);

} // namespace parascope
