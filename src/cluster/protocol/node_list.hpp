// The node lists users write (`unicl run --nodes`, UNICL_NODES): which
// hosts, and how many unicl-node processes on each.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

namespace unicl::cluster {

struct NodeHost {
  std::string host;
  int count = 1;
};

// "host[:count],..." (a host without a count: one node), or a bare count:
// that many nodes on this host ("localhost"). Empty entries are skipped.
std::vector<NodeHost> parse_node_list(const std::string &list);
int node_count(const std::vector<NodeHost> &hosts);

// Whether `host` names a machine (its address resolves): a list naming
// an unknown host would otherwise stop Open MPI's start of the nodes.
bool host_resolves(const std::string &host);

// The hosts that resolve; a line on stderr (from `who`) for each that does
// not, whose nodes are left out.
std::vector<NodeHost> resolvable_hosts(const std::vector<NodeHost> &hosts, const char *who);

// unicl-node beside a UniCL binary or library in folder `dir`: the first of
// `candidates` (paths relative to `dir`) that can run, else "unicl-node"
// (from PATH).
std::string node_program_in(const std::string &dir, std::initializer_list<const char *> candidates);

}  // namespace unicl::cluster
