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

// Applies what the profile measured; fills cluster.calibration with one Term per change.
ClusterSpec calibrate(ClusterSpec cluster, const HardwareProfile& profile);

} // namespace parascope
