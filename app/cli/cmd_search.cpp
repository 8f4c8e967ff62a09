// parascope-cli search: every valid strategy, ranked, and the fewest GPUs that fit.

#include "cli.h"

#include "io/scenario_json.h"
#include "search/search.h"
#include "io/report_json.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace parascope::cli {

using namespace parascope;

int searchCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "text" : a.format;
    if (format != "json" && format != "text" && format != "csv")
        return badUsage("--format needs text, json or csv");
    const auto scenario = loadScenario(a, "search");
    if (!scenario)
        return kExitBadInput;
    parascope::SearchOptions o;
    o.gpus = a.gpus;
    o.top = std::size_t(a.top);
    o.threads = int(a.threads);
    o.simulate = !a.closed_form;
    const parascope::SearchResult r = parascope::searchStrategies(*scenario, o);
    const double gib = double(1ull << 30);
    const auto describe = [](const parascope::SearchRow& row) {
        const auto& p = row.parallel;
        char buf[160];
        std::snprintf(buf, sizeof buf, "TP%d PP%d%s DP%d CP%d EP%d%s ZeRO-%d mb%lld %s %s", p.tp, p.pp,
                      p.schedule == parascope::ScheduleKind::Interleaved ? (" VPP" + std::to_string(p.vpp)).c_str() : "",
                      p.dp, p.cp, p.ep, p.sequence_parallel ? " SP" : "", p.zero, (long long)row.training.micro_batch,
                      parascope::toString(row.training.recompute), parascope::toString(p.schedule));
        return std::string(buf);
    };
    const auto rowJson = [&](const parascope::SearchRow& row) {
        nlohmann::json j = parascope::scenarioToJson(parascope::applyRow(*scenario, row));
        return nlohmann::json{{"rank_index", row.index}, {"parallel", j["parallel"]}, {"training", j["training"]},
                              {"step_s", row.step_s}, {"tokens_per_s", row.tokens_per_s}, {"mfu", row.mfu},
                              {"peak_bytes", row.peak_bytes}, {"bubble_fraction", row.bubble_fraction}};
    };
    std::optional<parascope::FewestGpusResult> fewest;
    if (a.fewest_gpus)
        fewest = parascope::fewestGpus(*scenario);
    std::optional<parascope::EmptySearchReason> empty;
    if (r.top.empty())
        empty = parascope::explainEmptySearch(*scenario, o, r);
    const long long largest_mb = parascope::largestFittingMicroBatch(*scenario);
    if (format == "json") {
        nlohmann::json top = nlohmann::json::array(), pareto = nlohmann::json::array();
        for (const auto& row : r.top)
            top.push_back(rowJson(row));
        for (const auto& row : r.pareto)
            pareto.push_back(rowJson(row));
        nlohmann::json out = {{"schema", "parascope.search/1"}, {"gpus", r.top.empty() ? a.gpus : (long long)r.top.front().parallel.gpus()},
                              {"enumerated", r.enumerated}, {"valid", r.valid}, {"fitting", r.fitting}, {"seconds", r.seconds},
                              {"top", top}, {"pareto", pareto}};
        if (fewest) {
            out["fewest_gpus"] = fewest->gpus; // 0: none up to fewest_gpus_searched_up_to
            out["fewest_gpus_searched_up_to"] = fewest->searched_up_to;
            if (fewest->gpus == 0)
                out["fewest_gpus_reason"] = fewest->reason.in(a.lang);
        }
        if (empty)
            out["no_result"] = {{"reason", empty->text.in(a.lang)}, {"nearest_gpus", empty->nearest}};
        out["largest_micro_batch"] = largest_mb;
        return emit(a, out.dump(2) + "\n");
    }
    std::ostringstream o2;
    char line[320];
    if (format == "csv") {
        o2 << "rank,tp,pp,vpp,dp,cp,ep,sp,zero,micro_batch,recompute,schedule,step_s,tokens_per_s,mfu,peak_gib\n";
        int k = 0;
        for (const auto& row : r.top) {
            const auto& p = row.parallel;
            std::snprintf(line, sizeof line, "%d,%d,%d,%d,%d,%d,%d,%d,%d,%lld,%s,%s,%.6g,%.6g,%.6g,%.4f\n", ++k, p.tp, p.pp, p.vpp, p.dp,
                          p.cp, p.ep, p.sequence_parallel ? 1 : 0, p.zero, (long long)row.training.micro_batch,
                          parascope::toString(row.training.recompute), parascope::toString(p.schedule), row.step_s, row.tokens_per_s,
                          row.mfu, row.peak_bytes / gib);
            o2 << line;
        }
        return emit(a, o2.str());
    }
    std::snprintf(line, sizeof line, "Search: %zu strategies enumerated, %zu valid, %zu fit; %.2f s (%s)\n", r.enumerated, r.valid,
                  r.fitting, r.seconds, a.closed_form ? "closed-form step" : "simulated step");
    o2 << line;
    int k = 0;
    for (const auto& row : r.top) {
        std::snprintf(line, sizeof line, "%3d. %-62s step %8.3f s  %10.0f tokens/s  MFU %5.1f%%  peak %6.1f GiB\n", ++k,
                      describe(row).c_str(), row.step_s, row.tokens_per_s, row.mfu * 100, row.peak_bytes / gib);
        o2 << line;
    }
    if (empty) {
        o2 << "  " << empty->text.in(a.lang) << "\n";
        if (!empty->nearest.empty()) {
            o2 << "  Nearest GPU counts with a valid layout:";
            for (std::size_t i = 0; i < empty->nearest.size(); ++i)
                o2 << (i ? ", " : " ") << empty->nearest[i];
            o2 << "\n";
        }
    }
    o2 << "\nPareto front (peak memory vs step time):\n";
    for (const auto& row : r.pareto) {
        std::snprintf(line, sizeof line, "  %6.1f GiB  %8.3f s  %s\n", row.peak_bytes / gib, row.step_s, describe(row).c_str());
        o2 << line;
    }
    o2 << "\nLargest micro batch that fits the scenario's own strategy: "
       << (largest_mb > 0 ? std::to_string(largest_mb) : std::string("none (it does not fit)")) << "\n";
    if (fewest && fewest->gpus > 0)
        o2 << "Fewest GPUs on which it trains: " << fewest->gpus << "\n";
    else if (fewest && fewest->searched_up_to > 0)
        o2 << "Fewest GPUs on which it trains: none up to " << fewest->searched_up_to << " (" << fewest->reason.in(a.lang) << ")\n";
    else if (fewest)
        o2 << "Fewest GPUs on which it trains: none, whatever the count: " << fewest->reason.in(a.lang) << "\n";
    return emit(a, o2.str());
}

} // namespace parascope::cli
