#include "worker.hpp"

#include <algorithm>
#include <chrono>

#include "objects.hpp"

namespace sim {

void Worker::submit(Command c) {
  std::lock_guard lock(mutex_);
  pending_.push_back(std::move(c));
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  changed_.notify_one();
}

void Worker::wake() {
  // Taking the lock orders this after a worker's readiness check, so a
  // status published before wake() is never missed.
  std::lock_guard lock(mutex_);
  changed_.notify_one();
}

std::list<Command>::iterator Worker::ready() {
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    bool ok = true;
    for (const auto &dep : it->dependencies) ok = ok && dep->done();
    if (ok) return it;
  }
  return pending_.end();
}

void Worker::run() {
  using clock = std::chrono::steady_clock;
  for (;;) {
    Command c;
    {
      std::unique_lock lock(mutex_);
      std::list<Command>::iterator it;
      changed_.wait(lock, [&] { return (it = ready()) != pending_.end(); });
      c = std::move(*it);
      pending_.erase(it);
    }
    cl_int result = CL_SUCCESS;
    for (const auto &dep : c.dependencies)
      if (dep->status < 0) result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    if (result == CL_SUCCESS) {
      // The device keeps a clock of its own: a command starts when the
      // device became free, its submission came and its dependencies were
      // met, whichever is last, even if this thread woke up later than that
      // (a loaded host wakes sleeping threads late, and that lateness must
      // not add up over commands queued back to back).
      std::uint64_t start = std::max(free_at_, c.event->submitted);
      for (const auto &dep : c.dependencies) start = std::max(start, dep->ended);
      start = std::min(start, now_ns());
      c.event->started = start;
      c.event->set_status(CL_RUNNING);
      if (c.work) result = c.work();
      // Whatever the real work took, the command lasts its modeled time
      // (unless the real work took longer).
      const std::uint64_t end = std::max(start + static_cast<std::uint64_t>(c.seconds * 1e9), now_ns());
      std::this_thread::sleep_until(clock::time_point(std::chrono::nanoseconds(end)));
      free_at_ = end;
      c.event->ended = end;
    }
    // Drop the command's references before publishing completion: a
    // buffer the application releases right after clWaitForEvents must free
    // its device memory at once.
    auto event = std::move(c.event);
    c = Command{};
    if (!event->ended) event->ended = now_ns();
    if (!event->started) event->started = event->ended;
    event->set_status(result == CL_SUCCESS ? CL_COMPLETE : result);
    // clFinish takes an event of its queue's list that is gone as finished,
    // but finding a weak reference expired synchronizes with nothing: the
    // queue's lock, which clFinish holds while it looks, taken between the
    // completion and the release of this reference, orders the command's
    // work before clFinish's return.
    { std::lock_guard lock(event->queue->mutex); }
  }
}

void wake_all_workers() {
  if (Platform *p = platform())
    for (auto &d : p->devices) {
      d->worker.wake();
      d->copier.wake();
    }
}

}  // namespace sim
