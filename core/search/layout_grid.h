#pragma once
// The (TP, PP, CP, DP) grids the strategy search walks, shared by the search (search.cpp) and
// its explanation of an empty result (search_explain.cpp).

#include "search/search.h"
#include "types/knobs.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace parascope {

// The values the knob table offers for `path` (types/knobs.h): the search tries what a slider
// offers, filtered by the rules below.
inline std::vector<long long> offered(const Scenario& base, std::string_view path)
{
    return findKnob(path)->offered(base);
}

// Every (TP, PP, CP, DP) grid the search considers on `gpus` GPUs, from the knobs' offered values:
// TP dividing the heads, the KV heads and the GPUs, inside a node unless allowed across; PP a
// divisor of the layer count or a power of two up to it (an uneven split is diagnosed as a
// warning); CP with 2·CP dividing the sequence and at least 1,024 tokens per rank; DP the rest.
template <typename F> void forEachGrid(const Scenario& base, const SearchOptions& o, std::int64_t gpus, F&& f)
{
    const ModelSpec& m = base.model;
    const int per_node = std::max(1, base.cluster.gpus_per_node);
    const long long tp_limit = o.tp_across_nodes ? gpus : std::min<std::int64_t>(gpus, per_node);
    const std::vector<long long> pps = offered(base, "parallel.pp"), cps = offered(base, "parallel.cp");
    for (long long tp : offered(base, "parallel.tp")) {
        if (tp > tp_limit || m.heads % tp || m.kv_heads % tp || gpus % tp)
            continue;
        for (long long pp : pps) {
            if (pp > m.layers || tp * pp > gpus || gpus % (tp * pp))
                continue;
            for (long long cp : cps) {
                const long long rest = gpus / (tp * pp);
                if (rest % cp || base.training.seq_len % (2LL * cp) != 0
                    || (cp > 1 && base.training.seq_len / cp < 1024))
                    continue;
                f(int(tp), int(pp), int(cp), int(rest / cp));
            }
        }
    }
}

} // namespace parascope
