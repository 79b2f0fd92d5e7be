// Which commands of its own queue a node's command follows, by OpenCL's
// rules, for the order of the ends it reports (end_order.hpp).
//
// On an in-order queue a command follows the one before it. On an
// out-of-order queue it follows its wait list, and the queue's last
// barrier; a marker or barrier with no wait list follows every command
// enqueued before it. Only commands whose ends are reported have ids (a
// command rank 0 cannot name has none), so an unnamed barrier passes on
// what it follows to the commands after it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace unicl::cluster {

class QueueOrder {
 public:
  explicit QueueOrder(bool in_order) : in_order_(in_order) {}
  // Command `id` (0: unnamed) was enqueued with wait list `wait`;
  // `all_before`: it waits for every command enqueued before it (a marker
  // or barrier with no wait list); `barrier`: every later command waits
  // for it. Returns the ids whose ends its end follows.
  std::vector<uint64_t> enqueued(uint64_t id, const std::vector<uint64_t> &wait, bool all_before, bool barrier);
  // Out of order, the commands since the last barrier accumulate:
  // `reported` tells which of them no end can follow any more (forgotten).
  bool wants_pruning() const { return since_barrier_.size() >= prune_at_; }
  void prune(const std::function<bool(uint64_t)> &reported);

 private:
  bool in_order_;
  uint64_t previous_ = 0;                 // in order: the last named command
  std::vector<uint64_t> after_barrier_;   // out of order: what every command follows
  std::vector<uint64_t> since_barrier_;   // out of order: named commands since the last barrier
  std::size_t prune_at_ = 64;
};

}  // namespace unicl::cluster
