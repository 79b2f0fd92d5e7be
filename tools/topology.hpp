// The host's hardware topology (packages, NUMA nodes, cores, PUs) as a short
// tree: what the CPU devices of the vendors share.
#pragma once
#include <ostream>

namespace unicl_tool {

// Prints the tree; returns false if hwloc could not read the topology.
bool print_topology(std::ostream &out);

}  // namespace unicl_tool
