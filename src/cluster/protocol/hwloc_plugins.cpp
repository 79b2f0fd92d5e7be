#include "cluster/protocol/hwloc_plugins.hpp"

#include <sstream>

namespace unicl::cluster {

std::string hwloc_blacklist_with_ours(const char *now) {
  const std::string given = now ? now : "";
  // hwloc separates the names by commas (or spaces, colons, semicolons).
  auto names = [&](const std::string &plugin) {
    std::string token;
    std::istringstream words(given);
    while (std::getline(words, token, ','))
      for (size_t at = 0; at < token.size();) {
        size_t end = token.find_first_of(" :;", at);
        if (token.substr(at, end - at) == plugin) return true;
        if (end == std::string::npos) break;
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
