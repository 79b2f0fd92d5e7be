#include "memory/eviction_order.hpp"

#include <algorithm>

namespace unicl {

void EvictionOrder::missed(const void *buffer) {
  auto it = std::find(recent_evictions_.begin(), recent_evictions_.end(), buffer);
  bool returned = it != recent_evictions_.end();
  if (returned) recent_evictions_.erase(it);
  returns_ = 0.8 * returns_ + (returned ? 0.2 : 0.0);
}

void EvictionOrder::evicted(const void *buffer) {
  recent_evictions_.push_back(buffer);
  if (recent_evictions_.size() > kRemembered) recent_evictions_.pop_front();
}

}  // namespace unicl
