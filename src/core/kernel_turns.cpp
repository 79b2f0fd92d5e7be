#include "core/kernel_turns.hpp"

#include <utility>

namespace unicl {

std::shared_ptr<Completion> KernelTurns::take(const std::string &kernel, const std::shared_ptr<Completion> &next,
                                              cl_command_queue queue, bool in_order) {
  Launch before;
  {
    std::lock_guard lock(mutex_);
    before = std::exchange(last_[kernel], Launch{next, queue});
  }
  if (in_order && before.queue == queue) return nullptr;
  // Asked outside the lock: a completion's status may ask its vendor.
  std::shared_ptr<Completion> done = before.done.lock();
  return done && !done->done() ? done : nullptr;
}

}  // namespace unicl
