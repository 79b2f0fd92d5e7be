// A machine's hardware topology (packages, NUMA nodes, cores, PUs) as hwloc
// reads it, in a short text tree: what `unicl info` prints for this host
// and what each node describes of its own (messages.hpp, NodeDescription).
#pragma once
#include <string>

namespace unicl::cluster {

// A summary line, then the tree; empty if hwloc could not read it.
std::string topology_text();

}  // namespace unicl::cluster
