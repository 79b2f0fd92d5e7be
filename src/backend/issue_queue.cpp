#include "backend/issue_queue.hpp"

#include "backend/nested_deferral.hpp"
#include "backend/vendor_call_scope.hpp"

namespace unicl {
namespace {

// Per thread by nature: this thread's drains (they nest when an op posts)
// and what runs once the outermost has stopped and released the queue.
thread_local NestedDeferral issuing_here;

}  // namespace

void IssueQueue::after_issuing(std::function<void()> fn) { issuing_here.defer(std::move(fn)); }

void IssueQueue::post(std::function<void()> op) {
  {
    std::lock_guard lock(ops_mutex_);
    ops_.push_back({std::move(op), nullptr});
  }
  posted();
}

void IssueQueue::post(std::shared_ptr<IssueStep> step) {
  {
    std::lock_guard lock(ops_mutex_);
    ops_.push_back({nullptr, std::move(step)});
  }
  posted();
}

void IssueQueue::posted() {
  VendorCallScope::defer([self = shared_from_this()] { self->drain(); });
}

void IssueQueue::drain() {
  NestedDeferral &here = issuing_here;
  here.enter();
  {
    // A thread that finds another draining waits for it: the other runs
    // this thread's ops too (it stops only on an empty queue), so on return
    // they have run either way.
    std::lock_guard issuing(issue_mutex_);
    for (;;) {
      Op op;
      {
        std::lock_guard lock(ops_mutex_);
        if (ops_.empty()) break;
        op = std::move(ops_.front());
        ops_.pop_front();
      }
      if (op.step) op.step->issue_now();
      else op.fn();
    }
  }
  here.leave();  // after_issuing() work, outside the queue's lock
}

}  // namespace unicl
