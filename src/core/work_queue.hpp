// A thread that runs posted jobs one after another. Deferred commands are
// submitted from here rather than from the vendor callback that made them
// ready: vendors call back holding their own locks, and a callback that
// enqueued into the same vendor could deadlock it.
#pragma once
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace unicl {

class WorkQueue {
 public:
  // `on_start` runs first on the queue's thread (e.g. to place it).
  explicit WorkQueue(std::function<void()> on_start = {}) : on_start_(std::move(on_start)) {}
  void post(std::function<void()> job);
  // Whether the calling thread is the thread of a WorkQueue: one of
  // UniCL's own (the runtime's work queue, a device's worker), not an
  // application's or a vendor's.
  static bool on_queue_thread();

 private:
  void run();
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  bool started_ = false;
  std::function<void()> on_start_;
};

}  // namespace unicl
