#pragma once
// The scenario file's optional sections that hold settings rather than choices — "overheads"
// (other memory, memory/other_memory.h), "stability" (the stability wall, estimate/walls.h) and
// "faults" (the what-ifs of estimate/faults.h) and "network" (the fabric's what-ifs) —
// read and written in the file's units, and the rounding every writer of the file uses.

#include "types/scenario.h"
#include "util/json_reader.h"

namespace parascope {

// Unit conversions back to the file's units, rounded to 12 significant digits so that
// save → load → save is stable (7.5 µs stays 7.5, not 7.499999999999999).
double fileUnits(double v);

// Read into `into` (its values are the defaults for absent keys); errors name "overheads.…",
// "stability.…".
void readOverheads(const nlohmann::json& j, OverheadConfig& into, std::vector<InputError>& errors);
void readStability(const nlohmann::json& j, StabilityConfig& into, std::vector<InputError>& errors);
void readFaults(const nlohmann::json& j, FaultConfig& into, std::vector<InputError>& errors);
// "network": the fabric between the nodes (types/gpu_spec.h FabricSpec), kept in the cluster.
void readFabric(const nlohmann::json& j, FabricSpec& into, std::vector<InputError>& errors);
nlohmann::json fabricToJson(const FabricSpec& f);

nlohmann::json overheadsToJson(const OverheadConfig& o);
nlohmann::json stabilityToJson(const StabilityConfig& s);
nlohmann::json faultsToJson(const FaultConfig& f);

} // namespace parascope
