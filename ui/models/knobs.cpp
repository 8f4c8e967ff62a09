#include "models/knobs.h"

#include "types/knobs.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdlib>

namespace parascope::ui {

const std::vector<Knob>& knobs()
{
    // The sliders of the scenario panel, in this order; what each moves, the rule for what else
    // moves with it, and the values it offers come from the core's knob table (types/knobs.h),
    // the same a sweep and `parascope-cli --set` use. Only the labels are the UI's, so that
    // lupdate sees them (QT_TRANSLATE_NOOP) and the panel translates them.
    static const std::pair<const char*, const char*> kSliders[] = {
        {"training.seq_len", QT_TRANSLATE_NOOP("Knobs", "Sequence length")},
        {"training.micro_batch", QT_TRANSLATE_NOOP("Knobs", "Micro batch")},
        {"training.global_batch", QT_TRANSLATE_NOOP("Knobs", "Global batch")},
        {"parallel.tp", QT_TRANSLATE_NOOP("Knobs", "Tensor parallel (TP)")},
        {"parallel.pp", QT_TRANSLATE_NOOP("Knobs", "Pipeline parallel (PP)")},
        {"parallel.vpp", QT_TRANSLATE_NOOP("Knobs", "Virtual stages (VPP)")},
        {"parallel.dp", QT_TRANSLATE_NOOP("Knobs", "Data parallel (DP)")},
        {"parallel.cp", QT_TRANSLATE_NOOP("Knobs", "Context parallel (CP)")},
        {"parallel.ep", QT_TRANSLATE_NOOP("Knobs", "Expert parallel (EP)")},
        {"parallel.zero", QT_TRANSLATE_NOOP("Knobs", "ZeRO stage")},
    };
    static const std::vector<Knob> list = [] {
        std::vector<Knob> v;
        for (const auto& [path, label] : kSliders) {
            const parascope::Knob* k = parascope::findKnob(path);
            v.push_back({path, label, k->offered, k->get, k->set});
        }
        return v;
    }();
    return list;
}

const Knob* findKnob(const QString& path)
{
    for (const Knob& k : knobs())
        if (path == QLatin1String(k.path))
            return &k;
    return nullptr;
}

std::size_t nearestIndex(const std::vector<long long>& values, long long v)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < values.size(); ++i)
        if (std::llabs(values[i] - v) < std::llabs(values[best] - v))
            best = i;
    return best;
}

} // namespace parascope::ui
