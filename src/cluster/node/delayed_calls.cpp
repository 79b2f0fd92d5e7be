#include "cluster/node/delayed_calls.hpp"

namespace unicl::cluster {

DelayedCalls::DelayedCalls(std::chrono::microseconds delay)
    : delay_(delay), thread_([this](std::stop_token stop) { run(stop); }) {}

DelayedCalls::~DelayedCalls() {
  thread_.request_stop();
  thread_.join();
}

void DelayedCalls::post(std::function<void()> call) {
  {
    std::lock_guard lock(mutex_);
    calls_.emplace_back(Clock::now() + delay_, std::move(call));
  }
  posted_.notify_one();
}

void DelayedCalls::run(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  while (!stop.stop_requested()) {
    if (calls_.empty()) {
      posted_.wait(lock, stop, [this] { return !calls_.empty(); });
      continue;
    }
    // Every call waits as long, so the first posted is the first due.
    posted_.wait_until(lock, stop, calls_.front().first, [] { return false; });
    if (stop.stop_requested()) break;
    if (Clock::now() < calls_.front().first) continue;
    auto call = std::move(calls_.front().second);
    calls_.pop_front();
    lock.unlock();
    call();
    lock.lock();
  }
}

}  // namespace unicl::cluster
