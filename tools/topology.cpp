#include "topology.hpp"

#include "cluster/protocol/topology_text.hpp"

namespace unicl_tool {

bool print_topology(std::ostream &out) {
  const std::string text = unicl::cluster::topology_text();
  if (text.empty()) return false;
  out << "Host " << text;
  return true;
}

}  // namespace unicl_tool
