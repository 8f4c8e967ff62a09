// parascope-cli search: every valid strategy, ranked, and the fewest GPUs that fit.

#include "cli.h"

#include "estimate/diagnostics.h"
#include "io/error_bands.h"
#include "io/report_json.h"
#include "io/scenario_json.h"
#include "search/search.h"

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

namespace {

const double kGiB = double(1ull << 30);

// What a search answers: the ranking, and beside it what the text and JSON report too.
struct SearchAnswer {
    parascope::SearchResult r;
    std::optional<parascope::FewestGpusResult> fewest;
    std::optional<parascope::EmptySearchReason> empty;
    long long largest_mb = 0;
};

// The search knobs the command line sets.
parascope::SearchOptions searchOptions(const Args& a)
{
    parascope::SearchOptions o;
    o.gpus = a.gpus;
    o.top = std::size_t(a.top);
    o.threads = int(a.threads);
    o.simulate = !a.closed_form;
    return o;
}

// Runs the search and the questions asked beside it, in that order.
SearchAnswer runSearch(const Args& a, const parascope::Scenario& scenario)
{
    const parascope::SearchOptions o = searchOptions(a);
    SearchAnswer s;
    s.r = parascope::searchStrategies(scenario, o);
    if (a.fewest_gpus)
        s.fewest = parascope::fewestGpus(scenario);
    if (s.r.top.empty())
        s.empty = parascope::explainEmptySearch(scenario, o, s.r);
    s.largest_mb = parascope::largestFittingMicroBatch(scenario);
    return s;
}

// "TP8 PP1 DP8 CP1 EP1 SP ZeRO-1 mb1 selective 1f1b" / "TP8 PP1 DP8 CP1 EP1 SP ZeRO-1 微批大小 1 选择性重计算 1F1B".
std::string describeRow(const Args& a, const parascope::SearchRow& row)
{
    const auto& p = row.parallel;
    char buf[160];
    std::snprintf(buf, sizeof buf, "TP%d PP%d%s DP%d CP%d EP%d%s ZeRO-%d ", p.tp, p.pp,
                  p.schedule == parascope::ScheduleKind::Interleaved ? (" VPP" + std::to_string(p.vpp)).c_str() : "",
                  p.dp, p.cp, p.ep, p.sequence_parallel ? " SP" : "", p.zero);
    const long long mb = (long long)row.training.micro_batch;
    return std::string(buf)
        + (zh(a) ? "微批大小 " + std::to_string(mb) + " " + parascope::displayName(row.training.recompute).zh + " "
                   + parascope::displayName(p.schedule).zh
                 : "mb" + std::to_string(mb) + " " + parascope::toString(row.training.recompute) + " "
                   + parascope::toString(p.schedule));
}

// One ranked strategy as JSON: the scenario's own parallel and training sections, then its numbers.
nlohmann::json searchRowJson(const Args& a, const parascope::Scenario& scenario, const parascope::SearchRow& row)
{
    nlohmann::json j = parascope::scenarioToJson(parascope::applyRow(scenario, row));
    return nlohmann::json{{"rank_index", row.index},
                          {"parallel", j["parallel"]},
                          {"training", j["training"]},
                          {"step_s", row.step_s},
                          {"tokens_per_s", row.tokens_per_s},
                          {"mfu", row.mfu},
                          {"peak_bytes", row.peak_bytes},
                          {"bubble_fraction", row.bubble_fraction},
                          {"step_band", parascope::bandJson(row.band, a.lang)}};
}

// The parascope.search/1 answer.
std::string searchJson(const Args& a, const parascope::Scenario& scenario, const SearchAnswer& s)
{
    const parascope::SearchResult& r = s.r;
    nlohmann::json top = nlohmann::json::array(), pareto = nlohmann::json::array();
    for (const auto& row : r.top)
        top.push_back(searchRowJson(a, scenario, row));
    for (const auto& row : r.pareto)
        pareto.push_back(searchRowJson(a, scenario, row));
    nlohmann::json out = {{"schema", "parascope.search/1"},
                          {"gpus", r.top.empty() ? a.gpus : (long long)r.top.front().parallel.gpus()},
                          {"enumerated", r.enumerated},
                          {"valid", r.valid},
                          {"fitting", r.fitting},
                          {"seconds", r.seconds},
                          {"top", top},
                          {"pareto", pareto}};
    if (s.fewest) {
        out["fewest_gpus"] = s.fewest->gpus; // 0: none up to fewest_gpus_searched_up_to
        out["fewest_gpus_searched_up_to"] = s.fewest->searched_up_to;
        if (s.fewest->gpus == 0)
            out["fewest_gpus_reason"] = s.fewest->reason.in(a.lang);
    }
    if (s.empty)
        out["no_result"] = {{"reason", s.empty->text.in(a.lang)}, {"nearest_gpus", s.empty->nearest}};
    out["largest_micro_batch"] = s.largest_mb;
    return out.dump(2) + "\n";
}

// The ranked strategies as CSV, one line each.
std::string searchCsv(const parascope::SearchResult& r)
{
    std::ostringstream o2;
    char line[320];
    o2 << "rank,tp,pp,vpp,dp,cp,ep,sp,zero,micro_batch,recompute,schedule,step_s,step_band,band_class,tokens_per_s,mfu,"
          "peak_gib\n";
    int k = 0;
    for (const auto& row : r.top) {
        const auto& p = row.parallel;
        const parascope::ErrorBand& band = row.band;
        std::snprintf(line, sizeof line, "%d,%d,%d,%d,%d,%d,%d,%d,%d,%lld,%s,%s,%.6g,%.4f,%s,%.6g,%.6g,%.4f\n", ++k,
                      p.tp, p.pp, p.vpp, p.dp, p.cp, p.ep, p.sequence_parallel ? 1 : 0, p.zero,
                      (long long)row.training.micro_batch, parascope::toString(row.training.recompute),
                      parascope::toString(p.schedule), row.step_s, band.mape, parascope::bandClassId(band).c_str(),
                      row.tokens_per_s, row.mfu, row.peak_bytes / kGiB);
        o2 << line;
    }
    return o2.str();
}

// The counts line, then the ranked strategies.
void writeTopRows(std::ostream& o2, const Args& a, const parascope::SearchResult& r)
{
    char line[320];
    if (zh(a))
        std::snprintf(line, sizeof line, "搜索：枚举 %zu 种策略，%zu 种合法，%zu 种放得下；用时 %.2f s（%s）\n",
                      r.enumerated, r.valid, r.fitting, r.seconds, a.closed_form ? "单步按解析估计" : "单步按事件模拟");
    else
        std::snprintf(line, sizeof line, "Search: %s enumerated, %zu valid, %zu fit; %.2f s (%s)\n",
                      parascope::countOf((long long)r.enumerated, "strategy", "strategies").c_str(), r.valid, r.fitting,
                      r.seconds, a.closed_form ? "closed-form step" : "simulated step");
    o2 << line;
    int k = 0;
    for (const auto& row : r.top) {
        std::snprintf(line, sizeof line, "%3d. ", ++k);
        o2 << line << padColumns(describeRow(a, row), 62, false);
        std::snprintf(line, sizeof line, zh(a) ? " 单步 %8.3f s " : " step %8.3f s ", row.step_s);
        o2 << line << padColumns(parascope::bandText(row.band, true).in(a.lang), 8, false);
        std::snprintf(line, sizeof line,
                      zh(a) ? "  %10.0f tokens/s  MFU %8s  峰值 %6.1f GiB\n"
                            : "  %10.0f tokens/s  MFU %8s  peak %6.1f GiB\n",
                      row.tokens_per_s, parascope::formatPercent(row.mfu).c_str(), row.peak_bytes / kGiB);
        o2 << line;
    }
}

// Why nothing was found, and the nearest GPU counts that have a valid layout.
void writeEmptyReason(std::ostream& o2, const Args& a, const parascope::EmptySearchReason& empty)
{
    o2 << "  " << empty.text.in(a.lang) << "\n";
    if (!empty.nearest.empty()) {
        o2 << say(a, "  Nearest GPU counts with a valid layout:", "  有合法布局的最近 GPU 数：");
        for (std::size_t i = 0; i < empty.nearest.size(); ++i)
            o2 << (i ? say(a, ", ", "、") : say(a, " ", "")) << empty.nearest[i];
        o2 << "\n";
    }
}

// The Pareto front of peak memory against step time.
void writePareto(std::ostream& o2, const Args& a, const parascope::SearchResult& r)
{
    char line[320];
    o2 << say(a, "\nPareto front (peak memory vs step time):\n", "\n帕累托前沿（峰值显存与单步耗时）：\n");
    for (const auto& row : r.pareto) {
        std::snprintf(line, sizeof line, "  %6.1f GiB  %8.3f s ", row.peak_bytes / kGiB, row.step_s);
        o2 << line << padColumns(parascope::bandText(row.band, true).in(a.lang), 8, false) << "  "
           << describeRow(a, row) << "\n";
    }
}

// The largest micro batch that fits, and the fewest GPUs when asked.
void writeFits(std::ostream& o2, const Args& a, const SearchAnswer& s)
{
    const auto& fewest = s.fewest;
    o2 << say(a,
              "\nLargest micro batch that fits the scenario's own strategy: ", "\n场景自身策略下能放下的最大微批大小：")
       << (s.largest_mb > 0 ? std::to_string(s.largest_mb) : say(a, "none (it does not fit)", "无（放不下）")) << "\n";
    if (fewest && fewest->gpus > 0)
        o2 << say(a, "Fewest GPUs on which it trains: ", "能完成训练的最少 GPU 数：") << fewest->gpus << "\n";
    else if (fewest && fewest->searched_up_to > 0)
        o2 << say(a, "Fewest GPUs on which it trains: none up to " + std::to_string(fewest->searched_up_to) + " (",
                  "能完成训练的最少 GPU 数：直到 " + std::to_string(fewest->searched_up_to) + " 块都没有（")
           << fewest->reason.in(a.lang) << say(a, ")", "）") << "\n";
    else if (fewest)
        o2 << say(a, "Fewest GPUs on which it trains: none, whatever the count: ",
                  "能完成训练的最少 GPU 数：无论多少块都不行：")
           << fewest->reason.in(a.lang) << "\n";
}

// The text answer.
std::string searchText(const Args& a, const SearchAnswer& s)
{
    std::ostringstream o2;
    writeTopRows(o2, a, s.r);
    std::vector<parascope::ErrorBand> bands;
    for (const auto* rows : {&s.r.top, &s.r.pareto})
        for (const auto& row : *rows)
            bands.push_back(row.band);
    o2 << bandNote(a, bands);
    if (s.empty)
        writeEmptyReason(o2, a, *s.empty);
    writePareto(o2, a, s.r);
    writeFits(o2, a, s);
    return o2.str();
}

} // namespace

int searchCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "text" : a.format;
    if (format != "json" && format != "text" && format != "csv")
        return badUsage(a, "--format needs text, json or csv", "--format 只能是 text、json 或 csv");
    const auto scenario = loadScenario(a, "search");
    if (!scenario)
        return kExitBadInput;
    const SearchAnswer s = runSearch(a, *scenario);
    if (format == "json")
        return emit(a, searchJson(a, *scenario, s));
    if (format == "csv")
        return emit(a, searchCsv(s.r));
    return emit(a, searchText(a, s));
}

} // namespace parascope::cli
