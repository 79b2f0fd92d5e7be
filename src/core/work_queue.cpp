#include "core/work_queue.hpp"

namespace unicl {
namespace {

thread_local bool is_queue_thread = false;

}  // namespace

bool WorkQueue::on_queue_thread() { return is_queue_thread; }

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
  is_queue_thread = true;
  if (on_start_) on_start_();
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return !jobs_.empty(); });
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    // Run and destroyed without the lock: what a job holds may be the last
    // reference to a vendor object, whose release may wait for a serialized
    // vendor's lock, under which that vendor's callbacks post here.
    job();
  }
}

}  // namespace unicl
