#pragma once
// An nccl-tests log read into runs: result rows, the column header, the devices and hosts it
// names. Internal to hardware/nccl_tests_import.cpp (which identifies the collective, ranks and
// nodes and turns the rows into measured collectives) and hardware/nccl_tests_log.cpp.

#include "types/comm_types.h"
#include "types/term.h"
#include "util/json_reader.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace parascope::nccl_tests {

struct Row {
    double bytes = 0, count = 0, time_us = 0, algbw = 0, busbw = 0;
    std::string type, redop, wrong;
    int line = 0;
};

struct Run {
    std::optional<Collective> op;
    int first_line = 0;
    int device_ranks = 0;
    std::set<std::string> hosts;
    std::vector<std::string> columns; // the column header's names, when the log has one
    std::vector<Row> rows;
    double avg_busbw_gbps = 0;
    // NCCL_DEBUG=INFO lines: "host:pid:tid [dev] NCCL INFO … nranks N …" (the ranks of the
    // communicator, the hosts that printed them).
    int info_ranks = 0;
    std::set<std::string> info_hosts;
    long long out_of_bounds = -1; // "# Out of bounds values : N OK|FAILED" (-1: not in the log)
    // The column after busbw is the old format's max error (a magnitude: 2e-06), not #wrong.
    bool error_magnitude() const;
};

// A collective from a name as people write it (all_reduce_perf, allreduce-2x8.log, …).
std::optional<Collective> opFromName(const std::string& s);
bool isNumber(const std::string& t);
// Bytes per element of an nccl-tests data type.
double typeBytes(const std::string& type);
// Every run a text log holds.
std::vector<Run> runsFromText(const std::string& text, std::vector<InputError>& errors, const std::string& name);
// The one run of a -J JSON file.
Run runFromJson(const nlohmann::json& j);

} // namespace parascope::nccl_tests
