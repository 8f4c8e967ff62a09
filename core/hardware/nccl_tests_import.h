#pragma once
// Importing nccl-tests output (the text table, or the -J JSON file) into measured collectives,
// so users with a cluster calibrate inter-node collectives with the standard tool. The
// collective, the rank count and the node count are read from the log where it says them
// ("# Collective test starting: all_reduce_perf"; the "Using devices" lines name each rank's
// host), or given by the caller.

#include "hardware/hardware_profile.h"
#include "util/json_reader.h"

#include <optional>
#include <string>
#include <vector>

namespace parascope {

struct NcclTestsOverrides {
    std::optional<Collective> op; // none: from the log
    int ranks = 0;  // 0: from the log
    int nodes = 0;  // 0: from the log
};

struct NcclTestsImport {
    std::optional<Collective> op;
    int ranks = 0, nodes = 0;
    std::vector<MeasuredCollective> rows; // one per message size (out-of-place busbw)
    double avg_busbw_gbps = 0;            // "# Avg bus bandwidth", when present
};

// `name` (the file name) helps find the collective when the log does not say it.
std::optional<NcclTestsImport> parseNcclTests(const std::string& text, const std::string& name,
                                              const NcclTestsOverrides& overrides, std::vector<InputError>& errors);

// Appends the rows to a profile JSON (a new one when `profile` is null) and returns it.
nlohmann::json mergeIntoProfile(const nlohmann::json* profile, const std::vector<NcclTestsImport>& imports,
                                const std::vector<std::string>& sources);

} // namespace parascope
