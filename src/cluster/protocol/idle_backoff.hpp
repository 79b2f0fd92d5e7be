// How long a polling loop of the cluster layer (rank 0's communication
// thread, a node's serving loop) pauses when it found nothing to do.
//
// MPI tells of arrivals only when asked, so these loops poll. Polled without
// pause (a yield, or MPI_Probe, which spins), every idle node and rank 0's
// thread each hold a core: on a machine with fewer cores than processes
// they take the cores the vendors compute and copy on (bench-cluster spent
// more time in the kernel, yielding, than it ran). So a loop yields only
// just after something happened, when the next message is likely to come
// within microseconds, then sleeps, longer the longer nothing has happened
// (a quarter of the quiet time so far: what is added to a late message's
// wait stays a small part of it), up to `cap`.
#pragma once
#include <sys/prctl.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace unicl::cluster {

// How long a loop yields after something happened before it sleeps, and how
// long it sleeps between polls while bulk bytes are on their way (they
// progress only inside MPI calls: a 4 MiB part takes a millisecond or more
// here, so 20 us between polls costs it little). Yielding 2 ms after each
// message, and between every poll while bytes moved, kept rank 0's thread
// and every node's loop runnable through a whole bench-cluster-scaling run:
// with 300 us and 20 us sleeps, 15% less CPU time (6.1-6.6 s against
// 7.1-7.9 in five paired runs), the makespans and a waited launch the same.
inline constexpr std::chrono::microseconds kYieldAfterActivity{300};
inline constexpr std::chrono::microseconds kMovingPause{20};

class IdleBackoff {
 public:
  using Clock = std::chrono::steady_clock;
  // Yields for `yield_for` after the last activity, then sleeps up to `cap`.
  IdleBackoff(std::chrono::microseconds yield_for, std::chrono::microseconds cap) : yield_for_(yield_for), cap_(cap) {}

  // Something happened: poll without sleeping for a while.
  void active() { since_ = Clock::now(); }

  // The pause before the next poll: zero (yield) while the loop is fresh.
  std::chrono::microseconds pause() const {
    const auto quiet = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - since_);
    if (quiet < yield_for_) return std::chrono::microseconds(0);
    return std::min(cap_, (quiet - yield_for_) / 4 + std::chrono::microseconds(1));
  }

  // Sleeps of microseconds last tens by default (the timer slack, 50 us):
  // the calling thread's own slack is made 1 us, so that short pauses stay
  // short.
  static void tight_timers() { prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0); }

 private:
  std::chrono::microseconds yield_for_, cap_;
  Clock::time_point since_ = Clock::now();
};

// How long an application's thread looks for what it waits for from a node
// before sleeping (wait_briefly_spinning).
constexpr std::chrono::microseconds kCallerSpin{50};

// Waits on `changed` (under `lock`, held on entry and return) until
// `ready()`, first looking for it a while, yielding: what a caller waits for
// from a node (a reply, a short command's end) often comes within tens of
// microseconds, and waking a sleeping thread costs as much here. Returns
// ready() (false only once `timeout` passed).
template <class Ready>
bool wait_briefly_spinning(std::unique_lock<std::mutex> &lock, std::condition_variable &changed, Ready &&ready,
                           std::chrono::microseconds spin,
                           std::chrono::milliseconds timeout = std::chrono::milliseconds::max()) {
  for (auto until = std::chrono::steady_clock::now() + spin; !ready() && std::chrono::steady_clock::now() < until;) {
    lock.unlock();
    std::this_thread::yield();
    lock.lock();
  }
  if (timeout == std::chrono::milliseconds::max()) {
    changed.wait(lock, ready);
    return true;
  }
  return changed.wait_for(lock, timeout, ready);
}

}  // namespace unicl::cluster
