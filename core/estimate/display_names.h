#pragma once
// Numbers and names as people read them, in both languages: byte sizes, shares with one decimal,
// English counts with their noun, and the course's words for the enums. Used by the diagnostics,
// the reports, the advice and the app.

#include "parallel/placement.h"
#include "types/comm_types.h"
#include "types/diagnostic.h"
#include "types/parallel_config.h"

#include <string>

namespace parascope {

std::string formatBytes(double bytes); // "7.3 GiB"
std::string formatPercent(double fraction); // "65.7 %": one decimal, everywhere a share is shown

// "1 microbatch", "8 microbatches": a count with its English noun.
std::string countOf(long long n, const char* singular, const char* plural);


// Names for people, in both languages (reports, diagnostics, advice). The enums' name tables
// (util/enum_names.h) spell values as files and flags do ("1f1b", "all_reduce"); these are the
// words of the course ("1F1B", "AllReduce", "交错式 1F1B", "选择性重计算").
Localized displayName(ScheduleKind v);
Localized displayName(Recompute v);
Localized displayName(Precision v);
Localized displayName(Group v);
Localized displayName(Collective v);
Localized displayName(Purpose v);
Localized displayName(Link v);

} // namespace parascope
