#pragma once
// The builder behind the communication plan's per-group functions (comm/group_collectives.h):
// one CommEntry per collective a group issues, with its volume, its time by the algorithm the
// engine assumes, and the terms that explain both. Internal to comm/.

#include "comm/collective_cost.h"
#include "comm/comm_volume.h"

#include <string>
#include <vector>

namespace parascope::comm_plan {

// A volume formula is either text or a function that writes it (when it needs numbers).
inline std::string volumeText(const char* text) { return text; }
template <class Write> std::string volumeText(const Write& write) { return write(); }

struct Builder {
    const CommInputs& in;
    std::vector<CommEntry> out;

    // volume_formula and source explain the entry; they are only read when explaining.
    // `on` replaces the group's placement (HSDP's shard and replica groups are parts of dp·cp).
    template <class VolumeFormula>
    void add(Group group, Collective c, Purpose purpose, double calls, double S, double rounds, Overlap overlap,
             VolumeFormula&& volume_formula, const char* source, const GroupPlacement* on = nullptr)
    {
        const GroupPlacement& g = on ? *on : in.placement.group(group);
        if (calls <= 0 || S <= 0 || (g.size <= 1 && c != Collective::SendRecv))
            return;
        const CollectiveAlgorithm algorithm = assumedAlgorithm(c, S, g, in.cluster);
        const CollectiveTime one = collectiveTime(algorithm, c, S, g, in.cluster, in.explain);
        CommEntry e = entry(group, c, purpose, calls, S, rounds, overlap, g, algorithm, one.seconds);
        if (in.explain == Explain::Full)
            explain(e, one, volumeText(volume_formula), source);
        out.push_back(std::move(e));
    }

    // The all-to-all entry just added, sent by DeepEP: one copy per GPU and per node of the
    // token's experts instead of one per expert (dedupAllToAllTime).
    void dedupLast(double top_k, double experts);

    // The PP entry just added: one send of S across each stage boundary over that boundary's own
    // link (a pair of GPUs, inside a node or across two). The entry keeps the slowest boundary.
    void addBoundaries(double S);

private:
    static CommEntry entry(Group group, Collective c, Purpose purpose, double calls, double S, double rounds,
                           Overlap overlap, const GroupPlacement& g, CollectiveAlgorithm algorithm,
                           double seconds_per_call);
    static void explain(CommEntry& e, const CollectiveTime& one, const std::string& volume, const char* source);
    // The entry's per-call and per-step time terms, after its time changed.
    static void retime(CommEntry& e, const CollectiveTime& one, const char* per_step_formula);
};

} // namespace parascope::comm_plan
