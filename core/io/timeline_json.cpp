#include "io/timeline_json.h"

#include "estimate/memory_over_time.h"
#include "io/error_bands.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace parascope {

namespace {

std::string opName(const TimedOp& op)
{
    std::string name = toString(op.type);
    if (op.microbatch >= 0)
        name += " mb" + std::to_string(op.microbatch);
    if (op.stage >= 0)
        name += " s" + std::to_string(op.stage);
    return name;
}

// Chrome's reserved colour names (trace_viewer color_scheme), one per op family.
const char* colourOf(OpType t)
{
    switch (t) {
    case OpType::F: return "thread_state_running"; // green
    case OpType::B: return "rail_animation"; // purple
    case OpType::I: return "thread_state_iowait"; // orange
    case OpType::W: return "rail_idle"; // grey-blue
    case OpType::FB: return "rail_load"; // blue
    case OpType::Send:
    case OpType::Recv: return "cq_build_passed"; // teal
    case OpType::Optimizer: return "terrible"; // red
    default: return "thread_state_uninterruptible"; // dark red: collectives
    }
}

} // namespace

nlohmann::json timelineToJson(const Scenario& sc, const Estimate& est)
{
    const TimelineReport& t = est.timeline;
    nlohmann::json j;
    j["schema"] = kTimelineSchema;
    j["scenario"] = sc.name;
    j["schedule"] = toString(sc.parallel.schedule);
    j["simulated"] = t.simulated;
    j["microbatches_shown"] = t.microbatches_shown;
    j["microbatches_total"] = t.microbatches_total;
    j["step_s"] = est.time.step_s;
    // Where the ops end: the step, or the end of the first microbatches a long step is drawn with
    // (a step of their own; estimate/memory_over_time.h shownTimelineSeconds).
    j["drawn_s"] = shownTimelineSeconds(est);
    j["uncertainty"] = uncertaintyJson(sc, "en"); // how sure step_s is (io/error_bands.h)
    j["method"] = est.time.method;
    if (!est.time.note.empty())
        j["note"] = est.time.note;
    if (!t.note.empty())
        j["timeline_note"] = t.note;
    // Each compute lane carries its rank's memory over the step (estimate/memory_over_time.h):
    // [t_s, bytes] at every change, its peak the memory table's total for that stage.
    const std::vector<std::vector<MemoryPoint>> memory = memoryOverStep(est);
    nlohmann::json lanes = nlohmann::json::array();
    if (!t.ranks_shown.empty())
        j["ranks_shown"] = t.ranks_shown;
    for (int r = 0; r < t.timeline.ranks; ++r) {
        if (!t.ranks_shown.empty() && !std::binary_search(t.ranks_shown.begin(), t.ranks_shown.end(), r))
            continue;
        nlohmann::json points = nlohmann::json::array();
        if (r < int(memory.size()))
            for (const MemoryPoint& p : memory[std::size_t(r)])
                points.push_back({p.t_s, p.bytes});
        lanes.push_back({{"lane", 2 * r}, {"rank", r}, {"kind", "compute"}, {"memory", std::move(points)}});
        lanes.push_back({{"lane", 2 * r + 1}, {"rank", r}, {"kind", "communication"}});
    }
    j["lanes"] = std::move(lanes);
    nlohmann::json ops = nlohmann::json::array();
    for (const TimedOp& op : t.timeline.ops) {
        nlohmann::json o = {{"lane", 2 * op.rank + (op.comm_lane ? 1 : 0)},
                            {"type", toString(op.type)},
                            {"start_s", op.start_s},
                            {"end_s", op.end_s}};
        o["microbatch"] = op.microbatch >= 0 ? nlohmann::json(op.microbatch) : nlohmann::json(nullptr);
        o["stage"] = op.stage >= 0 ? nlohmann::json(op.stage) : nlohmann::json(nullptr);
        o["chunk"] = op.chunk;
        if (op.comm_s > 0 && !op.comm_lane)
            o["exposed_comm_s"] = op.comm_s;
        ops.push_back(std::move(o));
    }
    j["ops"] = std::move(ops);
    nlohmann::json peak = nlohmann::json::array();
    for (double v : t.timeline.peak_inflight)
        peak.push_back(v);
    j["peak_inflight_microbatches"] = std::move(peak);
    return j;
}

namespace {

// Threads: compute 0; communication 1, or with comm lanes PP sends 1, DP collectives 2 and
// the layers' exposed TP/CP/EP communication 3.
enum Tid { kCompute = 0, kComm = 1, kDp = 2, kInLayers = 3 };

// The metadata events that name rank r's process and its threads.
void appendRankMetadata(nlohmann::json& events, int r, const ChromeTraceOptions& options)
{
    events.push_back({{"ph", "M"},
                      {"name", "process_name"},
                      {"pid", r},
                      {"tid", 0},
                      {"args", {{"name", "pipeline rank " + std::to_string(r)}}}});
    events.push_back(
        {{"ph", "M"}, {"name", "process_sort_index"}, {"pid", r}, {"tid", 0}, {"args", {{"sort_index", r}}}});
    events.push_back(
        {{"ph", "M"}, {"name", "thread_name"}, {"pid", r}, {"tid", kCompute}, {"args", {{"name", "compute"}}}});
    if (options.comm_lanes) {
        events.push_back(
            {{"ph", "M"}, {"name", "thread_name"}, {"pid", r}, {"tid", kComm}, {"args", {{"name", "PP send/recv"}}}});
        events.push_back(
            {{"ph", "M"}, {"name", "thread_name"}, {"pid", r}, {"tid", kDp}, {"args", {{"name", "DP collectives"}}}});
        events.push_back({{"ph", "M"},
                          {"name", "thread_name"},
                          {"pid", r},
                          {"tid", kInLayers},
                          {"args", {{"name", "TP/CP/EP in the layers (exposed)"}}}});
    } else {
        events.push_back(
            {{"ph", "M"}, {"name", "thread_name"}, {"pid", r}, {"tid", kComm}, {"args", {{"name", "communication"}}}});
    }
}

using Consumers = std::map<std::tuple<int, int, bool>, const TimedOp*>; // (stage, microbatch, forward?) → op

// The compute op that consumes a send: the forward (or forward-backward) of the next stage,
// or the backward of the previous one, for the same microbatch.
Consumers sendConsumers(const Timeline& tl)
{
    Consumers consumers;
    for (const TimedOp& op : tl.ops) {
        if (op.comm_lane || op.microbatch < 0 || op.stage < 0)
            continue;
        const bool forward = op.type == OpType::F || op.type == OpType::FB;
        const bool backward = op.type == OpType::B || op.type == OpType::I;
        if (forward || backward)
            consumers.emplace(std::tuple{op.stage, op.microbatch, forward}, &op);
    }
    return consumers;
}

// The op's slice on its thread, and with comm lanes its exposed in-layer communication apart.
void appendOpSlices(nlohmann::json& events, const TimedOp& op, int tid, const ChromeTraceOptions& options)
{
    nlohmann::json args = {{"type", toString(op.type)}};
    if (op.microbatch >= 0)
        args["microbatch"] = op.microbatch;
    if (op.stage >= 0) {
        args["stage"] = op.stage;
        args["chunk"] = op.chunk;
    }
    if (op.comm_s > 0 && !op.comm_lane)
        args["exposed_comm_us"] = op.comm_s * 1e6;
    events.push_back({{"ph", "X"},
                      {"name", opName(op)},
                      {"cat", isCompute(op.type) ? "compute" : "communication"},
                      {"pid", op.rank},
                      {"tid", tid},
                      {"ts", op.start_s * 1e6},
                      {"dur", (op.end_s - op.start_s) * 1e6},
                      {"cname", colourOf(op.type)},
                      {"args", std::move(args)}});
    if (options.comm_lanes && !op.comm_lane && op.comm_s > 0)
        events.push_back({{"ph", "X"},
                          {"name", "exposed " + opName(op)},
                          {"cat", "communication"},
                          {"pid", op.rank},
                          {"tid", kInLayers},
                          {"ts", (op.end_s - op.comm_s) * 1e6},
                          {"dur", op.comm_s * 1e6},
                          {"cname", colourOf(OpType::AllReduce)},
                          {"args",
                           {{"exposed_comm_us", op.comm_s * 1e6},
                            {"note", "the op's exposed TP/CP/EP communication, drawn at its end"}}}});
}

// Flow arrow: from the send to the op that receives it (Trace Event Format flow events;
// "bp": "e" binds the end to the enclosing slice, the receiving op).
void appendFlow(nlohmann::json& events, const TimedOp& op, int tid, const Consumers& consumers, int& flow_id)
{
    const bool forward = op.peer_stage > op.stage;
    const auto it = consumers.find({op.peer_stage, op.microbatch, forward});
    if (it == consumers.end())
        return;
    const TimedOp& to = *it->second;
    const char* what = forward ? "activations" : "gradients";
    events.push_back({{"ph", "s"},
                      {"name", what},
                      {"cat", "p2p"},
                      {"id", flow_id},
                      {"pid", op.rank},
                      {"tid", tid},
                      {"ts", op.start_s * 1e6}});
    events.push_back({{"ph", "f"},
                      {"bp", "e"},
                      {"name", what},
                      {"cat", "p2p"},
                      {"id", flow_id},
                      {"pid", to.rank},
                      {"tid", kCompute},
                      {"ts", to.start_s * 1e6}});
    ++flow_id;
}

} // namespace

nlohmann::json timelineToChromeTrace(const Scenario& sc, const Estimate& est, const ChromeTraceOptions& options)
{
    const Timeline& tl = est.timeline.timeline;
    nlohmann::json events = nlohmann::json::array();
    const std::vector<int>& sampled = est.timeline.ranks_shown;
    for (int r = 0; r < tl.ranks; ++r) {
        if (!sampled.empty() && !std::binary_search(sampled.begin(), sampled.end(), r))
            continue;
        appendRankMetadata(events, r, options);
    }
    const Consumers consumers = sendConsumers(tl);
    int flow_id = 0;
    for (const TimedOp& op : tl.ops) {
        const bool send = op.type == OpType::Send;
        const int tid = !op.comm_lane ? kCompute : !options.comm_lanes || send ? kComm : kDp;
        appendOpSlices(events, op, tid, options);
        if (send && op.peer_stage >= 0 && op.microbatch >= 0)
            appendFlow(events, op, tid, consumers, flow_id);
    }
    return {{"traceEvents", std::move(events)},
            {"displayTimeUnit", "ms"},
            {"otherData",
             {{"generator", "ParaScope"},
              {"scenario", sc.name},
              {"schedule", toString(sc.parallel.schedule)},
              {"step_s", est.time.step_s},
              {"drawn_s", shownTimelineSeconds(est)},
              {"step_band", bandText(bandFor(builtInBands(), sc)).en},
              {"microbatches_shown", est.timeline.microbatches_shown},
              {"microbatches_total", est.timeline.microbatches_total}}}};
}

} // namespace parascope
