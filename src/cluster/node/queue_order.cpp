// What a node's command follows on its queue (queue_order.hpp).
#include "cluster/node/queue_order.hpp"

#include <algorithm>

namespace unicl::cluster {

std::vector<uint64_t> QueueOrder::enqueued(uint64_t id, const std::vector<uint64_t> &wait, bool all_before,
                                           bool barrier) {
  std::vector<uint64_t> follows = wait;
  if (in_order_) {
    if (previous_) follows.push_back(previous_);
    if (id) previous_ = id;
    return follows;
  }
  follows.insert(follows.end(), after_barrier_.begin(), after_barrier_.end());
  if (all_before) follows.insert(follows.end(), since_barrier_.begin(), since_barrier_.end());
  if (barrier) after_barrier_ = id ? std::vector<uint64_t>{id} : follows;
  if (barrier && all_before)
    since_barrier_.clear();  // each is before the barrier, which later commands follow
  else if (id)
    since_barrier_.push_back(id);
  return follows;
}

void QueueOrder::prune(const std::function<bool(uint64_t)> &reported) {
  std::erase_if(since_barrier_, reported);
  std::erase_if(after_barrier_, reported);
  prune_at_ = 2 * since_barrier_.size() + 64;
}

}  // namespace unicl::cluster
