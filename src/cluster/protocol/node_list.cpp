#include "cluster/protocol/node_list.hpp"

#include <netdb.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace unicl::cluster {

std::vector<NodeHost> parse_node_list(const std::string &list) {
  if (!list.empty() && list.find_first_not_of("0123456789") == std::string::npos)
    return {{"localhost", std::atoi(list.c_str())}};
  std::vector<NodeHost> out;
  std::stringstream entries(list);
  for (std::string entry; std::getline(entries, entry, ',');) {
    if (entry.empty()) continue;
    auto colon = entry.find(':');
    NodeHost h{entry.substr(0, colon), 1};
    if (colon != std::string::npos) h.count = std::max(1, std::atoi(entry.c_str() + colon + 1));
    if (!h.host.empty()) out.push_back(h);
  }
  return out;
}

int node_count(const std::vector<NodeHost> &hosts) {
  int total = 0;
  for (auto &h : hosts) total += h.count;
  return total;
}

bool host_resolves(const std::string &host) {
  addrinfo *found = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, nullptr, &found) != 0) return false;
  freeaddrinfo(found);
  return true;
}

std::vector<NodeHost> resolvable_hosts(const std::vector<NodeHost> &hosts, const char *who) {
  std::vector<NodeHost> out;
  for (auto &h : hosts) {
    if (host_resolves(h.host)) out.push_back(h);
    else std::fprintf(stderr, "%s: unknown host '%s': its nodes are left out\n", who, h.host.c_str());
  }
  return out;
}

std::string node_program_in(const std::string &dir, std::initializer_list<const char *> candidates) {
  for (const char *candidate : candidates)
    if (access((dir + "/" + candidate).c_str(), X_OK) == 0) return dir + "/" + candidate;
  return "unicl-node";
}

}  // namespace unicl::cluster
