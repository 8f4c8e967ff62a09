#pragma once
// The bandwidth ladder: from the figure on a datasheet to what a collective gets, one rung at a
// time, each with its factor and its source — bidirectional → per direction → per GPU →
// achievable (efficiency) → algbw → busbw — for NVLink and for the network (InfiniBand or
// RoCE), with the course chapter's own figures placed on it. Students meet "600 GB/s",
// "12.5 GB/s" and "800 Gbps" in the chapter and 300 or 25 GB/s in the engine: the ladder says
// which rung each one is.

#include "comm/comm_algorithm.h"
#include "parallel/placement.h"
#include "types/comm_types.h"
#include "types/diagnostic.h"
#include "types/gpu_spec.h"

#include <string>
#include <vector>

namespace parascope {

struct LadderRung {
    Localized name; // "per direction"
    double bytes_per_s = 0;
    Localized factor; // how it follows from the rung above: "÷ 2: one direction of the link"
    std::string source;
};

// A figure the course chapter quotes, and where it sits on this cluster's ladder.
struct ChapterFigure {
    Localized quote; // "NVLink 600 GB/s"
    double bytes_per_s = 0;
    int rung = -1; // the rung it is on this ladder (−1: another link's or another NIC's figure)
    Localized where; // "the bidirectional figure of an A100's NVLink; the engine uses 300 per direction"
};

struct BandwidthLadder {
    Link link = Link::NvLink;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring; // the engine's, for the last two rungs
    Localized title; // "NVLink (DGX A100 80GB, 8×HDR 200 Gb/s): all_reduce of 1 GiB on 8 GPUs"
    std::vector<LadderRung> rungs; // the six rungs, top (datasheet) first
    std::vector<ChapterFigure> chapter;
};

// The ladder of `link` (NvLink or Network; PCIe inside a node reads as NvLink's place) on the
// cluster, ending in the algbw and busbw of `op` of S bytes on the group `g` by the algorithm the
// engine assumes (comm/collective_cost.h): the same numbers `collective` and `evaluate` give.
BandwidthLadder bandwidthLadder(Link link, const ClusterSpec& cluster, Collective op, double S,
                                const GroupPlacement& g);

// The ladder as lines of text, rung by rung with its value and factor, then the chapter's
// figures: what `parascope-cli collective` prints and the app's tooltips show.
std::vector<std::string> ladderLines(const BandwidthLadder& l, const std::string& lang);

} // namespace parascope
