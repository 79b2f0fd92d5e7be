#include "cluster/protocol/hwloc_plugins.hpp"

#include <algorithm>

namespace unicl::cluster {

std::string hwloc_blacklist_with_ours(const char *now) {
  const std::string given = now ? now : "";
  // hwloc separates the names by commas, spaces, colons or semicolons.
  auto names = [&](const std::string &plugin) {
    for (size_t at = 0; at <= given.size();) {
      const size_t end = std::min(given.find_first_of(", :;", at), given.size());
      if (given.compare(at, end - at, plugin) == 0) return true;
      at = end + 1;
    }
    return false;
  };
  std::string value = given;
  bool added = false;
  for (const char *plugin : {"hwloc_opencl", "hwloc_gl"})
    if (!names(plugin)) {
      value += (value.empty() ? "" : ",") + std::string(plugin);
      added = true;
    }
  return added ? value : std::string();
}

}  // namespace unicl::cluster
