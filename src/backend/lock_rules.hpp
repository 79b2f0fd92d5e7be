// Lock rules, checked while the tests run. A function whose comment says
// "caller holds the context lock" (or another named lock) begins with
// UNICL_HOLDS(lock, "the rule"): in a build configured with
// -Dlock_checks=true (the CI build's normal pass) the first call made
// without that lock held by the calling thread stops the program, naming the
// rule and where it was broken, so the test that made it fails. Without the
// option the check is compiled out and a CheckedMutex is a plain
// std::mutex: a library in an application never stops it.
//
// A check sees whether this thread holds the lock, not which object's lock
// the rule means: it catches a call made with no lock at all, the mistake a
// new path makes, not one made under another context's lock.
#pragma once
#include <atomic>
#include <mutex>
#include <thread>

namespace unicl {

#if UNICL_LOCK_CHECKS

// A std::mutex that knows which thread holds it.
class CheckedMutex {
 public:
  void lock() {
    m_.lock();
    owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  }
  bool try_lock() {
    if (!m_.try_lock()) return false;
    owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
    return true;
  }
  void unlock() {
    owner_.store(std::thread::id(), std::memory_order_relaxed);
    m_.unlock();
  }
  // Only the holder ever stores its own id, and clears it before it lets
  // go: a thread reads its own id here exactly while it holds the lock.
  bool held_here() const { return owner_.load(std::memory_order_relaxed) == std::this_thread::get_id(); }

 private:
  std::mutex m_;
  std::atomic<std::thread::id> owner_{};
};

// Prints the broken rule and where, then stops the (test) program.
[[noreturn]] void broken_lock_rule(const char *rule, const char *file, int line);

#define UNICL_HOLDS(lock, rule) ((lock).held_here() ? void() : ::unicl::broken_lock_rule(rule, __FILE__, __LINE__))

#else

using CheckedMutex = std::mutex;
#define UNICL_HOLDS(lock, rule) ((void)0)

#endif

}  // namespace unicl
