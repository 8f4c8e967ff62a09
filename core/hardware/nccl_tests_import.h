#pragma once
// Importing nccl-tests output (the text table, or the -J JSON file) into measured collectives,
// so users with a cluster calibrate inter-node collectives with the standard tool. Logs come as
// people paste them: NCCL_DEBUG=INFO lines around the table, indented, with mpirun
// --tag-output's "[1,0]<stdout>:" or srun's "0: " before every line, in the old format (no root
// column, an error column), alltoall rows with an empty reduction. The collective comes from the
// caller, the log ("# Collective test starting: all_reduce_perf", -J's argv[0]), the file name
// (allreduce, all_reduce, all-reduce…) or the numbers (busbw/algbw and size/count); the ranks
// from the caller, the "Using devices" block or busbw/algbw; the nodes from the caller or the
// block's distinct hosts — an error names the flag when none says. busbw is computed from the
// time column; sizes with #wrong > 0 or N/A are skipped with a warning; a file with several runs
// is refused, naming them.

#include "hardware/hardware_profile.h"
#include "types/diagnostic.h"
#include "util/json_reader.h"

#include <optional>
#include <string>
#include <vector>

namespace parascope {

struct NcclTestsOverrides {
    std::optional<Collective> op; // none: from the log
    int ranks = 0; // 0: from the log
    int nodes = 0; // 0: from the log
};

struct NcclTestsImport {
    std::optional<Collective> op;
    int ranks = 0, nodes = 0;
    std::vector<MeasuredCollective> rows; // one per message size (out-of-place busbw)
    double avg_busbw_gbps = 0; // "# Avg bus bandwidth", when present
    std::vector<Localized> warnings; // sizes skipped, and why
    double meanBusbwGbps() const; // of the rows, to set beside the log's own average
};

// `name` (the file name) helps find the collective when the log does not say it.
std::optional<NcclTestsImport> parseNcclTests(const std::string& text, const std::string& name,
                                              const NcclTestsOverrides& overrides, std::vector<InputError>& errors);

// Appends the rows to a profile JSON (a new one when `profile` is null) and returns it.
nlohmann::json mergeIntoProfile(const nlohmann::json* profile, const std::vector<NcclTestsImport>& imports,
                                const std::vector<std::string>& sources);

} // namespace parascope
