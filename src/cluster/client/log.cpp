#include "cluster/client/log.hpp"

#include <cstdlib>

namespace unicl::cluster {

int log_level() {
  static const int level = [] {
    const char *text = std::getenv("UNICL_LOG");
    return text ? std::atoi(text) : 0;
  }();
  return level;
}

}  // namespace unicl::cluster
