// The last launch of each kernel issued to one device of a context, for a
// device on which launches of one kernel must not run side by side
// (_cl_device_id::launches_overlap): the next launch of that kernel there
// waits for it in the vendor's wait list (Task::take_turn).
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "backend/completion.hpp"

namespace unicl {

class KernelTurns {
 public:
  // Records `next`, issued on vendor queue `queue`, as the last launch of
  // `kernel` on the device; returns the one before it if that has not ended
  // yet and `queue` does not already order the two (it is in order and
  // issued both), else null.
  std::shared_ptr<Completion> take(const std::string &kernel, const std::shared_ptr<Completion> &next,
                                   cl_command_queue queue, bool in_order);

 private:
  struct Launch {
    std::weak_ptr<Completion> done;
    cl_command_queue queue = nullptr;
  };
  std::mutex mutex_;
  std::unordered_map<std::string, Launch> last_;
};

}  // namespace unicl
