#include "backend/issue_queue.hpp"

#include "backend/vendor_call_scope.hpp"

#include <vector>

namespace unicl {
namespace {

// Per thread by nature: what this thread's drain runs once it has stopped
// (one thread-local object: one lookup per call).
struct Issuing {
  int draining = 0;
  std::vector<std::function<void()>> after_drain;
};
thread_local Issuing issuing_here;

}  // namespace

void IssueQueue::after_issuing(std::function<void()> fn) {
  Issuing &here = issuing_here;
  if (here.draining == 0) return fn();
  here.after_drain.push_back(std::move(fn));
}

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
  Issuing &here = issuing_here;
  {
    // A thread that finds another draining waits for it: the other runs
    // this thread's ops too (it stops only on an empty queue), so on return
    // they have run either way.
    std::lock_guard issuing(issue_mutex_);
    ++here.draining;
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
    --here.draining;
  }
  if (here.draining > 0) return;
  while (!here.after_drain.empty()) {
    std::vector<std::function<void()>> now;
    now.swap(here.after_drain);
    for (auto &fn : now) fn();
    now.clear();
    if (here.after_drain.capacity() == 0) here.after_drain.swap(now);  // keep the storage for the next drain
  }
}

}  // namespace unicl
