#include "io/comm_report.h"

#include "io/report_json.h"

namespace parascope {

// Every entry of the communication plan, PP entries with their links per boundary.
nlohmann::json communicationToJson(const Estimate& est, bool explain)
{
    nlohmann::json comm = nlohmann::json::array();
    for (const CommEntry& c : est.communication) {
        nlohmann::json e = {{"group", toString(c.group)},
                            {"collective", toString(c.collective)},
                            {"algorithm", toString(c.algorithm)},
                            {"busbw_gbps", c.busbw_bytes_per_s / 1e9},
                            {"calls_per_step", c.calls_per_step},
                            {"bytes_per_call", whole(c.bytes_per_call)},
                            {"bytes_per_gpu_per_step", whole(c.bytes_per_gpu_per_step)},
                            {"link", toString(c.link)},
                            {"purpose", toString(c.purpose)},
                            {"time_s", c.time_s},
                            {"exposed_s", c.exposed_s},
                            {"group_size", c.group_size},
                            {"nodes_spanned", c.nodes_spanned},
                            {"overlap", toString(c.overlap)}};
        if (!c.boundaries.empty()) {
            // One row per link: the boundaries that use it and one send's time over it (the
            // boundaries themselves are placement.pp_boundary_links).
            nlohmann::json links = nlohmann::json::array();
            for (Link link : {Link::NvLink, Link::Pcie, Link::Network}) {
                long long n = 0;
                double t = 0;
                for (const BoundarySend& b : c.boundaries)
                    if (b.boundary.link == link) {
                        ++n;
                        t = b.seconds;
                    }
                if (n > 0)
                    links.push_back({{"link", toString(link)}, {"boundaries", n}, {"time_per_call_s", t}});
            }
            e["boundary_links"] = std::move(links);
        }
        if (explain)
            e["terms"] = termsToJson(c.terms);
        comm.push_back(std::move(e));
    }
    return comm;
}

} // namespace parascope
