#include "search/search.h"
#include "search/layout_grid.h"

#include "estimate/diagnostics.h"
#include "estimate/display_names.h"

#include <algorithm>
#include <string>
#include <vector>

// When the search finds nothing: why (explainEmptySearch), and the fewest GPUs on which it
// would (fewestGpus); both in both languages.

namespace parascope {

namespace {

// "641, 1282, …" (sep ", "), or "641、1282、…" (sep "、", Chinese).
std::string join(const std::vector<long long>& v, std::size_t most, const char* sep = ", ")
{
    std::string s;
    for (std::size_t i = 0; i < v.size() && i < most; ++i)
        s += (i ? sep : "") + std::to_string(v[i]);
    if (v.size() > most)
        s += std::string(sep) + "…";
    return s;
}

// Whether `gpus` GPUs admit any layout the search would evaluate (the structural rules only).
bool anyLayout(const Scenario& base, const SearchOptions& o, std::int64_t gpus)
{
    SearchOptions one = o;
    one.gpus = gpus;
    return !enumerateStrategies(base, one).empty();
}

} // namespace

EmptySearchReason explainEmptySearch(const Scenario& base, const SearchOptions& o, const SearchResult& r)
{
    EmptySearchReason out;
    const std::int64_t gpus = o.gpus > 0 ? o.gpus : base.parallel.gpus();
    if (const auto errors = layoutIndependentErrors(base); !errors.empty()) {
        out.text = {"No layout can work: " + errors.front().message.en + " " + errors.front().suggestion.en,
                    "任何并行布局都不可行：" + errors.front().message.zh + errors.front().suggestion.zh};
        return out;
    }
    if (r.valid > 0) { // the layouts break no rule: memory rules them all out
        const bool host = base.cluster.host.known() && base.parallel.offload == Offload::None;
        out.text = {"Every valid layout of " + countOf(gpus, "GPU", "GPUs")
                        + " runs out of memory: more GPUs, a shorter sequence or a smaller batch"
                        + (host ? ", or the optimizer states in the CPU's memory (CPU offload: the search keeps "
                                  "the scenario's)."
                                : "."),
                    std::to_string(gpus) + " 块 GPU 上的每种合法布局都显存溢出：需要更多 GPU、更短的序列或更小的批"
                        + (host ? "，或把优化器状态放到 CPU 内存（CPU 卸载：搜索沿用场景的设置）。" : "。")};
        return out;
    }
    // No layout passes the rules: say which, with the data-parallel widths the others leave.
    const ModelSpec& m = base.model;
    const int per_node = std::max(1, base.cluster.gpus_per_node);
    std::vector<long long> widths;
    forEachGrid(base, o, gpus, [&](int, int, int, int dp) { widths.push_back(dp); });
    std::sort(widths.begin(), widths.end());
    widths.erase(std::unique(widths.begin(), widths.end()), widths.end());
    const std::string mbs = join(o.micro_batches, o.micro_batches.size()),
                      mbs_zh = join(o.micro_batches, o.micro_batches.size(), "、");
    const std::string g = std::to_string(gpus), b = std::to_string(base.training.global_batch);
    if (widths.empty()) {
        out.text
            = {"No layout of " + countOf(gpus, "GPU", "GPUs") + " exists: TP must divide the " + std::to_string(m.heads)
                   + " heads (" + std::to_string(m.kv_heads) + " KV heads) and stay inside a node, PP ≤ "
                   + std::to_string(m.layers) + " layers, and TP·PP·CP must divide " + g + ".",
               g + " 块 GPU 无法组成任何布局：TP 必须整除 " + std::to_string(m.heads) + " 个注意力头（"
                   + std::to_string(m.kv_heads) + " 个 KV 头）且不跨节点，PP ≤ " + std::to_string(m.layers)
                   + " 层，并且 TP·PP·CP 必须整除 " + g + "。"};
    } else {
        out.text
            = {"No layout of " + countOf(gpus, "GPU", "GPUs") + " divides the batch: DP = GPUs/(TP·PP·CP) can only be "
                   + join(widths, 8) + ", and the global batch " + b
                   + " must be a multiple of micro batch × DP (micro batch " + mbs + ").",
               g + " 块 GPU 的布局都无法整除批：DP = GPU 数 /（TP·PP·CP）只能取 " + join(widths, 8, "、")
                   + "，而全局批大小 " + b + " 必须是 微批大小 × DP 的整数倍（微批大小 " + mbs_zh + "）。"};
    }
    // The nearest whole-node GPU counts below and above that have a layout.
    const std::int64_t start = std::max<std::int64_t>(per_node, gpus / per_node * per_node);
    std::int64_t below = 0, above = 0;
    for (int k = 0; k < 256 && (!below || !above); ++k) {
        const std::int64_t lo = start - std::int64_t(k) * per_node, hi = start + std::int64_t(k + 1) * per_node;
        if (!below && lo >= per_node && lo != gpus && anyLayout(base, o, lo))
            below = lo;
        if (!above && hi != gpus && hi <= (std::int64_t(1) << 24) && anyLayout(base, o, hi))
            above = hi;
    }
    for (std::int64_t v : {below, above})
        if (v)
            out.nearest.push_back(v);
    return out;
}

FewestGpusResult fewestGpus(const Scenario& base, std::int64_t max_gpus)
{
    FewestGpusResult out;
    if (const auto errors = layoutIndependentErrors(base); !errors.empty()) { // no GPU count helps: searched none
        out.reason = {errors.front().message.en + " " + errors.front().suggestion.en,
                      errors.front().message.zh + errors.front().suggestion.zh};
        return out;
    }
    out.searched_up_to = max_gpus;
    const std::int64_t node = std::max(1, base.cluster.gpus_per_node);
    const auto fits = [&](std::int64_t g) {
        SearchOptions o;
        o.gpus = g;
        o.top = 1;
        o.simulate = false;
        o.micro_batches = {1};
        Scenario sc = base;
        // A global batch every data-parallel width divides.
        sc.training.global_batch = std::max<long long>(sc.training.global_batch, g);
        sc.training.global_batch = (sc.training.global_batch + g - 1) / g * g;
        ++out.searches;
        return !searchStrategies(sc, o).top.empty();
    };
    // Doubling: 1, 2, 4, … a node, then 2, 4, 8 … nodes.
    std::int64_t lo = 0, hi = 0;
    for (std::int64_t g = 1; g <= max_gpus; g *= 2) {
        if (fits(g)) {
            hi = g;
            break;
        }
        lo = g;
    }
    if (!hi) {
        out.reason = {
            "no layout fits on up to " + countOf(max_gpus, "GPU", "GPUs")
                + ": even the most sharded layout needs more "
                  "memory per GPU than "
                + base.cluster.gpu.name
                + " has (a shorter sequence, a smaller micro batch, "
                  "full recompute or a GPU with more memory)",
            "最多 " + std::to_string(max_gpus) + " 块 GPU 时仍没有能放下的布局：即使切分最细，每块 GPU 所需显存也超过 "
                + base.cluster.gpu.name + " 的容量（缩短序列、减小微批大小、完全重计算，或换更大显存的 GPU）"};
        return out;
    }
    // Bisection over whole nodes in (lo, hi] once a node is reached; below a node, hi is exact.
    if (hi > node) {
        std::int64_t a = lo / node, b = hi / node; // fits(b·node), not fits(a·node)
        while (b - a > 1) {
            const std::int64_t mid = (a + b) / 2;
            (fits(mid * node) ? b : a) = mid;
        }
        hi = b * node;
    }
    out.gpus = hi;
    return out;
}

} // namespace parascope
