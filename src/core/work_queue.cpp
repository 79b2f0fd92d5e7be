#include "core/work_queue.hpp"

namespace unicl {

void WorkQueue::post(std::function<void()> job) {
  std::lock_guard lock(mutex_);
  jobs_.push_back(std::move(job));
  if (!started_) {
    started_ = true;
    // Detached: the queue belongs to the immortal runtime and the thread
    // sleeps when idle, so process exit never waits for it.
    std::thread([this] { run(); }).detach();
  }
  ready_.notify_one();
}

void WorkQueue::run() {
  if (on_start_) on_start_();
  std::unique_lock lock(mutex_);
  for (;;) {
    ready_.wait(lock, [this] { return !jobs_.empty(); });
    auto job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    job();
    lock.lock();
  }
}

}  // namespace unicl
