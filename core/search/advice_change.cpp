#include "search/advice_moves.h"

#include "estimate/display_names.h"

#include <algorithm>

// What a change is: the fields advice may move (one table), the candidate a changed scenario makes,
// how many knobs it moves and how it reads in both languages. The moves are in advice_moves.cpp.

namespace parascope::advice_detail {

namespace {

// ---- The fields advice may change, in the order a change list names them ----------------------

template <NamedEnum E> long long positionOf(E v)
{
    const auto table = enumNames(E{});
    for (std::size_t i = 0; i < table.size(); ++i)
        if (table[i].value == v)
            return (long long)i;
    return 0;
}

template <NamedEnum E> E atPosition(long long i)
{
    const auto table = enumNames(E{});
    return table[std::size_t(std::clamp<long long>(i, 0, (long long)table.size() - 1))].value;
}

const Field kFields[] = {
    {"parallel.tp", [](const Scenario& s) -> long long { return s.parallel.tp; },
     [](Scenario& s, long long v) { s.parallel.tp = int(v); }, nullptr, false},
    {"parallel.pp", [](const Scenario& s) -> long long { return s.parallel.pp; },
     [](Scenario& s, long long v) {
         s.parallel.pp = int(v);
         s.parallel.stage_layers.clear(); // as the PP knob: the list names the old stages
     },
     nullptr, false},
    {"parallel.cp", [](const Scenario& s) -> long long { return s.parallel.cp; },
     [](Scenario& s, long long v) { s.parallel.cp = int(v); }, nullptr, false},
    {"parallel.dp", [](const Scenario& s) -> long long { return s.parallel.dp; },
     [](Scenario& s, long long v) { s.parallel.dp = int(v); }, nullptr, false},
    {"parallel.ep", [](const Scenario& s) -> long long { return s.parallel.ep; },
     [](Scenario& s, long long v) { s.parallel.ep = int(v); }, nullptr, false},
    {"parallel.sequence_parallel", [](const Scenario& s) -> long long { return s.parallel.sequence_parallel; },
     [](Scenario& s, long long v) { s.parallel.sequence_parallel = v != 0; }, nullptr, true},
    {"parallel.schedule", [](const Scenario& s) { return positionOf(s.parallel.schedule); },
     [](Scenario& s, long long v) { s.parallel.schedule = atPosition<ScheduleKind>(v); },
     [](long long v) { return toString(atPosition<ScheduleKind>(v)); }, false},
    {"parallel.vpp", [](const Scenario& s) -> long long { return s.parallel.vpp; },
     [](Scenario& s, long long v) { s.parallel.vpp = int(v); }, nullptr, false},
    {"parallel.zero", [](const Scenario& s) -> long long { return s.parallel.zero; },
     [](Scenario& s, long long v) { s.parallel.zero = int(v); }, nullptr, false},
    {"parallel.offload", [](const Scenario& s) { return positionOf(s.parallel.offload); },
     [](Scenario& s, long long v) { s.parallel.offload = atPosition<Offload>(v); },
     [](long long v) { return toString(atPosition<Offload>(v)); }, false},
    {"training.recompute", [](const Scenario& s) { return positionOf(s.training.recompute); },
     [](Scenario& s, long long v) { s.training.recompute = atPosition<Recompute>(v); },
     [](long long v) { return toString(atPosition<Recompute>(v)); }, false},
    // A mask of RecomputeModule (JSON: the list of names, adviceValueJson).
    {"training.recompute_modules", [](const Scenario& s) -> long long { return s.training.recompute_modules; },
     [](Scenario& s, long long v) { s.training.recompute_modules = unsigned(v); }, nullptr, false},
    {"training.fp8_activations", [](const Scenario& s) -> long long { return s.training.fp8_activations; },
     [](Scenario& s, long long v) { s.training.fp8_activations = v != 0; }, nullptr, true},
    {"training.micro_batch", [](const Scenario& s) -> long long { return s.training.micro_batch; },
     [](Scenario& s, long long v) { s.training.micro_batch = v; }, nullptr, false},
    {"training.global_batch", [](const Scenario& s) -> long long { return s.training.global_batch; },
     [](Scenario& s, long long v) { s.training.global_batch = v; }, nullptr, false},
    {"training.seq_len", [](const Scenario& s) -> long long { return s.training.seq_len; },
     [](Scenario& s, long long v) { s.training.seq_len = v; }, nullptr, false},
    {"parallel.tp_comm_overlap", [](const Scenario& s) -> long long { return s.parallel.tp_comm_overlap; },
     [](Scenario& s, long long v) { s.parallel.tp_comm_overlap = v != 0; }, nullptr, true},
    {"parallel.overlap_grad_reduce", [](const Scenario& s) -> long long { return s.parallel.overlap_grad_reduce; },
     [](Scenario& s, long long v) { s.parallel.overlap_grad_reduce = v != 0; }, nullptr, true},
};

std::string n(long long v) { return std::to_string(v); }

// "selective recompute (core_attn, moe_act)" where the modules are not the default core_attn.
Localized recomputeName(const TrainingConfig& t)
{
    Localized name = displayName(t.recompute);
    if (t.recompute != Recompute::Selective || t.recompute_modules == unsigned(RecomputeModule::CoreAttn))
        return name;
    std::string mods;
    for (const std::string& m : recomputeModuleNames(t.recompute_modules))
        mods += (mods.empty() ? "" : ", ") + m;
    name.en += " (" + mods + ")";
    name.zh += "（" + mods + "）";
    return name;
}

} // namespace

const Field* fieldOf(const std::string& path)
{
    for (const Field& f : kFields)
        if (path == f.path)
            return &f;
    return nullptr;
}

// The candidate that turns `base` into `sc`; nullopt when nothing changed (advice is never a no-op).
std::optional<Candidate> candidateOf(const Scenario& base, const Scenario& sc)
{
    Candidate c;
    for (const Field& f : kFields)
        if (f.get(base) != f.get(sc)) {
            c.changes.push_back({f.path, f.get(sc)});
            c.key += std::string(f.path) + "=" + n(f.get(sc)) + ";";
        }
    if (c.changes.empty())
        return std::nullopt;
    c.sc = sc;
    return c;
}

bool changed(const Candidate& c, const char* path)
{
    return std::any_of(c.changes.begin(), c.changes.end(), [&](const AdviceChange& x) { return x.path == path; });
}

// Knobs a user moves: TP, PP or CP carries the DP (and SP) that moves with it; a global batch
// that follows DP is part of that move.
int knobCount(const Candidate& c)
{
    const bool layout = changed(c, "parallel.tp") || changed(c, "parallel.pp") || changed(c, "parallel.cp");
    int k = 0;
    for (const char* path :
         {"parallel.tp", "parallel.pp", "parallel.cp", "parallel.ep", "parallel.zero", "parallel.offload",
          "training.recompute", "training.fp8_activations", "training.micro_batch", "training.seq_len",
          "parallel.tp_comm_overlap", "parallel.overlap_grad_reduce"})
        k += changed(c, path) ? 1 : 0;
    if (changed(c, "training.recompute_modules") && !changed(c, "training.recompute"))
        ++k; // the modules of selective recompute: one knob with the recompute kind
    if (changed(c, "parallel.schedule") || changed(c, "parallel.vpp"))
        ++k;
    if (changed(c, "parallel.sequence_parallel") && !changed(c, "parallel.tp"))
        ++k;
    if (changed(c, "parallel.dp") && !layout)
        ++k;
    else if (changed(c, "training.global_batch") && !changed(c, "parallel.dp"))
        ++k;
    return k;
}

// "TP 8, DP 4 + full recompute" / "TP 8，DP 4 + 完全重计算".
Localized describe(const Candidate& c)
{
    const Scenario& s = c.sc;
    std::vector<Localized> layout, others;
    const auto v = [&](const char* path) { return changed(c, path); };
    if (v("parallel.tp")) // with SP when it comes along
        layout.push_back({"TP " + n(s.parallel.tp)
                              + (v("parallel.sequence_parallel") && s.parallel.sequence_parallel ? " + SP" : ""),
                          "TP " + n(s.parallel.tp)
                              + (v("parallel.sequence_parallel") && s.parallel.sequence_parallel ? " + SP" : "")});
    if (v("parallel.pp"))
        layout.push_back({"PP " + n(s.parallel.pp), "PP " + n(s.parallel.pp)});
    if (v("parallel.cp"))
        layout.push_back({"CP " + n(s.parallel.cp), "CP " + n(s.parallel.cp)});
    if (v("parallel.dp"))
        layout.push_back({"DP " + n(s.parallel.dp), "DP " + n(s.parallel.dp)});
    if (v("parallel.ep"))
        layout.push_back({"EP " + n(s.parallel.ep), "EP " + n(s.parallel.ep)});
    if (v("parallel.sequence_parallel") && !(v("parallel.tp") && s.parallel.sequence_parallel))
        layout.push_back(s.parallel.sequence_parallel ? Localized{"SP", "SP"} : Localized{"SP off", "关闭 SP"});
    if (v("parallel.schedule")) {
        Localized name = displayName(s.parallel.schedule);
        if (s.parallel.schedule == ScheduleKind::Interleaved) {
            name.en += " (VPP " + n(s.parallel.vpp) + ")";
            name.zh += "（VPP " + n(s.parallel.vpp) + "）";
        }
        others.push_back(name);
    } else if (v("parallel.vpp")) {
        others.push_back({"VPP " + n(s.parallel.vpp), "VPP " + n(s.parallel.vpp)});
    }
    if (v("parallel.zero"))
        others.push_back({"ZeRO-" + n(s.parallel.zero), "ZeRO-" + n(s.parallel.zero)});
    if (v("parallel.offload"))
        others.push_back(s.parallel.offload == Offload::None
                             ? Localized{"no CPU offload", "不卸载到 CPU"}
                             : Localized{displayName(s.parallel.offload).en + " offloaded to CPU memory",
                                         displayName(s.parallel.offload).zh + "卸载到 CPU 内存"});
    if (v("training.recompute") || v("training.recompute_modules"))
        others.push_back(recomputeName(s.training));
    if (v("training.fp8_activations"))
        others.push_back(s.training.fp8_activations ? Localized{"FP8 activation storage", "FP8 激活存储"}
                                                    : Localized{"16-bit activation storage", "16 位激活存储"});
    if (v("training.micro_batch"))
        others.push_back({"micro batch " + n(s.training.micro_batch), "微批大小 " + n(s.training.micro_batch)});
    if (v("training.global_batch")) {
        const long long m = s.microbatches();
        others.push_back(
            {"global batch " + n(s.training.global_batch) + " (" + countOf(m, "microbatch", "microbatches") + ")",
             "全局批大小 " + n(s.training.global_batch) + "（" + n(m) + " 个微批）"});
    }
    if (v("training.seq_len"))
        others.push_back({"sequence length " + n(s.training.seq_len), "序列长度 " + n(s.training.seq_len)});
    if (v("parallel.tp_comm_overlap"))
        others.push_back(s.parallel.tp_comm_overlap ? Localized{"TP communication overlap on", "开启 TP 通信重叠"}
                                                    : Localized{"TP communication overlap off", "关闭 TP 通信重叠"});
    if (v("parallel.overlap_grad_reduce"))
        others.push_back(s.parallel.overlap_grad_reduce
                             ? Localized{"gradient reduction overlapped", "开启梯度归约重叠"}
                             : Localized{"gradient reduction not overlapped", "关闭梯度归约重叠"});
    Localized out;
    for (std::size_t i = 0; i < layout.size(); ++i) {
        out.en += (i ? ", " : "") + layout[i].en;
        out.zh += (i ? "，" : "") + layout[i].zh;
    }
    for (const Localized& o : others) {
        out.en += (out.en.empty() ? "" : " + ") + o.en;
        out.zh += (out.zh.empty() ? "" : " + ") + o.zh;
    }
    return out;
}

} // namespace parascope::advice_detail

namespace parascope {

std::optional<AdviceChange> adviceChangeFromJson(const std::string& path, const nlohmann::json& value, std::string& why)
{
    using advice_detail::Field;
    const Field* f = advice_detail::fieldOf(path);
    if (!f) {
        why = path + ": not a setting advice changes";
        return std::nullopt;
    }
    if (path == "training.recompute_modules" && value.is_array()) { // the module names
        unsigned mask = 0;
        for (const nlohmann::json& name : value) {
            bool known = false;
            for (const EnumName<RecomputeModule>& m : kRecomputeModuleNames)
                if (name.is_string() && name.get<std::string>() == m.name) {
                    mask |= unsigned(m.value);
                    known = true;
                }
            if (!known) {
                why = path + ": " + name.dump() + " names no recompute module";
                return std::nullopt;
            }
        }
        return AdviceChange{path, (long long)mask};
    }
    if (f->name && value.is_string()) // an enum by its name: positions 0 … until the names repeat
        for (long long i = 0; i == 0 || std::string(f->name(i)) != f->name(i - 1); ++i)
            if (value.get<std::string>() == f->name(i))
                return AdviceChange{path, i};
    if (f->flag && value.is_boolean())
        return AdviceChange{path, value.get<bool>() ? 1LL : 0LL};
    if (!f->name && !f->flag && value.is_number_integer())
        return AdviceChange{path, value.get<long long>()};
    why = path + ": " + value.dump() + " is not a value of this setting";
    return std::nullopt;
}

} // namespace parascope
