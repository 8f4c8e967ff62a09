#include "knobs.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdlib>

namespace parascope::ui {

namespace {

std::vector<long long> powersOfTwo(long long from, long long to)
{
    std::vector<long long> v;
    for (long long x = from; x <= to; x *= 2)
        v.push_back(x);
    return v;
}

// Sorted, unique, and always containing the current value (so a loaded file never snaps).
std::vector<long long> withCurrent(std::vector<long long> v, long long current)
{
    v.push_back(current);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

std::vector<long long> divisors(long long n, long long limit)
{
    std::vector<long long> v;
    for (long long d = 1; d <= n && d <= limit; ++d)
        if (n % d == 0)
            v.push_back(d);
    return v;
}

} // namespace

const std::vector<Knob>& knobs()
{
    // QT_TRANSLATE_NOOP marks the labels for lupdate; the panel translates them.
    static const std::vector<Knob> list = {
        {"training.seq_len", QT_TRANSLATE_NOOP("Knobs", "Sequence length"),
         [](const Scenario& s) { return withCurrent(powersOfTwo(256, 1 << 20), s.training.seq_len); },
         [](const Scenario& s) { return (long long)s.training.seq_len; },
         [](Scenario& s, long long v) { s.training.seq_len = v; }},
        {"training.micro_batch", QT_TRANSLATE_NOOP("Knobs", "Micro batch"),
         [](const Scenario& s) { return withCurrent(powersOfTwo(1, 64), s.training.micro_batch); },
         [](const Scenario& s) { return (long long)s.training.micro_batch; },
         [](Scenario& s, long long v) { s.training.micro_batch = v; }},
        {"training.global_batch", QT_TRANSLATE_NOOP("Knobs", "Global batch"),
         // Multiples of micro batch × DP, so the batch always divides.
         [](const Scenario& s) {
             const long long unit = std::max<long long>(1, s.training.micro_batch * s.parallel.dp);
             std::vector<long long> v;
             for (long long k = 1; k <= (1 << 16) && unit * k <= (1LL << 24); k *= 2)
                 v.push_back(unit * k);
             return withCurrent(v, s.training.global_batch);
         },
         [](const Scenario& s) { return (long long)s.training.global_batch; },
         [](Scenario& s, long long v) { s.training.global_batch = v; }},
        {"parallel.tp", QT_TRANSLATE_NOOP("Knobs", "Tensor parallel (TP)"),
         [](const Scenario& s) { return withCurrent(powersOfTwo(1, 64), s.parallel.tp); },
         [](const Scenario& s) { return (long long)s.parallel.tp; },
         [](Scenario& s, long long v) { s.parallel.tp = int(v); }},
        {"parallel.pp", QT_TRANSLATE_NOOP("Knobs", "Pipeline parallel (PP)"),
         // Divisors of the layer count, and powers of two (to show what breaks beyond).
         [](const Scenario& s) {
             std::vector<long long> v = divisors(s.model.layers, 512);
             for (long long p : powersOfTwo(1, 256))
                 v.push_back(p);
             return withCurrent(v, s.parallel.pp);
         },
         [](const Scenario& s) { return (long long)s.parallel.pp; },
         [](Scenario& s, long long v) {
             s.parallel.pp = int(v);
             s.parallel.stage_layers.clear();
         }},
        {"parallel.vpp", QT_TRANSLATE_NOOP("Knobs", "Virtual stages (VPP)"),
         [](const Scenario& s) { return withCurrent({1, 2, 3, 4, 5, 6, 8, 10, 12, 16}, s.parallel.vpp); },
         [](const Scenario& s) { return (long long)s.parallel.vpp; },
         [](Scenario& s, long long v) { s.parallel.vpp = int(v); }},
        {"parallel.dp", QT_TRANSLATE_NOOP("Knobs", "Data parallel (DP)"),
         [](const Scenario& s) { return withCurrent(powersOfTwo(1, 1 << 16), s.parallel.dp); },
         [](const Scenario& s) { return (long long)s.parallel.dp; },
         [](Scenario& s, long long v) {
             // Keep the microbatch count: the global batch follows DP.
             const long long m = std::max<long long>(1, s.training.global_batch / std::max<long long>(1, s.training.micro_batch * s.parallel.dp));
             s.parallel.dp = int(v);
             s.training.global_batch = m * s.training.micro_batch * v;
         }},
        {"parallel.cp", QT_TRANSLATE_NOOP("Knobs", "Context parallel (CP)"),
         [](const Scenario& s) { return withCurrent(powersOfTwo(1, 64), s.parallel.cp); },
         [](const Scenario& s) { return (long long)s.parallel.cp; },
         [](Scenario& s, long long v) { s.parallel.cp = int(v); }},
        {"parallel.ep", QT_TRANSLATE_NOOP("Knobs", "Expert parallel (EP)"),
         [](const Scenario& s) {
             const long long experts = s.model.moe ? s.model.moe->experts : 1;
             return withCurrent(divisors(experts, 1024), s.parallel.ep);
         },
         [](const Scenario& s) { return (long long)s.parallel.ep; },
         [](Scenario& s, long long v) { s.parallel.ep = int(v); }},
        {"parallel.zero", QT_TRANSLATE_NOOP("Knobs", "ZeRO stage"),
         [](const Scenario&) { return std::vector<long long>{0, 1, 2, 3}; },
         [](const Scenario& s) { return (long long)s.parallel.zero; },
         [](Scenario& s, long long v) { s.parallel.zero = int(v); }},
    };
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
