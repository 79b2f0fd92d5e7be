#include "backend/issue_queue.hpp"

#include "backend/vendor_call_scope.hpp"

namespace unicl {

void IssueQueue::post(std::function<void()> op) {
  {
    std::lock_guard lock(ops_mutex_);
    ops_.push_back(std::move(op));
  }
  VendorCallScope::defer([self = shared_from_this()] { self->drain(); });
}

void IssueQueue::drain() {
  // A thread that finds another draining waits for it: the other runs
  // this thread's ops too (it stops only on an empty queue), so on return
  // they have run either way.
  std::lock_guard issuing(issue_mutex_);
  for (;;) {
    std::function<void()> op;
    {
      std::lock_guard lock(ops_mutex_);
      if (ops_.empty()) return;
      op = std::move(ops_.front());
      ops_.pop_front();
    }
    op();
  }
}

}  // namespace unicl
