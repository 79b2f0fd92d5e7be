// A stretch of one thread's execution that nests, and the work put off to
// its outermost end: the no-vendor-call scope of a context lock
// (vendor_call_scope.hpp) and an issue queue's drain (issue_queue.hpp) are
// both one of these, kept per thread.
#pragma once
#include <functional>
#include <vector>

namespace unicl {

class NestedDeferral {
 public:
  void enter() { ++depth_; }
  // Leaves; leaving the outermost stretch runs what was deferred in it, in
  // order, outside any stretch (work that defers more runs at once then,
  // and may enter and leave stretches of its own: the list is taken first).
  void leave() {
    if (--depth_ > 0) return;
    while (!deferred_.empty()) {
      std::vector<std::function<void()>> now;
      now.swap(deferred_);
      for (auto &fn : now) fn();
      now.clear();
      if (deferred_.capacity() == 0) deferred_.swap(now);  // keep the storage for the next stretch
    }
  }
  bool inside() const { return depth_ > 0; }
  // Runs `fn` at the end of the outermost stretch, or now outside one.
  void defer(std::function<void()> fn) {
    if (depth_ == 0) return fn();
    deferred_.push_back(std::move(fn));
  }

 private:
  int depth_ = 0;
  std::vector<std::function<void()>> deferred_;
};

}  // namespace unicl
