// The order in which work planned for one device is handed to it.
//
// Under the context lock the core and the memory layer only plan: they
// decide what runs where, record it for coherence and the task graph
// (with PendingCompletions), and post here the vendor calls that do it,
// in the order they were planned. Those calls run outside the lock, in
// that order, on whichever thread drains the queue first once it has
// released the lock: usually the thread that planned them (so a command
// enqueued from the application is issued before its enqueue call
// returns, and the vendor's error can still be returned), a device worker
// for work planned there. Work for one device therefore reaches it in
// plan order without the context lock held around any vendor call.
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace unicl {

// Work that keeps what its issue needs itself (a command: its task), so
// that posting it allocates nothing.
class IssueStep {
 public:
  virtual ~IssueStep() = default;
  virtual void issue_now() = 0;
};

class IssueQueue : public std::enable_shared_from_this<IssueQueue> {
 public:
  // Appends `op` (or `step`); it runs at the latest when this thread leaves
  // its context-lock scope (vendor_call_scope.hpp), at once outside of one.
  void post(std::function<void()> op);
  void post(std::shared_ptr<IssueStep> step);
  // Runs every posted op, in order; returns once the queue is empty and
  // whatever this thread posted before has run.
  void drain();
  // From inside an op: runs `fn` once this thread has stopped issuing (the
  // queue's lock released), e.g. a flush, which may take long and need not
  // hold up other threads' issuing to the device.
  static void after_issuing(std::function<void()> fn);

 private:
  struct Op {
    std::function<void()> fn;
    std::shared_ptr<IssueStep> step;
  };
  void posted();
  std::mutex ops_mutex_;
  std::deque<Op> ops_;
  std::recursive_mutex issue_mutex_;  // held while ops run: one thread issues at a time (an op that posts drains again)
};

}  // namespace unicl
