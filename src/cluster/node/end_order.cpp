// The order of a node's reported ends (end_order.hpp).
#include "cluster/node/end_order.hpp"

#include <algorithm>

namespace unicl::cluster {

void EndOrder::await(uint64_t id, const std::vector<uint64_t> &follows) {
  std::vector<uint64_t> &before = follows_[id];
  for (uint64_t p : follows)
    if (p != id && awaited(p)) before.push_back(p);
}

bool EndOrder::follows_unreported(uint64_t id) const {
  auto it = follows_.find(id);
  return it != follows_.end() &&
         std::any_of(it->second.begin(), it->second.end(), [&](uint64_t p) { return awaited(p); });
}

std::vector<uint64_t> EndOrder::ended(uint64_t id) {
  if (follows_unreported(id)) {
    held_.insert(id);
    return {};
  }
  std::vector<uint64_t> ready = {id};
  follows_.erase(id);
  // Each end reported may free held ones, which may free others: few are
  // ever held, and each only until its predecessor's callback has run.
  for (bool freed = true; freed;) {
    freed = false;
    for (auto it = held_.begin(); it != held_.end(); ++it) {
      if (follows_unreported(*it)) continue;
      ready.push_back(*it);
      follows_.erase(*it);
      held_.erase(it);
      freed = true;
      break;
    }
  }
  return ready;
}

}  // namespace unicl::cluster
