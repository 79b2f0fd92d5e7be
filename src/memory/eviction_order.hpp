// Which replicas a full device gives up first.
//
// Least recently used is right while the program's working set drifts, and
// exactly wrong when it cycles over more buffers than fit (a pass over 32
// buffers on a device that holds 8): the buffer evicted is always the one
// needed next, so every launch misses. The order therefore watches its own
// mistakes: a device that keeps bringing back buffers it evicted a moment
// ago switches to evicting the most recently used instead, which keeps most
// of a cycle resident and misses only on the rest; when misses stop being
// such returns, it goes back to least recently used.
#pragma once
#include <cstddef>
#include <deque>

namespace unicl {

class EvictionOrder {
 public:
  // A replica of `buffer` was made on the device (a miss).
  void missed(const void *buffer);
  // `buffer`'s replica was evicted from the device.
  void evicted(const void *buffer);
  // True: evict the most recently used candidates first.
  bool most_recent_first() const { return returns_ > 0.5; }

 private:
  // Identities only, never dereferenced: a freed buffer's address reused by
  // a new one at worst counts one return too many.
  std::deque<const void *> recent_evictions_;
  static constexpr size_t kRemembered = 64;
  double returns_ = 0;  // moving average: the share of misses that were recent evictions
};

}  // namespace unicl
