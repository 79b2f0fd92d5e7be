// Calls run a fixed time after they are posted, in the order posted, on a
// thread of their own. For tests: unicl-node's UNICL_NODE_SLOW_READ_ENDS
// records the ends of reads late with it, as a vendor callback preempted on
// a busy machine would, so that the node's ends reported in OpenCL's order
// (end_order.hpp) are checked against callbacks that do not keep it.
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>
#include <utility>

namespace unicl::cluster {

class DelayedCalls {
 public:
  explicit DelayedCalls(std::chrono::microseconds delay);
  // Calls not due yet are dropped: what they would report has no one left
  // to hear it.
  ~DelayedCalls();
  DelayedCalls(const DelayedCalls &) = delete;
  DelayedCalls &operator=(const DelayedCalls &) = delete;
  void post(std::function<void()> call);

 private:
  void run(std::stop_token stop);
  using Clock = std::chrono::steady_clock;
  const std::chrono::microseconds delay_;
  std::mutex mutex_;
  std::condition_variable_any posted_;
  std::deque<std::pair<Clock::time_point, std::function<void()>>> calls_;
  std::jthread thread_;  // last: stopped and joined before the rest goes
};

}  // namespace unicl::cluster
